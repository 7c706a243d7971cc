package inputs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/wire"
)

// Entry is one CRD of a catalogue.
type Entry struct {
	Doc Document
	Def *crd.CustomResourceDefinition
	CRD Compiled
}

// Compiled is a compiled CRD: the native runtime's (Native) or another
// runtime's with the same reports (the WebAssembly module, bindings/wasm).
// It must be safe for concurrent use.
type Compiled interface {
	// Report is the CRD's validation outcome.
	Report() wire.CRDReport
	// Validate validates one object as engine.CRD.ValidateContext does and
	// returns its report; the error is ValidateContext's (misuse, or the
	// end of ctx).
	Validate(ctx context.Context, object []byte, opts engine.ValidateOptions) (*wire.ObjectReport, error)
}

// Compiler compiles a decoded CRD; the document is given for runtimes that
// take the bytes.
type Compiler func(d Document, def *crd.CustomResourceDefinition) (Compiled, error)

// Native compiles with the engine.
func Native(_ Document, def *crd.CustomResourceDefinition) (Compiled, error) {
	return newNative(engine.CompileCRD(def)), nil
}

// NativeCRD is an already compiled CRD (e.g. engine.CompileCRDUpdate's) as
// a Compiled.
func NativeCRD(c *engine.CRD) Compiled { return newNative(c) }

type native struct {
	c      *engine.CRD
	report *nativeReport // the CRD's report, rendered once
}

type nativeReport struct {
	once sync.Once
	rep  wire.CRDReport
}

func newNative(c *engine.CRD) native { return native{c, &nativeReport{}} }

// Report renders the CRD's report once: a run asks for it for every
// object of the CRD.
func (n native) Report() wire.CRDReport {
	n.report.once.Do(func() { n.report.rep = engine.NewReport(n.c, nil).CRD })
	return n.report.rep
}

func (n native) Validate(ctx context.Context, object []byte, opts engine.ValidateOptions) (*wire.ObjectReport, error) {
	res, err := n.c.ValidateContext(ctx, object, opts)
	if err != nil {
		return nil, err
	}
	return engine.NewReport(n.c, res).Object, nil
}

// validateUnrendered is Validate with the errors' messages left empty:
// they are rendered from the field errors returned (index for index) when
// the report is written. A field error's detail can be megabytes (a
// 100,000-value enum's supported values, shared by every item's error);
// its message is a copy per error.
func (n native) validateUnrendered(ctx context.Context, d *Document, opts engine.ValidateOptions) (*wire.ObjectReport, field.ErrorList, error) {
	var res *engine.Result
	var err error
	if d.parsed != nil {
		// Parsed by StreamInputs: not parsed again.
		res, err = n.c.ValidateDocument(ctx, d.parsed, opts)
		d.parsed = nil
	} else {
		res, err = n.c.ValidateContext(ctx, d.Body(), opts)
	}
	if err != nil {
		return nil, nil, err
	}
	// engine.NewReport's object report, the errors' messages left out.
	pos := res.Positions()
	rep := &wire.ObjectReport{
		Result: res.Object, OldResult: res.OldObject,
		Pruned: nonNil(res.Pruned), DecodeError: res.DecodeError,
		DecodeErrorPosition: wirePosition(pos.DecodeError),
		Errors:              make([]wire.ErrorReport, len(res.Errors)),
		Warnings:            nonNil(res.Warnings),
	}
	for i, e := range res.Errors {
		rep.Errors[i] = wire.ErrorReport{Type: string(e.Type), Field: e.Field, Detail: e.Detail}
		if i < len(pos.Errors) {
			rep.Errors[i].Position = wirePosition(pos.Errors[i])
		}
	}
	for i, p := range pos.Warnings {
		if p.Known() {
			if rep.WarningPositions == nil {
				rep.WarningPositions = make([]*wire.Position, len(pos.Warnings))
			}
			rep.WarningPositions[i] = wirePosition(p)
		}
	}
	return rep, res.Errors, nil
}

func wirePosition(p engine.Position) *wire.Position {
	if !p.Known() {
		return nil
	}
	return &wire.Position{Line: p.Line, Column: p.Column}

}

type groupKind struct{ group, kind string }

