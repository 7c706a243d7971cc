package main

// The project configuration file, .crdlab.yaml: the Kubernetes release a
// project's runs judge by when --kube-version is not given.
//
// It is looked up from the working directory upward, like .golangci.yml;
// the search stops at the first directory holding one, at the root of the
// repository (a directory holding .git, file or directory: a checkout's
// or a worktree's), checked last, and at the filesystem root. So a
// .crdlab.yaml above a repository never decides for it.
//
// Precedence: --kube-version > .crdlab.yaml > the default release
// (engine.DefaultKubeVersion); for crdlab test, a suite's own kubeVersion
// comes between the flag and the file.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	yaml "sigs.k8s.io/yaml/goyaml.v3"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/cli/inputs"
)

// configName is the configuration file's name (a directory given as an
// input does not read it: inputs.Files).
const configName = inputs.ConfigFile

// projectConfig is a decoded .crdlab.yaml.
type projectConfig struct {
	// path is the file read.
	path string
	// kubeVersion is its kubeVersion as written ("1.38", "1.35-1.37"):
	// what --kube-version takes; "" when absent.
	kubeVersion string
	// kubeVersionLine is kubeVersion's line.
	kubeVersionLine int
}

// findConfig returns the path of the .crdlab.yaml that governs dir, or ""
// when there is none.
func findConfig(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, configName)
		st, err := os.Stat(p)
		switch {
		case err == nil && st.IsDir():
			return "", fmt.Errorf("%s: a directory, not a configuration file", p)
		case err == nil:
			return p, nil
		case !errors.Is(err, os.ErrNotExist):
			return "", err
		}
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return "", nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// loadConfig reads and decodes the configuration file at path, strictly:
// a mapping whose only key is kubeVersion, a scalar the --kube-version
// flag takes (a supported release, a range, a list or "supported").
// Errors are "path:line: what was expected".
func loadConfig(path string) (*projectConfig, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cfg := &projectConfig{path: path}
	if len(bytes.TrimSpace(data)) == 0 {
		return cfg, nil
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := decodeConfig(dec, &doc); errors.Is(err, io.EOF) {
		return cfg, nil // comments only
	} else if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var extra yaml.Node
	if err := decodeConfig(dec, &extra); err == nil {
		return nil, fmt.Errorf("%s:%d: one YAML document expected, found a second", path, extra.Line)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return cfg, nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return cfg, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: a mapping expected (kubeVersion: \"1.37\"), not %s", path, root.Line, nodeKind(root))
	}
	seen := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "kubeVersion":
			if seen {
				return nil, fmt.Errorf("%s:%d: kubeVersion given twice", path, k.Line)
			}
			seen = true
			// The scalar as written: kubeVersion: 1.30 is the release
			// 1.30, not the number 1.3.
			if v.Kind != yaml.ScalarNode || v.Tag == "!!null" || v.Value == "" {
				return nil, fmt.Errorf("%s:%d: kubeVersion: a release expected (\"1.37\", a range \"1.35-1.37\", a list \"1.35,1.37\" or \"supported\"), not %s", path, v.Line, nodeKind(v))
			}
			if _, err := engine.ParseKubeVersions(v.Value); err != nil {
				return nil, fmt.Errorf("%s:%d: kubeVersion: %v", path, v.Line, err)
			}
			cfg.kubeVersion, cfg.kubeVersionLine = v.Value, v.Line
		default:
			return nil, fmt.Errorf("%s:%d: unknown key %q (%s takes kubeVersion only)", path, k.Line, k.Value, configName)
		}
	}
	return cfg, nil
}

// decodeConfig decodes the next document of dec, turning goyaml's panics
// on hostile input into errors.
func decodeConfig(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("not valid YAML: %v", r)
		}
	}()
	return dec.Decode(n)
}

// nodeKind names what a node is, for the errors.
func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	if n.Tag == "!!null" || n.Value == "" {
		return "nothing"
	}
	return fmt.Sprintf("%q", n.Value)
}

// configKubeVersion is the kubeVersion of the .crdlab.yaml governing the
// working directory: its value and where it was read ("path:line"), or
// "" and "" when no file gives one.
func configKubeVersion() (value, from string, err error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", "", err
	}
	p, err := findConfig(wd)
	if err != nil || p == "" {
		return "", "", err
	}
	cfg, err := loadConfig(p)
	if err != nil || cfg.kubeVersion == "" {
		return "", "", err
	}
	return cfg.kubeVersion, fmt.Sprintf("%s:%d", cfg.path, cfg.kubeVersionLine), nil
}
