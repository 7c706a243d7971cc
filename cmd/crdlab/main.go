// Command crdlab validates CustomResourceDefinitions and custom resources
// offline, exactly as kube-apiserver 1.37 would (see package
// github.com/crdlab/crdlab/engine).
//
//	crdlab validate --crd FILE [--old-crd FILE [--stored-versions V,...]] [--old FILE]
//	                [--version V] [--subresource status]
//	                [--field-validation Strict|Warn|Ignore]
//	                [--crd-field-validation Strict|Warn|Ignore] [--timeout 30s] [-o text|json] OBJECT...
//	crdlab lint [--crd-field-validation Strict|Warn|Ignore] [-o text|json] CRD...
//	crdlab lint --old OLD_CRD [--stored-versions V,...] [-o text|json] NEW_CRD
//	crdlab cost [-o text|json] [--sort K] [--top N] [--over PERCENT] CRD|DIR... [OBJECT|DIR...]
//	crdlab bench [-o text|json|csv] [--sort K] [--top N] [--over PERCENT] CRD|DIR... OBJECT|DIR...
//	crdlab test [--crd FILE|DIR]... [-run REGEX] [-o text|json] [--junit FILE] PATH...
//	crdlab schema [--draft 2020-12|07] [--strict] [-o DIR [--layout kubeconform|catalog]] CRD...
//	crdlab version
//
// OBJECT and CRD are YAML or JSON files, directories (their *.yaml, *.yml
// and *.json files, not recursively) or "-" for stdin; multi-document YAML
// and kind: List are expanded. Exit status: 0 valid, 1 invalid, 2 usage or
// I/O error.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/wire"
)

const (
	exitValid   = 0
	exitInvalid = 1
	exitUsage   = 2
)