// Catalog indexes compiled CRDs by group and kind. It is not safe for
// concurrent Add; lookups (StreamInputs) are.
type Catalog struct {
	// Compiler compiles the CRDs added; nil is Native.
	Compiler Compiler
	// CRDFieldValidation is the CRD create's fieldValidation for Native
	// (Strict when empty): unknown and duplicate fields of a CRD are the
	// API server's 400 (its report's DecodeError) or warnings.
	CRDFieldValidation engine.FieldValidation
	// KubeVersion is the Kubernetes release Native reproduces
	// (engine.CompileOptions.KubeVersion; "" is the default).
	KubeVersion string
	// Share is the compile work shared with the runs of the other
	// releases of a --kube-version matrix (engine.CompileOptions.Share).
	Share *engine.CompileShare

	byName map[string]*Entry
	byGK   map[groupKind]*Entry
	order  []*Entry
}

// New returns an empty catalogue.
func New() *Catalog {
	return &Catalog{byName: map[string]*Entry{}, byGK: map[groupKind]*Entry{}}
}

// Add decodes and compiles a CRD document. A CRD already in the catalogue
// under the same name is shared when it is the same document (the same
// file given twice, a --crd directory inside the inputs), and an error
// otherwise. A CRD that does not decode is an *InputError.
func (c *Catalog) Add(d Document) (*Entry, error) {
	if e, ok := c.byName[d.Name]; ok && d.Name != "" {
		if bytes.Equal(e.Doc.Data, d.Data) {
			return e, nil
		}
		return nil, &InputError{File: d.File, Line: d.Line, Err: fmt.Errorf("CustomResourceDefinition %q is also defined, differently, at %s", d.Name, e.Doc.Where())}
	}
	if int64(len(d.Raw)) > engine.MaxRequestBodyBytes {
		// Rejected before decoding, as the API server rejects the body.
		return nil, &InputError{File: d.File, Line: d.Line, Err: &engine.RequestEntityTooLargeError{Limit: engine.MaxRequestBodyBytes}}
	}
	if c.Compiler == nil {
		// The engine decodes the CRD as the API server does (unknown and
		// duplicate fields per CRDFieldValidation); other decoding errors
		// are located input errors.
		compiled, err := engine.CompileWithOptions(d.Raw, engine.CompileOptions{FieldValidation: c.CRDFieldValidation, Filename: d.File, KubeVersion: c.KubeVersion, Share: c.Share})
		if err != nil {
			if _, derr := DecodeCRD(d); derr != nil {
				return nil, derr
			}
			return nil, &InputError{File: d.File, Line: d.Line, Err: err}
		}
		e := &Entry{Doc: d, Def: compiled.Definition(), CRD: newNative(compiled)}
		return e, c.insert(e)
	}
	var def *crd.CustomResourceDefinition
	{
		// Unknown and duplicate fields are for the compiler to report (its
		// DecodeError, warnings or nothing per CRDFieldValidation), as the
		// API server decodes the CRD; other decoding errors are located
		// input errors.
		if doc, err := crd.DecodeOneDocument(d.Raw, d.File); err == nil {
			def = doc.CRD
		}
	}
	if def == nil {
		var err error
		if def, err = DecodeCRD(d); err != nil {
			return nil, err
		}
	}
	compile := c.Compiler
	compiled, err := compile(d, def)
	if err != nil {
		return nil, &InputError{File: d.File, Line: d.Line, Err: err}
	}
	e := &Entry{Doc: d, Def: def, CRD: compiled}
	return e, c.insert(e)
}

// insert indexes a compiled CRD; a different CRD of the same name is an
// error. The first CRD of a group and kind serves it.
func (c *Catalog) insert(e *Entry) error {
	d := e.Doc
	if prev, ok := c.byName[d.Name]; ok {
		if bytes.Equal(prev.Doc.Data, d.Data) {
			return nil
		}
		return &InputError{File: d.File, Line: d.Line, Err: fmt.Errorf("CustomResourceDefinition %q is also defined, differently, at %s", d.Name, prev.Doc.Where())}
	}
	c.byName[d.Name] = e
	def := e.Def
	gk := groupKind{def.Spec.Group, def.Spec.Names.Kind}
	if _, ok := c.byGK[gk]; !ok {
		c.byGK[gk] = e
	}
	c.order = append(c.order, e)
	return nil
}

