package main

import (
	"bytes"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/crdlab/crdlab/engine"
	"golang.org/x/tools/go/packages"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/yaml"
)

// result is what check found.
type result struct {
	diags     []Diagnostic
	crds      int
	files     map[string][]byte // the generated CRDs by controller-gen's file name
	generated time.Time         // when the CRDs were generated (for --time)
}

// memOutput is a genall.OutputRule that keeps the generated files.
type memOutput struct {
	mu    sync.Mutex
	files map[string]*bytes.Buffer
}

type memFile struct{ *bytes.Buffer }

func (memFile) Close() error { return nil }

func (m *memOutput) Open(_ *loader.Package, path string) (io.WriteCloser, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := &bytes.Buffer{}
	m.files[path] = b
	return memFile{b}, nil
}

// check generates the CRDs of the packages as "controller-gen crd" does,
// compiles each with crdlab's engine and maps the errors back to the
// markers. The error is about loading the packages.
func check(patterns []string, kubeVersion string) (*result, error) {
	var gen genall.Generator = crd.Generator{} // controller-gen crd's defaults
	rt, err := genall.Generators{&gen}.ForRootsWithConfig(&packages.Config{}, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %v", strings.Join(patterns, " "), err)
	}
	out := &memOutput{files: map[string]*bytes.Buffer{}}
	rt.OutputRules = genall.OutputRules{Default: out}
	var genErrs bytes.Buffer
	rt.ErrorWriter = &genErrs
	// Run prints the packages' errors on os.Stderr (loader.PrintErrors):
	// they are read below and reported as diagnostics instead
	stderr := os.Stderr
	if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		os.Stderr = null
		defer null.Close()
	}
	rt.Run()
	os.Stderr = stderr

	res := &result{generated: time.Now(), files: map[string][]byte{}}
	m := newMapper(rt.Roots, rt.Collector)
	// the packages' errors (syntax, a marker that does not parse, an
	// invalid marker value): controller-gen prints them and fails;
	// type errors are skipped as controller-gen does (its type checking
	// is partial)
	packages.Visit(rawPackages(rt.Roots), nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if e.Kind == packages.TypeError {
				continue
			}
			res.diags = append(res.diags, m.loadError(p, e))
		}
	})
	if s := strings.TrimSpace(genErrs.String()); s != "" {
		for _, line := range strings.Split(s, "\n") {
			res.diags = append(res.diags, m.packageDiag(nil, "error", "controller-gen crd: "+line, ""))
		}
	}

	names := make([]string, 0, len(out.files))
	for name := range out.files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		data := out.files[name].Bytes()
		res.files[name] = data
		res.crds++
		res.diags = append(res.diags, m.checkCRD(name, data, kubeVersion)...)
	}
	// controller-tools reports a marker that does not parse once per
	// target it tried: each diagnostic once
	seen := map[Diagnostic]bool{}
	uniq := res.diags[:0]
	for _, d := range res.diags {
		d.File = displayPath(d.File)
		if !seen[d] {
			seen[d] = true
			uniq = append(uniq, d)
		}
	}
	res.diags = uniq
	sort.SliceStable(res.diags, func(i, j int) bool {
		a, b := res.diags[i], res.diags[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return res, nil
}

func rawPackages(pkgs []*loader.Package) []*packages.Package {
	out := make([]*packages.Package, len(pkgs))
	for i, p := range pkgs {
		out[i] = p.Package
	}
	return out
}

// checkCRD compiles one generated CRD and maps its errors and warnings.
func (m *mapper) checkCRD(name string, data []byte, kubeVersion string) []Diagnostic {
	var def apiextensionsv1.CustomResourceDefinition
	if err := yaml.Unmarshal(bytes.TrimPrefix(data, []byte("---\n")), &def); err != nil {
		return []Diagnostic{m.packageDiag(nil, "error", fmt.Sprintf("%s: reading the generated CRD: %v", name, err), "")}
	}
	c, err := engine.CompileWithOptions(data, engine.CompileOptions{KubeVersion: kubeVersion, Filename: name})
	if err != nil {
		return []Diagnostic{m.kindDiag(&def, "error", fmt.Sprintf("%s: %v", name, err), "")}
	}
	var out []Diagnostic
	if msg := c.DecodeError(); msg != "" {
		return []Diagnostic{m.kindDiag(&def, "error", msg, "")}
	}
	for _, e := range c.Errors() {
		out = append(out, m.fieldError(&def, e.Field, e.Detail, e.Error()))
	}
	for _, w := range c.Warnings() {
		out = append(out, m.warning(&def, w))
	}
	return out
}

// displayPath is path relative to the working directory when it is
// under it.
func displayPath(path string) string {
	if path == "" || !filepath.IsAbs(path) {
		return path
	}
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

// position converts a token.Position to a Diagnostic range over the
// rest of its line.
func lineDiag(p token.Position, lineText string) Diagnostic {
	return Diagnostic{File: p.Filename, Line: p.Line, Column: p.Column, EndLine: p.Line, EndColumn: len(lineText) + 1}
}