const usage = `crdlab validates CustomResourceDefinitions and custom resources offline,
as kube-apiserver 1.37 does.

Usage:
  crdlab validate --crd FILE [--old-crd FILE [--stored-versions V,...]] [--old FILE]
                  [--version V] [--subresource status]
                  [--field-validation Strict|Warn|Ignore]
                  [--crd-field-validation Strict|Warn|Ignore] [--timeout 30s] [-o text|json] OBJECT...
  crdlab lint [--crd-field-validation Strict|Warn|Ignore] [-o text|json] CRD...
  crdlab lint --old OLD_CRD [--stored-versions V,...] [-o text|json] NEW_CRD
  crdlab cost [-o text|json] [--sort K] [--top N] [--over PERCENT] CRD|DIR... [OBJECT|DIR...]
  crdlab bench [-o text|json|csv] [--sort K] [--top N] [--over PERCENT] CRD|DIR... OBJECT|DIR...
  crdlab test [--crd FILE|DIR]... [-run REGEX] [-o text|json] [--junit FILE] PATH...
  crdlab test --init CRD
  crdlab schema [--draft 2020-12|07] [--strict] [-o DIR [--layout kubeconform|catalog]] CRD...
  crdlab version

--field-validation is the object requests' fieldValidation, --crd-field-validation
the CRD create's (unknown and duplicate fields); both default to Strict, as kubectl.

validate --engine wasm [--wasm-module FILE] runs through the WebAssembly
module (make wasm) in wazero, with the same output.

OBJECT and CRD are YAML/JSON files, directories or - (stdin). A CRD or
object document over 3 MiB is rejected as the API server rejects the request
body ("Request entity too large: limit is 3145728").
Exit status: 0 valid, 1 invalid, 2 usage or I/O error.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole CLI, testable: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "validate":
		return runValidate(args[1:], stdin, stdout, stderr)
	case "lint":
		return runLint(args[1:], stdin, stdout, stderr)
	case "cost":
		return runCost(args[1:], stdin, stdout, stderr)
	case "test":
		return runTest(args[1:], stdout, stderr)
	case "schema":
		return runSchema(args[1:], stdin, stdout, stderr)
	case "bench":
		return runBench(args[1:], stdin, stdout, stderr)
	case "upgrade":
		return runUpgrade(args[1:], stdin, stdout, stderr)
	case "version", "--version":
		fmt.Fprintf(stdout, "crdlab %s (Kubernetes 1.37, k8s.io/apiextensions-apiserver v0.37.2)\n", engine.Version)
		return exitValid
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitValid
	default:
		fmt.Fprintf(stderr, "crdlab: unknown command %q\n\n%s", args[0], usage)
		return exitUsage
	}
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("crdlab "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func checkOutput(o string, stderr io.Writer) bool {
	if o != "text" && o != "json" {
		fmt.Fprintf(stderr, "crdlab: -o must be text or json, not %q\n", o)
		return false
	}
	return true
}

func runValidate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("validate", stderr)
	crdFile := fs.String("crd", "", "the CustomResourceDefinition `FILE` (YAML or JSON; - for stdin)")
	oldCRDFile := fs.String("old-crd", "", "the CRD in the cluster `FILE`: --crd is an update of it (its verdict is the CRD's)")
	storedVersions := fs.String("stored-versions", "", "with --old-crd: its status.storedVersions, comma-separated")
	oldFile := fs.String("old", "", "the stored object `FILE`: validate an update instead of a create")
	version := fs.String("version", "", "the served `VERSION` the request is sent to (default: the object's apiVersion)")
	subresource := fs.String("subresource", "", "\"status\" to validate a status update (needs --old)")
	fieldValidation := fs.String("field-validation", "Strict", "Strict, Warn or Ignore (unknown and duplicate fields)")
	crdFieldValidation := crdFieldValidationFlag(fs)
	output := fs.String("o", "text", "output format: text or json")
	engineName := fs.String("engine", "native", "native, or wasm: run through the WebAssembly module (bindings/go, wazero)")
	wasmModule := fs.String("wasm-module", "", "the module `FILE` for --engine wasm (default: $CRDLAB_WASM, else build/crdlab.wasm)")
	timeout := fs.Duration("timeout", defaultTimeout, "the time limit of each object's validation (0: none)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *timeout < 0 {
		fmt.Fprintf(stderr, "crdlab validate: --timeout must not be negative, not %v\n", *timeout)
		return exitUsage
	}
	if !checkOutput(*output, stderr) {
		return exitUsage
	}
	if *engineName != "native" && *engineName != "wasm" {
		fmt.Fprintf(stderr, "crdlab validate: --engine must be native or wasm, not %q\n", *engineName)
		return exitUsage
	}
	if *crdFile == "" {
		fmt.Fprintln(stderr, "crdlab validate: --crd is required")
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "crdlab validate: no objects given (files, directories or -)")
		return exitUsage
	}
	switch engine.FieldValidation(*fieldValidation) {
	case engine.Strict, engine.Warn, engine.Ignore:
	default:
		fmt.Fprintf(stderr, "crdlab validate: --field-validation must be Strict, Warn or Ignore, not %q\n", *fieldValidation)
		return exitUsage
	}
	if !checkCRDFieldValidation("validate", *crdFieldValidation, stderr) {
		return exitUsage
	}
	if *subresource != "" && *subresource != "status" {
		fmt.Fprintf(stderr, "crdlab validate: --subresource must be status, not %q\n", *subresource)
		return exitUsage
	}
	if *subresource == "status" && *oldFile == "" {
		fmt.Fprintln(stderr, "crdlab validate: --subresource status needs --old (a status update)")
		return exitUsage
	}

	if *storedVersions != "" && *oldCRDFile == "" {
		fmt.Fprintln(stderr, "crdlab validate: --stored-versions needs --old-crd")
		return exitUsage
	}
	if *engineName == "wasm" && *oldCRDFile != "" {
		fmt.Fprintln(stderr, "crdlab validate: --old-crd is not supported with --engine wasm")
		return exitUsage
	}
	if *engineName == "wasm" {
		return validateWasm(wasmRequest{
			module: *wasmModule, crdFile: *crdFile, oldFile: *oldFile, version: *version,
			subresource: *subresource, fieldValidation: *fieldValidation, crdFieldValidation: *crdFieldValidation,
			output: *output, args: fs.Args(), timeout: *timeout,
		}, stdin, stdout, stderr)
	}
	var compiled *engine.CRD
	var code int
	if *oldCRDFile != "" {
		if *crdFieldValidation != string(engine.Strict) {
			fmt.Fprintln(stderr, "crdlab validate: --crd-field-validation is not supported with --old-crd (the CRD update is decoded strictly)")
			return exitUsage
		}
		compiled, code = compileUpdateFiles(*crdFile, *oldCRDFile, *storedVersions, stdin, stderr)
	} else {
		compiled, code = compileFile(*crdFile, engine.FieldValidation(*crdFieldValidation), stdin, stderr)
	}
	if compiled == nil {
		return code
	}
	opts := engine.ValidateOptions{Version: *version, Subresource: *subresource, FieldValidation: engine.FieldValidation(*fieldValidation)}
	old, docs, code := readRequestInputs(*oldFile, fs.Args(), stdin, stderr)
	if code != exitValid {
		return code
	}
	opts.Old = old

	def := compiled.Definition()
	status := exitValid
	if !compiled.Valid() {
		status = exitInvalid
		if *output == "json" {
			for range docs {
				rep := engine.NewReport(compiled, nil)
				shiftReport(rep, crdOrigin(*crdFile), origin{})
				if err := writeJSON(stdout, rep); err != nil {
					return exitUsage
				}
			}
			return status
		}
		printCRD(compiled, crdOrigin(*crdFile), stdout, stderr)
		return status
	}
	for _, d := range docs {
		ctx, cancel := withTimeout(*timeout)
		res, err := compiled.ValidateContext(ctx, d.data, opts)
		cancel()
		if err != nil {
			if isTimeout(err) {
				// The next objects are validated normally.
				fmt.Fprintf(stderr, "crdlab: %s: %v (--timeout %v)\n", d.where(), err, *timeout)
				status = exitInvalid
				continue
			}
			fmt.Fprintf(stderr, "crdlab: %s: %v\n", d.where(), err)
			return exitUsage
		}
		if !res.Valid() {
			status = exitInvalid
		}
		if *output == "json" {
			rep := engine.NewReport(compiled, res)
			shiftReport(rep, crdOrigin(*crdFile), docOrigin(d))
			if err := writeJSON(stdout, rep); err != nil {
				return exitUsage
			}
			continue
		}
		printResultStream(def, d, res, opts.Old != nil, stdout, stderr)
	}
	return status
}

// defaultTimeout is --timeout's default: generous for any real object (the
// slowest corpus objects take milliseconds), short enough that a hostile one
// cannot hold the command.
const defaultTimeout = 30 * time.Second

// withTimeout returns a context ending after d, or one that never ends
// (context.Background) when d is 0.
func withTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.Background(), func() {}
	}
	return context.WithTimeout(context.Background(), d)
}

// isTimeout reports whether err is the end of a --timeout.
func isTimeout(err error) bool {
	return errors.Is(err, context.DeadlineExceeded)
}

// readRequestInputs reads the old object (exactly one document, or nil
// without --old) and the objects to validate (CRD documents skipped).
func readRequestInputs(oldFile string, args []string, stdin io.Reader, stderr io.Writer) ([]byte, []document, int) {
	var old []byte
	if oldFile != "" {
		data, err := readFile(oldFile, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "crdlab: %v\n", err)
			return nil, nil, exitUsage
		}
		docs, err := splitDocuments(oldFile, data)
		if err != nil || len(docs) != 1 {
			fmt.Fprintf(stderr, "crdlab: %s: --old must hold exactly one object\n", oldFile)
			return nil, nil, exitUsage
		}
		old = docs[0].data
	}
	docs, err := readInputs(args, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return nil, nil, exitUsage
	}
	docs = skipCRDs(docs)
	if len(docs) == 0 {
		fmt.Fprintln(stderr, "crdlab validate: no objects found in the inputs")
		return nil, nil, exitUsage
	}
	return old, docs, exitValid
}

// skipCRDs drops CustomResourceDefinition documents (so that a directory
// holding the CRD and its objects can be validated as a whole).
func skipCRDs(docs []document) []document {
	out := docs[:0]
	for _, d := range docs {
		apiVersion, kind := docKind(d.data)
		if kind == crd.Kind && strings.HasPrefix(apiVersion, crd.Group+"/") {
			continue
		}
		out = append(out, d)
	}
	return out
}

// onlyCRDs keeps the CustomResourceDefinition documents, so that lint on a
// directory holding a CRD and its objects checks the CRD only. Documents
// without a kind are kept, so that their decoding error is reported.
func onlyCRDs(docs []document) []document {
	out := docs[:0]
	for _, d := range docs {
		apiVersion, kind := docKind(d.data)
		if kind != "" && kind != "List" && !(kind == crd.Kind && strings.HasPrefix(apiVersion, crd.Group+"/")) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// compileFile reads and compiles exactly one CRD, its create sent with the
// fieldValidation fv; on failure it prints the error and returns exitUsage.
// A CRD the API server rejects while decoding is compiled (DecodeError).
func compileFile(name string, fv engine.FieldValidation, stdin io.Reader, stderr io.Writer) (*engine.CRD, int) {
	data, err := readFile(name, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return nil, exitUsage
	}
	if err := checkCRDBody(name, data); err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return nil, exitUsage
	}
	c, err := engine.CompileWithOptions(data, engine.CompileOptions{FieldValidation: fv, Filename: name})
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return nil, exitUsage
	}
	return c, exitValid
}

// crdFieldValidationFlag defines --crd-field-validation on fs.
func crdFieldValidationFlag(fs *flag.FlagSet) *string {
	return fs.String("crd-field-validation", "Strict", "the CRD create's fieldValidation: Strict, Warn or Ignore (unknown and duplicate fields of the CRD)")
}

func checkCRDFieldValidation(cmd, fv string, stderr io.Writer) bool {
	switch engine.FieldValidation(fv) {
	case engine.Strict, engine.Warn, engine.Ignore:
		return true
	}
	fmt.Fprintf(stderr, "crdlab %s: --crd-field-validation must be Strict, Warn or Ignore, not %q\n", cmd, fv)
	return false
}

func runLint(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("lint", stderr)
	output := fs.String("o", "text", "output format: text or json")
	crdFieldValidation := crdFieldValidationFlag(fs)
	oldFile := fs.String("old", "", "the CRD in the cluster `FILE`: lint the update of it to the one CRD given")
	storedVersions := fs.String("stored-versions", "", "with --old: its status.storedVersions, comma-separated (default: the file's, else its storage version)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if !checkOutput(*output, stderr) || !checkCRDFieldValidation("lint", *crdFieldValidation, stderr) {
		return exitUsage
	}
	if *storedVersions != "" && *oldFile == "" {
		fmt.Fprintln(stderr, "crdlab lint: --stored-versions needs --old")
		return exitUsage
	}
	if *oldFile != "" {
		if *crdFieldValidation != string(engine.Strict) {
			fmt.Fprintln(stderr, "crdlab lint: --crd-field-validation is not supported with --old (the CRD update is decoded strictly)")
			return exitUsage
		}
		return runLintUpdate(*oldFile, *storedVersions, *output, fs.Args(), stdin, stdout, stderr)
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "crdlab lint: no CRDs given (files, directories or -)")
		return exitUsage
	}
	docs, err := readInputs(fs.Args(), stdin)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return exitUsage
	}
	docs = onlyCRDs(docs)
	if len(docs) == 0 {
		fmt.Fprintln(stderr, "crdlab lint: no CustomResourceDefinitions found in the inputs")
		return exitUsage
	}
	status := exitValid
	for _, d := range docs {
		if err := checkCRDBody(d.where(), d.data); err != nil {
			fmt.Fprintf(stderr, "crdlab: %v\n", err)
			return exitUsage
		}
		compiled, err := engine.CompileWithOptions(d.data, engine.CompileOptions{FieldValidation: engine.FieldValidation(*crdFieldValidation), Filename: d.source})
		if err != nil {
			fmt.Fprintf(stderr, "crdlab: %s\n", relocate(err, d))
			return exitUsage
		}
		relocateFieldErrors(compiled.FieldErrors(), d)
		if !compiled.Valid() {
			status = exitInvalid
		}
		if *output == "json" {
			rep := engine.NewReport(compiled, nil)
			shiftReport(rep, docOrigin(d), origin{})
			if err := writeJSON(stdout, wire.LintResult{CRD: rep.CRD}); err != nil {
				return exitUsage
			}
			continue
		}
		printCRD(compiled, docOrigin(d), stdout, stderr)
	}
	return status
}

// relocate shifts a CRD decoding error's line by the document's first line.
func relocate(err error, d document) string {
	var de *crd.DecodeError
	if errors.As(err, &de) && de.Line > 0 && d.line > 1 {
		shifted := *de
		shifted.Line += d.line - 1
		return shifted.Error()
	}
	return err.Error()
}

// relocateFieldErrors shifts the positions of a document's unknown and
// duplicate fields by the document's first line.
func relocateFieldErrors(errs []*crd.FieldError, d document) {
	if d.line <= 1 {
		return
	}
	for _, e := range errs {
		if e.Pos.Line > 0 {
			e.Pos.Line += d.line - 1
		}
	}
}

// checkCRDBody rejects a CRD over the API server's request body limit
// before decoding it, with the API server's message.
func checkCRDBody(where string, data []byte) error {
	if int64(len(data)) > engine.MaxRequestBodyBytes {
		return fmt.Errorf("%s: %w", where, &engine.RequestEntityTooLargeError{Limit: engine.MaxRequestBodyBytes})
	}
	return nil
}

func writeJSON(w io.Writer, v interface{}) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// printCRD prints a CRD's outcome as kubectl create --dry-run=server would.
// Errors and warnings are preceded by the file:line:col of their field.
func printCRD(c *engine.CRD, o origin, stdout, stderr io.Writer) {
	printCRDReport(c.Definition(), &engine.NewReport(c, nil).CRD, o, stdout, stderr)
}

// printCRDReport is printCRD over a report (native or from the wasm module).
func printCRDReport(def *crd.CustomResourceDefinition, rep *wire.CRDReport, o origin, stdout, stderr io.Writer) {
	for _, w := range locatedWarnings(rep.Warnings, rep.WarningPositions, o) {
		fmt.Fprintf(stderr, "Warning: %s\n", w)
	}
	name := def.Metadata.Name
	if rep.DecodeError != "" {
		// kubectl create: the API server's 400 BadRequest, then where the
		// offending fields are in the input.
		fmt.Fprintf(stderr, "Error from server (BadRequest): %s\n", rep.DecodeError)
		for _, p := range rep.FieldErrorPositions {
			fmt.Fprintf(stderr, "  %s\n", p)
		}
		return
	}
	if len(rep.Errors) > 0 {
		fmt.Fprint(stderr, engine.InvalidMessageOf(crd.Kind, name, locatedMessages(rep.Errors, o)))
		return
	}
	fmt.Fprintf(stdout, "customresourcedefinition.apiextensions.k8s.io/%s created (dry run)\n", name)
}

// messages returns the rendered errors of a report.
func messages(errs []wire.ErrorReport) []string {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Message
	}
	return msgs
}

// printResult prints one object's outcome as kubectl does: warnings,
// then the error or a success line.
// Errors and warnings are preceded by the file:line:col of their field.
func printResult(def *crd.CustomResourceDefinition, d document, rep *wire.ObjectReport, update bool, stdout, stderr io.Writer) {
	for _, w := range locatedWarnings(rep.Warnings, rep.WarningPositions, docOrigin(d)) {
		fmt.Fprintf(stderr, "Warning: %s\n", w)
	}
	verb, errVerb := "created", "creating"
	if update {
		verb, errVerb = "configured", "updating"
	}
	if rep.DecodeError != "" {
		fmt.Fprintf(stderr, "Error from server (%s): error when %s %q: %s\n", decodeReason(rep.DecodeError), errVerb, decodeWhere(d, rep), rep.DecodeError)
		return
	}
	name := objectName(rep.Result)
	if len(rep.Errors) > 0 {
		fmt.Fprint(stderr, engine.InvalidMessageOf(def.Spec.Names.Kind, name, locatedMessages(rep.Errors, docOrigin(d))))
		return
	}
	fmt.Fprintf(stdout, "%s.%s/%s %s (dry run)\n", strings.ToLower(def.Spec.Names.Kind), def.Spec.Group, name, verb)
}

func objectName(obj interface{}) string {
	m, _ := obj.(map[string]interface{})
	meta, _ := m["metadata"].(map[string]interface{})
	name, _ := meta["name"].(string)
	return name
}

// decodeReason is the status reason kubectl prints for a request that
// failed before validation: RequestEntityTooLarge for a body over the
// limit (a 413), else BadRequest.
func decodeReason(msg string) string {
	if strings.HasPrefix(msg, "Request entity too large: ") {
		return "RequestEntityTooLarge"
	}
	return "BadRequest"
}

// printResultStream is printResult over a native result, writing each error
// as it is rendered instead of building the whole message: one object's
// errors can render to gigabytes (every error of a 1,000-item list
// repeating a 100,000-value enum), while each error alone is bounded.
func printResultStream(def *crd.CustomResourceDefinition, d document, res *engine.Result, update bool, stdout, stderr io.Writer) {
	w := bufio.NewWriterSize(stderr, 64<<10)
	defer w.Flush()
	o := docOrigin(d)
	pos := res.Positions()
	for i, warning := range res.Warnings {
		fmt.Fprintf(w, "Warning: %s%s\n", o.at(wirePos(pos.Warnings[i])), warning)
	}
	verb, errVerb := "created", "creating"
	if update {
		verb, errVerb = "configured", "updating"
	}
	if res.DecodeError != "" {
		where := d.where()
		if p := o.shift(wirePos(pos.DecodeError)); p != nil {
			where = fmt.Sprintf("%s:%d:%d", d.source, p.Line, p.Column)
		}
		fmt.Fprintf(w, "Error from server (%s): error when %s %q: %s\n", decodeReason(res.DecodeError), errVerb, where, res.DecodeError)
		return
	}
	name := objectName(res.Object)
	if len(res.Errors) > 0 {
		engine.WriteInvalidMessage(w, def.Spec.Names.Kind, name, res.Errors, func(i int) string { return o.at(wirePos(pos.Errors[i])) })
		return
	}
	w.Flush()
	fmt.Fprintf(stdout, "%s.%s/%s %s (dry run)\n", strings.ToLower(def.Spec.Names.Kind), def.Spec.Group, name, verb)
}