// Entries returns the CRDs of the catalogue, in the order they were added.
func (c *Catalog) Entries() []*Entry { return c.order }

// Lint compiles every CRD document on its own (two versions of a CRD may
// be linted side by side) and reports each, in order.
func (c *Catalog) Lint(defs []Document, jobs int) (*wire.RunReport, error) {
	compiled := make([]*Catalog, len(defs))
	errs := make([]error, len(defs))
	parallel(len(defs), jobs, func(i int) {
		one := New()
		one.Compiler, one.CRDFieldValidation, one.KubeVersion, one.Share = c.Compiler, c.CRDFieldValidation, c.KubeVersion, c.Share
		_, errs[i] = one.Add(defs[i])
		compiled[i] = one
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	rep := &wire.RunReport{Results: make([]wire.RunEntry, len(defs))}
	for i := range defs {
		rep.Results[i] = compiled[i].entry(&defs[i], Options{}).Rendered()
	}
	rep.Summary = summarize(rep.Results)
	return rep, nil
}

// parallel runs f(0..n-1) on jobs goroutines (0: the number of CPUs).
func parallel(n, jobs int, f func(i int)) {
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	var wg sync.WaitGroup
	next := make(chan int, jobs)
	for w := 0; w < jobs && w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// Lookup returns the CRD serving an object's apiVersion and kind, or a
// one-line reason why there is none.
func (c *Catalog) Lookup(apiVersion, kind string) (*Entry, string) {
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group, version = "", apiVersion
	}
	if !IsObject(apiVersion, kind) {
		return nil, NotAnObject
	}
	e, found := c.byGK[groupKind{group, kind}]
	if !found {
		if builtinGroup(group) {
			return nil, fmt.Sprintf("%s %s is a built-in kind: no CustomResourceDefinition to validate it against", apiVersion, kind)
		}
		return nil, fmt.Sprintf("no CustomResourceDefinition for %s %s in the catalogue", apiVersion, kind)
	}
	var served []string
	for _, v := range e.Def.Spec.Versions {
		if v.Served {
			if v.Name == version {
				return e, ""
			}
			served = append(served, v.Name)
		}
	}
	return nil, fmt.Sprintf("CustomResourceDefinition %s does not serve version %s (served: %s)", e.Doc.Name, version, strings.Join(served, ", "))
}

// builtinGroup reports whether a group is one of Kubernetes' own API groups
// (the core group, the *.k8s.io groups of kube-apiserver, and the
// historical unqualified ones). CRDs may use *.k8s.io groups too (Gateway
// API): Lookup consults the catalogue first.
func builtinGroup(g string) bool {
	switch g {
	case "", "apps", "batch", "autoscaling", "policy", "extensions",
		"rbac.authorization.k8s.io", "flowcontrol.apiserver.k8s.io", "internal.apiserver.k8s.io":
		return true
	}
	return strings.HasSuffix(g, ".k8s.io") && !strings.Contains(strings.TrimSuffix(g, ".k8s.io"), ".")
}

// MissingCRDs decides what an object whose kind has no CRD does to a run.
type MissingCRDs string

const (
	// MissingSkip reports it as skipped (the default).
	MissingSkip MissingCRDs = "skip"
	// MissingError reports it as an error: the run fails.
	MissingError MissingCRDs = "error"
)

// Options configure a run (StreamInputs).
type Options struct {
	// Jobs is the number of objects validated at once; 0 is the number of
	// CPUs.
	Jobs int
	// MissingCRDs is MissingSkip ("" too) or MissingError.
	MissingCRDs MissingCRDs
	// Results keeps each object's stored form in its entry (Result); without
	// it a large run does not hold every object in memory.
	Results bool
	// Validate are the request options of every object (FieldValidation,
	// Old, Subresource; Version must be empty: each object picks its own).
	Validate engine.ValidateOptions
	// Timeout bounds each object's validation (0: no limit); an object
	// whose validation passes it is an error entry naming the limit.
	Timeout time.Duration
	// Admit, when set, runs on each entry right after its validation (in
	// the worker, before it is counted and emitted): validating admission
	// policies change the entry's status, errors and warnings there; it
	// runs too on an entry that Mutate refused (its Mutation not allowed).
	// It must be safe for concurrent use.
	Admit func(d *Document, r *Result)
	// Builtins, when set, validates the objects of Kubernetes' built-in
	// kinds (internal/builtin); without it they are skipped.
	Builtins *Builtins
	// Kinds, when not empty, are the only kinds validated; SkipKinds are
	// kinds not validated: their objects are skipped with a reason. A kind
	// is "Kind" or "Kind.group" ("Deployment", "Deployment.apps").
	Kinds, SkipKinds []string
	// Mutate, when set, runs on each object before its validation (in the
	// worker): mutating admission policies. It returns the document to
	// validate (d itself when nothing changed) and the outcome the entry
	// records (nil: no policy applied); a refusal makes the entry invalid
	// without validating it. It must be safe for concurrent use.
	Mutate func(d *Document) (*Document, *wire.MutationOutcome)
}

// Result is one entry of a run as StreamInputs gives it: the run entry, whose
// errors' messages may be left unrendered (empty) until written: Message
// renders them. A field error's detail can be megabytes (a 100,000-value
// enum's supported values, shared by every item's error); each rendered
// message would be a copy of it.
type Result struct {
	wire.RunEntry
	// AsWritten is set on a partial built-in object that was not validated
	// natively at all (a kind decoded by its schema only, a request to a
	// subresource crdlab does not handle): admission sees it as written.
	AsWritten bool
	// fieldErrors are the engine's errors of Errors, index for index, when
	// their messages are not rendered.
	fieldErrors field.ErrorList
}

// Message is the message of the i-th error (wire.ErrorReport's Message:
// field.Error's Error()), rendered now when it was left out.
func (r *Result) Message(i int) string {
	if m := r.Errors[i].Message; m != "" || r.fieldErrors == nil {
		return m
	}
	return r.fieldErrors[i].Error()
}

// Rendered returns the run entry with every error's message.
func (r *Result) Rendered() wire.RunEntry {
	e := r.RunEntry
	if r.fieldErrors != nil {
		e.Errors = make([]wire.LocatedError, len(r.Errors))
		for i := range e.Errors {
			e.Errors[i] = r.Errors[i]
			e.Errors[i].Message = r.Message(i)
		}
	}
	return e
}

// streamJob is one document to validate (d nil: skipped, the run
// stopped); streamItem its outcome.
type streamJob struct {
	i   int
	d   *Document
	err error
}

type streamItem struct {
	d   *Document
	r   *Result
	err error
}

// stream validates n documents given in order by gen (on one goroutine,
// as the window allows): CRDs (which must have been added to the
// catalogue) are linted, objects validated against their CRD, the rest
// skipped. It gives each entry to emit in the documents' order, on the
// calling goroutine, as soon as it and those before it are done; emit
// must not keep r after it returns. At most a few entries per job wait
// for an earlier one. An error of emit stops the run (the documents not
// yet started are not validated) and is returned; the summary counts the
// entries emitted. A document gen returns unparsed (StreamInputs) is
// parsed by the worker validating it. An error of gen
// or of a document's parsing is the run's when its turn comes: the
// entries before it are emitted, none after.
func (c *Catalog) stream(n int, gen func(i int) (*Document, error), opts Options, emit func(i int, d *Document, r *Result) error) (wire.RunSummary, error) {
	var s wire.RunSummary
	files := map[string]bool{}
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	// window entries at most are validated and not yet emitted: entry k
	// starts once k-window is emitted, so slot k%window is free.
	window := 4 * jobs
	if window > n {
		window = n
	}
	slots := make([]chan streamItem, window)
	for i := range slots {
		slots[i] = make(chan streamItem, 1)
	}
	tokens := make(chan struct{}, window)
	var stopped atomic.Bool
	next := make(chan streamJob)
	var wg sync.WaitGroup
	for w := 0; w < jobs && w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				it := streamItem{d: j.d, err: j.err}
				if j.d != nil && !stopped.Load() {
					if j.d.pending {
						j.d.pending = false
						it.err = parsePending(j.d, c.Compiler == nil)
					}
					if it.err == nil {
						vd, mo := j.d, (*wire.MutationOutcome)(nil)
						if opts.Mutate != nil && !j.d.IsCRD() {
							vd, mo = opts.Mutate(j.d)
						}
						it.r = c.entry(vd, opts)
						if mo != nil && it.r != nil {
							recordMutation(it.r, mo)
						}
						if opts.Admit != nil && it.r != nil {
							opts.Admit(vd, it.r)
						}
					}
				}
				slots[j.i%window] <- it
			}
		}()
	}
	go func() {
		failed := false
		for i := 0; i < n; i++ {
			tokens <- struct{}{}
			j := streamJob{i: i}
			if !failed && !stopped.Load() {
				j.d, j.err = gen(i)
				failed = j.err != nil
			}
			next <- j
		}
		close(next)
	}()
	var err error
	for i := 0; i < n; i++ {
		it := <-slots[i%window]
		if err == nil {
			switch {
			case it.err != nil:
				err = it.err
				stopped.Store(true)
			case it.r != nil:
				files[it.r.File] = true
				count(&s, it.r.Status)
				if err = emit(i, it.d, it.r); err != nil {
					stopped.Store(true)
				}
			}
		}
		<-tokens
	}
	wg.Wait()
	s.Files = len(files)
	return s, err
}

