// Command npmpack packs the JavaScript binding (bindings/js, with the
// WebAssembly module) as the npm package a release would publish, at the
// GoReleaser snapshot's version:
//
//	npmpack -dist dist -package bindings/js
//
// It copies the package's published files (package.json's "files", and the
// prepack script) to a scratch directory, sets "version" there (the checkout's
// package.json is left alone), runs `npm pack` and moves the tarball into dist
// (crdlab-crdlab-VERSION.tgz), adding its SHA-256 to dist/checksums.txt.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/crdlab/crdlab/tools/release/internal/dist"
)

func main() {
	dir := flag.String("dist", "dist", "GoReleaser's output directory")
	pkg := flag.String("package", "bindings/js", "the npm package's directory")
	flag.Parse()
	if err := run(*dir, *pkg); err != nil {
		fmt.Fprintln(os.Stderr, "npmpack:", err)
		os.Exit(1)
	}
}

func run(distDir, pkg string) error {
	meta, _, err := dist.Read(distDir)
	if err != nil {
		return err
	}
	raw, err := os.ReadFile(filepath.Join(pkg, "package.json"))
	if err != nil {
		return err
	}
	var manifest map[string]any
	if err := json.Unmarshal(raw, &manifest); err != nil {
		return fmt.Errorf("%s/package.json: %v", pkg, err)
	}
	files, _ := manifest["files"].([]any)
	if len(files) == 0 {
		return fmt.Errorf(`%s/package.json: no "files" list`, pkg)
	}
	stage, err := os.MkdirTemp("", "crdlab-npmpack-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	for _, f := range append(files, "scripts") {
		name, _ := f.(string)
		if err := copyTree(filepath.Join(pkg, name), filepath.Join(stage, name)); err != nil {
			return err
		}
	}
	manifest["version"] = meta.Version
	delete(manifest, "devDependencies")
	out, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(stage, "package.json"), append(out, '\n'), 0o644); err != nil {
		return err
	}
	abs, err := filepath.Abs(distDir)
	if err != nil {
		return err
	}
	cmd := exec.Command("npm", "pack", "--pack-destination", abs)
	cmd.Dir = stage
	cmd.Stderr = os.Stderr
	stdout, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("npm pack: %v", err)
	}
	lines := strings.Fields(strings.TrimSpace(string(stdout)))
	if len(lines) == 0 {
		return fmt.Errorf("npm pack printed no file name")
	}
	tgz := filepath.Join(abs, lines[len(lines)-1])
	fmt.Println(tgz)
	return dist.AppendChecksums(distDir, []string{tgz})
}

func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		out, err := os.Create(target)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}
