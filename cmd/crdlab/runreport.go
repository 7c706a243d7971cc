package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/internal/cli/report"
	"github.com/crdlab/crdlab/wire"
)

// The flags and helpers of the commands that write a run report
// (wire.RunReport): validate and lint.

// outputFlags are the report flags of validate and lint.
type outputFlags struct {
	runtimeFlags
	output    string
	summary   bool
	recursive bool
	jobs      int
	empty     bool
	crdFV     string
	kube      kubeVersionFlag
}

func (o *outputFlags) declare(fs *flag.FlagSet) {
	fs.StringVarP(&o.output, "output", "o", "text", "output format: "+strings.Join(report.Formats, ", "))
	fs.BoolVar(&o.summary, "summary", false, "print the counts after the results (text, jsonl, tap, github)")
	fs.BoolVarP(&o.recursive, "recursive", "R", false, "read directories recursively (as kubectl -R)")
	fs.IntVarP(&o.jobs, "jobs", "j", 0, "objects validated at once (default: the number of CPUs)")
	fs.StringVar(&o.crdFV, "crd-field-validation", "Strict", "the CRD create's fieldValidation: Strict, Warn or Ignore (unknown and duplicate fields of the CRDs; any case)")
	fs.BoolVar(&o.empty, "allow-empty", false, "finding nothing to validate is not an error (for hooks given any changed file)")
	o.kube.declare(fs)
	o.runtimeFlags.declare(fs)
}

func (o *outputFlags) check() error {
	var err error
	if o.output, err = enum("output", o.output, report.Formats...); err != nil {
		return err
	}
	if err = o.runtimeFlags.check(); err != nil {
		return err
	}
	if err = o.kube.check(); err != nil {
		return err
	}
	if o.crdFV, err = enum("crd-field-validation", o.crdFV, "Strict", "Warn", "Ignore"); err != nil {
		return err
	}
	if o.jobs < 0 {
		return fmt.Errorf("--jobs must be at least 1, not %d", o.jobs)
	}
	if o.jobs == 0 {
		o.jobs = runtime.NumCPU()
	}
	return nil
}

// writeEmpty reports a run with nothing to validate (--allow-empty).
func writeEmpty(f outputFlags, stdout, stderr io.Writer) int {
	rep := &wire.RunReport{KubeVersion: f.kube.version, Results: []wire.RunEntry{}}
	if err := report.Write(f.output, rep, stdout, stderr, report.Options{Summary: f.summary}); err != nil {
		return reportInputError(stderr, err)
	}
	return exitValid
}

// newCatalog returns an empty catalogue compiling with the chosen runtime.
func newCatalog(f *outputFlags, stderr io.Writer) (*inputs.Catalog, int) {
	cat := inputs.New()
	cat.CRDFieldValidation = engine.FieldValidation(f.crdFV)
	cat.KubeVersion = f.kube.version
	cat.Share = f.kube.share
	if f.wasm() {
		compiler, err := wasmCompiler(f.module, f.crdFV, f.kube.version)
		if err != nil {
			return nil, reportInputError(stderr, err)
		}
		cat.Compiler = compiler
	}
	return cat, exitValid
}