func count(s *wire.RunSummary, status wire.RunStatus) {
	s.Total++
	switch status {
	case wire.StatusValid:
		s.Valid++
	case wire.StatusInvalid:
		s.Invalid++
	case wire.StatusSkipped:
		s.Skipped++
	case wire.StatusPartial:
		s.Partial++
	default:
		s.Errors++
	}
}

// Summarize counts the files and statuses of a run's entries.
func Summarize(results []wire.RunEntry) wire.RunSummary { return summarize(results) }

func summarize(results []wire.RunEntry) wire.RunSummary {
	var s wire.RunSummary
	files := map[string]bool{}
	for i := range results {
		files[results[i].File] = true
		count(&s, results[i].Status)
	}
	s.Files = len(files)
	return s
}

// Failed reports whether a run fails: an invalid or error entry.
func Failed(rep *wire.RunReport) bool {
	return rep.Summary.Invalid > 0 || rep.Summary.Errors > 0
}

func (c *Catalog) entry(d *Document, opts Options) *Result {
	res := &Result{RunEntry: wire.RunEntry{
		File: d.File, Document: d.Index, Line: d.Line,
		APIVersion: d.APIVersion, Kind: d.Kind, Namespace: d.Namespace, Name: d.Name,
		Errors: []wire.LocatedError{}, Warnings: []string{},
	}}
	r := &res.RunEntry
	if d.Item >= 0 {
		item := d.Item
		r.Item = &item
	}
	if d.IsCRD() {
		e, ok := c.byName[d.Name]
		if !ok {
			r.Status, r.Reason = wire.StatusError, "CustomResourceDefinition not in the catalogue"
			return res
		}
		rep := e.CRD.Report()
		at := d.rawOrigin()
		r.Errors = locate(rep.Errors, d.Line, at)
		r.Warnings = nonNil(rep.Warnings)
		r.WarningPositions = shiftAll(rep.WarningPositions, at)
		r.DecodeError = rep.DecodeError
		r.FieldErrorPositions = rep.FieldErrorPositions
		r.Status = wire.StatusValid
		if len(r.Errors) > 0 || r.DecodeError != "" {
			r.Status = wire.StatusInvalid
		}
		return res
	}
	if reason := kindFilter(d, opts); reason != "" {
		r.Status, r.Reason = wire.StatusSkipped, reason
		return res
	}
	apiVersion := d.APIVersion
	if v := opts.Validate.Version; v != "" {
		// --version: the request goes to that version whatever the
		// object's apiVersion says.
		group := apiGroup(apiVersion)
		apiVersion = group + "/" + v
		if group == "" {
			apiVersion = v
		}
	}
	e, reason := c.Lookup(apiVersion, d.Kind)
	if e == nil && opts.Builtins != nil && reason != NotAnObject && isBuiltinGroup(apiVersion) && !c.hasGroupKind(apiVersion, d.Kind) {
		opts.Builtins.entry(d, apiVersion, opts, res)
		return res
	}
	if e == nil {
		r.Status, r.Reason = wire.StatusSkipped, reason
		if opts.MissingCRDs == MissingError {
			r.Status = wire.StatusError
		}
		return res
	}
	r.CRD = e.Doc.Name
	if rep := e.CRD.Report(); !rep.Valid() {
		r.Status = wire.StatusError
		r.Reason = fmt.Sprintf("its CustomResourceDefinition %s (%s) is invalid", e.Doc.Name, e.Doc.Where())
		return res
	}
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if opts.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
	}
	var rep *wire.ObjectReport
	var err error
	if u, ok := e.CRD.(unrendered); ok {
		rep, res.fieldErrors, err = u.validateUnrendered(ctx, d, opts.Validate)
	} else {
		rep, err = e.CRD.Validate(ctx, d.Body(), opts.Validate)
	}
	cancel()
	if err != nil {
		r.Status, r.Reason = wire.StatusError, err.Error()
		if errors.Is(err, context.DeadlineExceeded) {
			r.Reason = fmt.Sprintf("%v (--timeout %v)", err, opts.Timeout)
		}
		return res
	}
	at := d.rawOrigin()
	r.DecodeError = rep.DecodeError
	r.DecodeErrorPosition = shift(rep.DecodeErrorPosition, at)
	r.Errors = locate(rep.Errors, d.Line, at)
	r.Warnings = nonNil(rep.Warnings)
	r.WarningPositions = shiftAll(rep.WarningPositions, at)
	r.Pruned = rep.Pruned
	if opts.Results {
		r.Result, r.OldResult = rep.Result, rep.OldResult
	}
	r.Status = wire.StatusValid
	if !rep.Valid() {
		r.Status = wire.StatusInvalid
	}
	return res
}

