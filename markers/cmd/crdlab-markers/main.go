// Command crdlab-markers reports the API server's verdict on the CRDs that
// controller-gen would generate from Go packages, at the kubebuilder
// markers that produced each error: it loads the packages with
// sigs.k8s.io/controller-tools as a library (controller-gen crd's
// defaults), builds each CRD in memory, compiles it with crdlab's engine
// (kube-apiserver's CRD validation, CEL compilation and cost budgets) and
// maps every error and warning back to Go source positions.
//
// It lives in its own module (github.com/crdlab/crdlab/markers) so that
// controller-tools and the k8s.io modules it needs stay out of crdlab's
// main module; `crdlab lsp` runs it for Go files when its
// markersCommand option names it.
//
// # Files
//
//   - main.go: flags (-o text|json, --kube-version, --time), output, exit
//     status (1 an error, 2 usage or load errors).
//   - check.go: genall.Generators{crd.Generator{}}.ForRootsWithConfig
//     (controller-gen crd's defaults) with an in-memory genall.OutputRule:
//     the YAML controller-gen writes, compiled by engine.CompileWithOptions;
//     the packages' errors (markers that do not parse) as diagnostics.
//   - mapper.go: CRD field path → Go: the schema path walked through the Go
//     AST (properties by JSON name, inline and embedded structs, pointers,
//     slices, maps, named types across packages), the markers found in the
//     comments above the field and its type; an x-kubernetes-validations[i]
//     error on the marker whose rule (decoded by controller-tools' own
//     marker registry) is the CRD's rule, CEL's column mapped through the Go
//     string literal; other keys on the marker named after them (pattern →
//     Pattern); else the field, the type, the package.
//
// Tests: golden text and JSON outputs on markers/testdata/api/v1 (make
// markers-test); the language server's side with a fake command in
// internal/cli/lsp's markers_test.go.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/crdlab/crdlab/engine"
	"github.com/spf13/pflag"
)

const usage = `crdlab-markers reports the errors and warnings kube-apiserver would give on
the CRDs controller-gen generates from Go API packages, at the kubebuilder
markers (+kubebuilder:validation:XValidation:rule=..., Pattern, MaxLength,
...) or fields that produced them.

Usage:
  crdlab-markers [-o text|json] [--kube-version V] PACKAGES...

PACKAGES are Go package patterns or directories, as controller-gen's
paths= takes them (./api/..., ./api/v1). The CRDs are generated with the
defaults of "controller-gen crd" (apiextensions.k8s.io/v1, full
descriptions), as "make manifests" writes them.

Output: file:line:column: error|warning: message (text), or a JSON array of
{file, line, column, endLine, endColumn, severity, message, path} (-o json);
columns are 1-based bytes. Exit status: 0 no error, 1 an error, 2 a usage
error or packages that could not be loaded.

Examples:
  crdlab-markers ./api/...
  crdlab-markers -o json --kube-version 1.35 ./api/v1

Flags:
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Diagnostic is one error or warning at a Go source range.
type Diagnostic struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Severity  string `json:"severity"` // "error" or "warning"
	Message   string `json:"message"`
	// Path is the CRD field path of the error (empty for a load error or
	// a warning that names none).
	Path string `json:"path"`
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("crdlab-markers", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	output := fs.StringP("output", "o", "text", "output format: text or json")
	kube := fs.String("kube-version", "", "the Kubernetes release whose API server gives the verdict (default "+engine.DefaultKubeVersion+")")
	timing := fs.Bool("time", false, "print the load, generation and check times on stderr")
	help := fs.BoolP("help", "h", false, "print this help")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "crdlab-markers: %v\n(crdlab-markers --help for usage)\n", err)
		return 2
	}
	if *help {
		fmt.Fprint(stdout, usage+fs.FlagUsages())
		return 0
	}
	if *output != "text" && *output != "json" {
		fmt.Fprintf(stderr, "crdlab-markers: -o %q: give text or json\n", *output)
		return 2
	}
	if *kube != "" {
		rs, err := engine.ParseKubeVersions(*kube)
		if err != nil || len(rs) != 1 {
			if err == nil {
				err = errors.New("give one release")
			}
			fmt.Fprintf(stderr, "crdlab-markers: --kube-version %q: %v\n", *kube, err)
			return 2
		}
		*kube = rs[0]
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "crdlab-markers: give one or more Go packages (./api/...)\n(crdlab-markers --help for usage)")
		return 2
	}
	start := time.Now()
	res, err := check(fs.Args(), *kube)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab-markers: %v\n", err)
		return 2
	}
	if *timing {
		fmt.Fprintf(stderr, "crdlab-markers: %d CRDs; load and generate %v, compile and map %v, total %v\n",
			res.crds, res.generated.Sub(start).Round(time.Millisecond), time.Since(res.generated).Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	}
	diags := res.diags
	if *output == "json" {
		if diags == nil {
			diags = []Diagnostic{}
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		_ = enc.Encode(diags)
		_, _ = stdout.Write(buf.Bytes())
	} else {
		for _, d := range diags {
			fmt.Fprintf(stdout, "%s:%d:%d: %s: %s\n", d.File, d.Line, d.Column, d.Severity, d.Message)
		}
	}
	for _, d := range diags {
		if d.Severity == "error" {
			return 1
		}
	}
	return 0
}
