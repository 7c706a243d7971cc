// Package corpus locates the real-world corpus for tests: the CRDs (and
// example objects) of public projects that the repository's
// scripts/corpus.sh fetches through the Go module proxy into the module
// cache. It is the one copy of that lookup; the test suites of the main
// module and of conformance/ use it.
//
// The environment overrides it: CRDLAB_CORPUS gives the directories
// (separated by the OS path list separator) without running any script
// (the value "all" is not a directory list: it asks some suites to check
// every CRD instead of a sample, and the script still runs), and
// CRDLAB_CORPUS_FETCH names another script to run instead of
// scripts/corpus.sh.
package corpus

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Script is the fetch script's path relative to the repository root.
const Script = "scripts/corpus.sh"

// Options tunes how the script runs.
type Options struct {
	// Offline runs the script with GOPROXY=off: only modules already in the
	// module cache are found, nothing is downloaded.
	Offline bool
}

// Dirs returns the corpus module directories, or an error that says why
// there is no corpus (a test skips with it).
func Dirs(opts Options) ([]string, error) {
	if env := os.Getenv("CRDLAB_CORPUS"); env != "" && env != "all" {
		return filepath.SplitList(env), nil
	}
	script := os.Getenv("CRDLAB_CORPUS_FETCH")
	if script == "" {
		var err error
		if script, err = FindUp(Script); err != nil {
			return nil, fmt.Errorf("no corpus: set CRDLAB_CORPUS or CRDLAB_CORPUS_FETCH (%v)", err)
		}
	}
	if _, err := os.Stat(script); err != nil {
		return nil, fmt.Errorf("no corpus: set CRDLAB_CORPUS or CRDLAB_CORPUS_FETCH (%v)", err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command("bash", script)
	cmd.Stderr = &stderr
	if opts.Offline {
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	}
	out, err := cmd.Output()
	if err != nil {
		hint := ""
		if opts.Offline {
			hint = fmt.Sprintf(" (offline: run bash %s once to fetch)", script)
		}
		return nil, fmt.Errorf("%s: %v%s: %s", script, err, hint, strings.TrimSpace(stderr.String()))
	}
	var dirs []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			dirs = append(dirs, l)
		}
	}
	return dirs, nil
}

// Module returns the corpus directory whose path contains the given string
// (for example "sigs.k8s.io/gateway-api@"), or an error.
func Module(opts Options, contains string) (string, error) {
	dirs, err := Dirs(opts)
	if err != nil {
		return "", err
	}
	for _, d := range dirs {
		if strings.Contains(filepath.ToSlash(d), contains) {
			return d, nil
		}
	}
	return "", fmt.Errorf("corpus module %s not in the corpus", contains)
}

// FindUp returns rel joined to the nearest directory, from the working
// directory up, where it exists.
func FindUp(rel string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, rel)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%s not found in the working directory or above", rel)
		}
		dir = parent
	}
}