// unrendered is a Compiled that leaves its errors' messages to
// Result.Message (native).
type unrendered interface {
	validateUnrendered(ctx context.Context, d *Document, opts engine.ValidateOptions) (*wire.ObjectReport, field.ErrorList, error)
}

// locate gives each error its line and column in the file: the engine's
// position (counted from the document, which starts at line at of the
// file; at 0: the document is a kind: List item, re-encoded), else the
// document's line.
func locate(errs []wire.ErrorReport, line, at int) []wire.LocatedError {
	out := make([]wire.LocatedError, len(errs))
	for i, e := range errs {
		le := wire.LocatedError{ErrorReport: e, Line: line}
		if p := shift(e.Position, at); p != nil {
			le.Line, le.Column = p.Line, p.Column
		}
		le.Position = nil
		out[i] = le
	}
	return out
}

// shift returns p counted from the start of the file, the document
// starting at line at (nil when p is nil or at is 0).
func shift(p *wire.Position, at int) *wire.Position {
	if p == nil || at == 0 {
		return nil
	}
	return &wire.Position{Line: p.Line + at - 1, Column: p.Column}
}

// shiftAll is shift of every position; nil when none is known.
func shiftAll(ps []*wire.Position, at int) []*wire.Position {
	if at == 0 || len(ps) == 0 {
		return nil
	}
	out := make([]*wire.Position, len(ps))
	for i, p := range ps {
		out[i] = shift(p, at)
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// DecodeCRD decodes a CRD document; a decoding error is an *InputError at
// the file's line and column (kind: List items: the List's line).
func DecodeCRD(d Document) (*crd.CustomResourceDefinition, error) {
	def, err := crd.DecodeOne(d.Raw, d.File)
	if err == nil {
		return def, nil
	}
	var de *crd.DecodeError
	if errors.As(err, &de) {
		line, col := d.Line, 0
		if d.Item < 0 && de.Line > 0 {
			line, col = de.Line+d.RawLine-1, de.Column
		}
		msg := *de
		msg.File, msg.Line, msg.Column = "", 0, 0
		text := strings.TrimSpace(msg.Error())
		if d.Item >= 0 {
			text = fmt.Sprintf("items[%d]: %s", d.Item, text)
		}
		return nil, &InputError{File: d.File, Line: line, Column: col, Err: errors.New(text)}
	}
	return nil, &InputError{File: d.File, Line: d.Line, Err: err}
}
