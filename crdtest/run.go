package crdtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/unstructured"
	"github.com/crdlab/crdlab/wire"
	"sigs.k8s.io/yaml"
)

// Options configures RunPaths.
type Options struct {
	// CRDs are CRD files or directories (recursively) that suites may name
	// by crdName or by file name, or that serve the suites' objects.
	CRDs []string
	// Run, when set, selects the cases whose full name it matches.
	Run *regexp.Regexp
	// Parallel is the number of cases run at once; 0 is GOMAXPROCS.
	Parallel int
	// Observe, when set, is called with every request a case sends (from
	// several goroutines at once): e.g. to replay them elsewhere.
	Observe func(Request)
	// ObserveAdmission, when set, is called with every admission step
	// (mutating, validating) of the admission cases (from several
	// goroutines at once).
	ObserveAdmission func(AdmissionObserved)
	// Backend, when set, serves the requests instead of crdlab's engine
	// (see Backend).
	Backend Backend
	// KubeVersion, when set, is the Kubernetes release every suite runs
	// at, whatever its kubeVersion says.
	KubeVersion string
	// DefaultKubeVersion, when set, is the release of the suites that
	// name none (a project's .crdlab.yaml, crdlab test); KubeVersion
	// overrides it.
	DefaultKubeVersion string
	// Share is engine.CompileOptions.Share (a --kube-version matrix).
	Share *engine.CompileShare
	// Builtins, when set, is the request path of Kubernetes' built-in
	// kinds that an admission case on a built-in object (a Deployment, a
	// ConfigMap, ...) goes through, in the API server's order: decoding and
	// defaults, mutating admission, the kind's strategy, validating
	// admission. crdlab's CLI sets it (the WebAssembly module does not
	// link it); without it the object reaches the policies as written.
	Builtins admission.BuiltinKinds
}

// Request is one API request sent by a case, as given to Options.Observe.
type Request struct {
	// CRD is the CustomResourceDefinition as installed (JSON).
	CRD []byte
	// Object is the request body and Old the stored object (JSON; Old is
	// nil for a create).
	Object, Old []byte
	// Subresource is "" or "status".
	Subresource     string
	FieldValidation engine.FieldValidation
	// Result is crdlab's outcome.
	Result *engine.Result
}

// CaseResult is the outcome of one case.
type CaseResult struct {
	// Name is "<suite name>/<onCreate|onUpdate|sequence>/<case name>", with
	// " [<CRD file>]" after the suite name when the suite runs against
	// several CRD files (OpenShift's per-feature-set manifests).
	Name string `json:"name"`
	// File and Line locate the case in its suite file.
	File string `json:"file"`
	Line int    `json:"line"`
	// Passed is false when the case failed; Message says why (the unified
	// diff of expected vs actual object, or the actual error).
	Passed   bool          `json:"passed"`
	Message  string        `json:"message,omitempty"`
	Duration time.Duration `json:"-"`
	// Admission is an admission case's outcome: allowed or refused (with
	// the status message, reason and code, and the denying policy and
	// binding), warnings, audit annotations, the policies evaluated.
	Admission *wire.AdmissionOutcome `json:"admission,omitempty"`
}

// LoadError is a suite file that could not be run (unreadable, malformed,
// or whose CRD could not be resolved or compiled).
type LoadError struct {
	File string `json:"file"`
	Err  string `json:"error"`
}

// Report is the outcome of a run: the results in a deterministic order
// (suite files sorted by path, cases in file order).
type Report struct {
	Results    []CaseResult  `json:"results"`
	LoadErrors []LoadError   `json:"loadErrors"`
	Duration   time.Duration `json:"-"`
}

// Counts returns the number of passed and failed cases.
func (r *Report) Counts() (passed, failed int) {
	for _, c := range r.Results {
		if c.Passed {
			passed++
		} else {
			failed++
		}
	}
	return
}

// OK reports whether every case passed and every suite loaded.
func (r *Report) OK() bool {
	_, failed := r.Counts()
	return failed == 0 && len(r.LoadErrors) == 0
}

// testCase is one runnable case.
type testCase struct {
	name string
	file string
	line int
	run  func() error // nil error: passed
	// admission, when set, runs instead of run and also returns the
	// outcome of an admission case.
	admission func() (*wire.AdmissionOutcome, error)
}

// plan loads suites into cases.
type plan struct {
	cases      []*testCase
	loadErrors []LoadError
}

// RunPaths discovers the suite files under paths (see Discover), resolves
// their CRDs and runs every case, in parallel, with crdlab's engine. The
// error is for unusable arguments only (a missing path, an unreadable
// --crd); problems of one suite file are LoadErrors of the report.
func RunPaths(opts Options, paths ...string) (*Report, error) {
	return runFS(osFS{}, opts, paths)
}

// runFS is RunPaths on a file system.
func runFS(fsys fileSystem, opts Options, paths []string) (*Report, error) {
	start := time.Now()
	p, err := load(fsys, opts, paths)
	if err != nil {
		return nil, err
	}
	rep := &Report{LoadErrors: p.loadErrors}
	rep.Results = runCases(p.cases, opts.Parallel)
	rep.Duration = time.Since(start)
	return rep, nil
}

func load(fsys fileSystem, opts Options, paths []string) (*plan, error) {
	files, err := discover(fsys, paths)
	if err != nil {
		return nil, err
	}
	l := newLoader(fsys)
	l.observe, l.observeAdmission, l.builtins = opts.Observe, opts.ObserveAdmission, opts.Builtins
	l.backend = opts.Backend
	l.kubeVersion, l.defaultKubeVersion, l.share = opts.KubeVersion, opts.DefaultKubeVersion, opts.Share
	if err := l.addExtra(opts.CRDs); err != nil {
		return nil, err
	}
	p := &plan{loadErrors: []LoadError{}}
	for _, f := range files {
		cases, err := l.suiteCases(f)
		if err != nil {
			p.loadErrors = append(p.loadErrors, LoadError{File: f, Err: err.Error()})
			continue
		}
		for _, c := range cases {
			if opts.Run == nil || opts.Run.MatchString(c.name) {
				p.cases = append(p.cases, c)
			}
		}
	}
	return p, nil
}

func runCases(cases []*testCase, parallel int) []CaseResult {
	if parallel <= 0 {
		parallel = runtime.GOMAXPROCS(0)
	}
	out := make([]CaseResult, len(cases))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < parallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = runOne(cases[i])
			}
		}()
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

func runOne(c *testCase) (res CaseResult) {
	start := time.Now()
	res = CaseResult{Name: c.name, File: c.file, Line: c.line}
	defer func() {
		if r := recover(); r != nil {
			res.Passed, res.Message = false, fmt.Sprintf("crdlab: internal error: %v", r)
		}
		res.Duration = time.Since(start)
	}()
	if c.admission != nil {
		out, err := c.admission()
		res.Admission = out
		if err != nil {
			res.Message = err.Error()
			return res
		}
		res.Passed = true
		return res
	}
	if err := c.run(); err != nil {
		res.Message = err.Error()
		return res
	}
	res.Passed = true
	return res
}

// suiteCases reads one suite file and returns its cases, per target CRD.
func (l *loader) suiteCases(path string) ([]*testCase, error) {
	data, err := readFile(l.fs, path)
	if err != nil {
		return nil, err
	}
	s, err := ParseSuite(path, data)
	if err != nil {
		return nil, err
	}
	targets, err := l.targets(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var policies *admission.Inputs
	if len(s.Tests.Admission) > 0 {
		if policies, err = l.admissionInputs(path, s.Policies, s.policyLines); err != nil {
			return nil, err
		}
		for _, c := range s.Tests.Admission {
			if c.inputs, err = l.admissionInputs(path, c.Policies, c.policyLines); err != nil {
				return nil, err
			}
		}
	}
	var out []*testCase
	for _, t := range targets {
		t := t
		prefix := s.Name
		if prefix == "" {
			prefix = path
		}
		if len(targets) > 1 {
			prefix += " [" + t.label + "]"
		}
		for _, c := range s.Tests.OnCreate {
			c := c
			out = append(out, &testCase{name: prefix + "/onCreate/" + c.Name, file: path, line: c.Line,
				run: func() error { return l.runOnCreate(t, c) }})
		}
		for _, c := range s.Tests.OnUpdate {
			c := c
			out = append(out, &testCase{name: prefix + "/onUpdate/" + c.Name, file: path, line: c.Line,
				run: func() error { return l.runOnUpdate(t, c) }})
		}
		for _, q := range s.Tests.Sequences {
			q := q
			out = append(out, &testCase{name: prefix + "/sequence/" + q.Name, file: path, line: q.Line,
				run: func() error { return l.runSequence(t, q) }})
		}
		for _, c := range s.Tests.Apply {
			c := c
			out = append(out, &testCase{name: prefix + "/apply/" + c.Name, file: path, line: c.Line,
				run: func() error { return l.runApply(t, c) }})
		}
		for _, c := range s.Tests.Admission {
			c := c
			out = append(out, &testCase{name: prefix + "/admission/" + c.Name, file: path, line: c.Line,
				admission: func() (*wire.AdmissionOutcome, error) { return l.runAdmission(t, c, policies) }})
		}
	}
	return out, nil
}

// ---------------------------------------------------------------------------
// Requests, as OpenShift's runner sends them through controller-runtime's
// client (fieldValidation unset: the API server's default, Warn).

type object = map[string]interface{}

// parseObject decodes a YAML object as OpenShift's newUnstructuredFrom
// does: generateName "test-" and namespace "default" are set.
func parseObject(text string) (object, error) {
	var m object
	if err := yaml.Unmarshal([]byte(text), &m); err != nil {
		return nil, fmt.Errorf("could not unmarshal raw YAML: %v", err)
	}
	if m == nil {
		m = object{}
	}
	setMeta(m, "generateName", "test-")
	setMeta(m, "namespace", "default")
	return m, nil
}

func meta(m object) object {
	md, _ := m["metadata"].(map[string]interface{})
	return md
}

func metaString(m object, key string) string {
	s, _ := meta(m)[key].(string)
	return s
}

// setMeta sets metadata.<key>; "" removes it (as Unstructured's setters do).
func setMeta(m object, key, value string) {
	md := meta(m)
	if value == "" {
		if md != nil {
			delete(md, key)
		}
		return
	}
	if md == nil {
		md = object{}
		m["metadata"] = md
	}
	md[key] = value
}

// request is one API call against a compiled CRD.
type request struct {
	crd         *engine.CRD
	body        object
	old         object // nil: create
	subresource string
	fv          engine.FieldValidation
}

// stored is the object the server keeps after a successful write, and the
// response's resourceVersion.
type server struct {
	rv int
	l  *loader
	// created are the objects a Backend stored, by name (for Cleanup).
	created map[string][]byte
}

func newServer(l *loader) *server { return &server{l: l, created: map[string][]byte{}} }

// do runs the request and returns the result, the API server's error
// message ("" on success) and the stored object.
func (s *server) do(r request) (*engine.Result, string, object, error) {
	body, err := json.Marshal(r.body)
	if err != nil {
		return nil, "", nil, err
	}
	opts := engine.ValidateOptions{Subresource: r.subresource, FieldValidation: r.fv}
	if r.old != nil {
		if opts.Old, err = json.Marshal(r.old); err != nil {
			return nil, "", nil, err
		}
	}
	if s.l != nil && s.l.backend != nil {
		return s.doBackend(r, body, opts.Old)
	}
	if r.subresource == "status" && !hasStatusSubresource(r.crd, r.old) {
		// PUT .../status on a resource without the subresource: the CRD
		// handler's NotFound of the resource and name.
		spec := r.crd.Definition().Spec
		return &engine.Result{}, fmt.Sprintf("%s.%s %q not found", spec.Names.Plural, spec.Group, metaString(r.body, "name")), nil, nil
	}
	res, err := r.crd.Validate(body, opts)
	if err != nil {
		return nil, "", nil, err
	}
	if s.l != nil && s.l.observe != nil {
		s.l.observe(Request{CRD: s.l.crdJSON(r.crd), Object: body, Old: opts.Old, Subresource: r.subresource, FieldValidation: r.fv, Result: res})
	}
	if msg := errorMessage(r.crd, res); msg != "" {
		return res, msg, nil, nil
	}
	obj, _ := unstructured.DeepCopy(res.Object).(map[string]interface{})
	s.rv++
	setMeta(obj, "resourceVersion", strconv.Itoa(s.rv))
	return res, "", obj, nil
}

// hasStatusSubresource reports whether the version of obj has a status
// subresource.
func hasStatusSubresource(c *engine.CRD, obj object) bool {
	apiVersion, _ := obj["apiVersion"].(string)
	version := apiVersion[strings.LastIndex(apiVersion, "/")+1:]
	for _, v := range c.Definition().Spec.Versions {
		if v.Name == version {
			return v.Subresources != nil && v.Subresources.Status != nil
		}
	}
	return false
}

// errorMessage renders a failed request as the API server's status
// message: the decoding error (400), or errors.NewInvalid's
// "<Kind>.<group> "<name>" is invalid: <errors>" (422).
func errorMessage(c *engine.CRD, res *engine.Result) string {
	if res.DecodeError != "" {
		return res.DecodeError
	}
	if len(res.Errors) == 0 {
		return ""
	}
	spec := c.Definition().Spec
	gk := spec.Names.Kind
	if spec.Group != "" {
		gk += "." + spec.Group
	}
	name := ""
	if m, ok := res.Object.(map[string]interface{}); ok {
		name = metaString(m, "name")
	}
	return fmt.Sprintf("%s %q is invalid: %v", gk, name, res.Errors.ToAggregate())
}

func errorContains(what, actual, want string) error {
	if actual == "" {
		return fmt.Errorf("%s succeeded, expected an error containing:\n    %s", what, want)
	}
	if !strings.Contains(actual, want) {
		return fmt.Errorf("%s failed with an error that does not contain the expected text\n  expected (substring):\n    %s\n  actual:\n    %s", what, want, actual)
	}
	return nil
}

// runOnCreate mirrors OpenShift's assertOnCreate.
func (l *loader) runOnCreate(t target, c *OnCreate) error {
	crd, err := l.compile(t, nil)
	if err != nil {
		return err
	}
	obj, err := parseObject(c.Initial)
	if err != nil {
		return fmt.Errorf("initial: %v", err)
	}
	srv := newServer(l)
	defer srv.cleanup()
	_, msg, got, err := srv.do(request{crd: crd, body: obj, fv: engine.Warn})
	if err != nil {
		return fmt.Errorf("initial: %v", err)
	}
	if c.ExpectedError != "" {
		return errorContains("create", msg, c.ExpectedError)
	}
	if msg != "" {
		return fmt.Errorf("create failed:\n    %s", msg)
	}
	expected := c.Expected
	if strings.TrimSpace(expected) == "" {
		expected = c.Initial
	}
	return compareStored(expected, got)
}

// runOnUpdate mirrors OpenShift's assertOnUpdate: create initial (under
// the patched CRD when initialCRDPatches are given), apply initial's status
// through the status subresource, restore the CRD (and update the object
// once under it, as the runner's sentinel update does), then update to
// updated by spec and, when updated has a status, by status.
func (l *loader) runOnUpdate(t target, c *OnUpdate) error {
	base, err := l.compile(t, nil)
	if err != nil {
		return err
	}
	crd := base
	if len(c.InitialCRDPatches) > 0 {
		if crd, err = l.compile(t, c.InitialCRDPatches); err != nil {
			return fmt.Errorf("could not load patched crd: %v", err)
		}
	}
	initial, err := parseObject(c.Initial)
	if err != nil {
		return fmt.Errorf("initial: %v", err)
	}
	initialStatus, hasInitialStatus := initial["status"]
	srv := newServer(l)
	defer srv.cleanup()
	_, msg, got, err := srv.do(request{crd: crd, body: initial, fv: engine.Warn})
	if err != nil {
		return fmt.Errorf("initial: %v", err)
	}
	if msg != "" {
		return fmt.Errorf("initial object should create successfully:\n    %s", msg)
	}
	if hasInitialStatus && initialStatus != nil {
		body := unstructured.DeepCopy(got).(map[string]interface{})
		body["status"] = unstructured.DeepCopy(initialStatus)
		_, msg, next, err := srv.do(request{crd: crd, body: body, old: got, subresource: "status", fv: engine.Warn})
		if err != nil {
			return fmt.Errorf("initial status: %v", err)
		}
		if msg != "" {
			return fmt.Errorf("initial object status should update successfully:\n    %s", msg)
		}
		got = next
	}
	if len(c.InitialCRDPatches) > 0 {
		_, msg, next, err := srv.do(request{crd: base, body: unstructured.DeepCopy(got).(map[string]interface{}), old: got, fv: engine.Warn})
		if err != nil {
			return fmt.Errorf("update after restoring the CRD: %v", err)
		}
		if msg != "" {
			return fmt.Errorf("the initial object could not be updated once the CRD was restored (the runner's sentinel update):\n    %s", msg)
		}
		got = next
	}
	updated, err := parseObject(c.Updated)
	if err != nil {
		return fmt.Errorf("updated: %v", err)
	}
	updatedStatus, hasUpdatedStatus := updated["status"]
	setMeta(updated, "name", metaString(got, "name"))
	setMeta(updated, "namespace", metaString(got, "namespace"))
	setMeta(updated, "resourceVersion", metaString(got, "resourceVersion"))
	_, msg, next, err := srv.do(request{crd: base, body: updated, old: got, fv: engine.Warn})
	if err != nil {
		return fmt.Errorf("updated: %v", err)
	}
	if c.ExpectedError != "" {
		return errorContains("update", msg, c.ExpectedError)
	}
	if msg != "" {
		return fmt.Errorf("unexpected error updating spec:\n    %s", msg)
	}
	got = next
	if hasUpdatedStatus && updatedStatus != nil {
		body := unstructured.DeepCopy(got).(map[string]interface{})
		body["status"] = unstructured.DeepCopy(updatedStatus)
		_, msg, next, err := srv.do(request{crd: base, body: body, old: got, subresource: "status", fv: engine.Warn})
		if err != nil {
			return fmt.Errorf("updated status: %v", err)
		}
		if c.ExpectedStatusError != "" {
			return errorContains("status update", msg, c.ExpectedStatusError)
		}
		if msg != "" {
			return fmt.Errorf("unexpected error updating status:\n    %s", msg)
		}
		got = next
	}
	expected := c.Expected
	if strings.TrimSpace(expected) == "" {
		expected = c.Updated
	}
	return compareStored(expected, got)
}

// ---------------------------------------------------------------------------
// Comparison, as komega.EqualObject with IgnoreAutogeneratedMetadata.

// ignoredMetadata are the server-set fields the comparison ignores.
var ignoredMetadata = []string{"uid", "generation", "creationTimestamp", "resourceVersion", "managedFields",
	"deletionGracePeriodSeconds", "deletionTimestamp", "selfLink", "generateName"}

// compareStored compares the stored object with expected: name and
// namespace are taken from the stored object, the server-set metadata is
// ignored, numbers compare by value.
func compareStored(expectedText string, got object) error {
	exp, err := parseObject(expectedText)
	if err != nil {
		return fmt.Errorf("expected: %v", err)
	}
	setMeta(exp, "name", metaString(got, "name"))
	setMeta(exp, "namespace", metaString(got, "namespace"))
	e, a := comparable(exp), comparable(got)
	if reflect.DeepEqual(e, a) {
		return nil
	}
	ey, _ := yaml.Marshal(e)
	ay, _ := yaml.Marshal(a)
	return fmt.Errorf("the stored object differs from expected (-expected +actual):\n%s", unifiedDiff(string(ey), string(ay)))
}

// comparable returns a normalized copy: JSON numbers as int64 when
// integral (what a JSON round trip through the API server yields), else
// float64; the ignored metadata removed.
func comparable(obj object) interface{} {
	data, _ := json.Marshal(obj)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v interface{}
	_ = dec.Decode(&v)
	v = normalizeNumbers(v)
	if m, ok := v.(map[string]interface{}); ok {
		if md, ok := m["metadata"].(map[string]interface{}); ok {
			for _, k := range ignoredMetadata {
				delete(md, k)
			}
		}
	}
	return v
}

func normalizeNumbers(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		for k, x := range t {
			t[k] = normalizeNumbers(x)
		}
	case []interface{}:
		for i, x := range t {
			t[i] = normalizeNumbers(x)
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		if f == float64(int64(f)) {
			return int64(f)
		}
		return f
	}
	return v
}

// ---------------------------------------------------------------------------
// crdlab sequences.

func (l *loader) runSequence(t target, q *Sequence) error {
	crd, err := l.compile(t, nil)
	if err != nil {
		return err
	}
	var patches []Patch
	var cur object
	srv := newServer(l)
	defer srv.cleanup()
	for i, st := range q.Steps {
		fail := func(format string, args ...interface{}) error {
			return fmt.Errorf("step %d (%s, line %d): %s", i+1, st.kind(), st.Line, fmt.Sprintf(format, args...))
		}
		fv := engine.FieldValidation(firstNonEmpty(st.FieldValidation, q.FieldValidation, string(engine.Strict)))
		if fv != engine.Strict && fv != engine.Warn && fv != engine.Ignore {
			return fail("fieldValidation must be Strict, Warn or Ignore, not %q", fv)
		}
		if st.kind() == "patchCRD" {
			next := append(append([]Patch{}, patches...), st.PatchCRD...)
			c, err := l.compile(t, next)
			if err == nil && l.backend != nil {
				// The API server's verdict on the CRD update.
				var resp *BackendResponse
				if resp, err = l.backend.Do(BackendRequest{CRD: l.crdJSON(c)}); err == nil && resp.Error != "" {
					err = fmt.Errorf("%s", resp.Error)
				}
			}
			if st.ExpectedError != "" {
				msg := ""
				if err != nil {
					msg = err.Error()
				}
				if e := errorContains("the CRD update", msg, st.ExpectedError); e != nil {
					return fail("%v", e)
				}
				continue
			}
			if err != nil {
				return fail("%v", err)
			}
			crd, patches = c, next
			continue
		}
		var text string
		r := request{crd: crd, fv: fv}
		switch st.kind() {
		case "create":
			text = st.Create
		case "update":
			text = st.Update
		case "updateStatus":
			text = st.UpdateStatus
			r.subresource = "status"
		}
		var body object
		if err := yaml.Unmarshal([]byte(text), &body); err != nil || body == nil {
			return fail("the object is not valid YAML: %v", err)
		}
		if st.kind() == "create" {
			if metaString(body, "name") == "" && metaString(body, "generateName") == "" {
				setMeta(body, "generateName", "test-")
			}
		} else {
			if cur == nil {
				return fail("there is no object yet (a create step failed or is missing)")
			}
			r.old = cur
			setMeta(body, "name", metaString(cur, "name"))
			setMeta(body, "namespace", metaString(cur, "namespace"))
			if metaString(body, "resourceVersion") == "" {
				setMeta(body, "resourceVersion", metaString(cur, "resourceVersion"))
			}
		}
		r.body = body
		res, msg, stored, err := srv.do(r)
		if err != nil {
			return fail("%v", err)
		}
		if err := checkStep(st, res, msg, stored, l.backend != nil); err != nil {
			return fail("%v", err)
		}
		if stored != nil {
			cur = stored
		}
	}
	return nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

func checkStep(st *Step, res *engine.Result, msg string, stored object, backend bool) error {
	wantErr := st.ExpectedError != "" || len(st.ExpectedErrors) > 0
	switch {
	case wantErr && st.ExpectedError != "":
		if err := errorContains("the request", msg, st.ExpectedError); err != nil {
			return err
		}
	case wantErr && msg == "":
		return fmt.Errorf("the request succeeded, expected errors:\n%s", renderExpectedErrors(st.ExpectedErrors))
	case !wantErr && msg != "":
		return fmt.Errorf("the request failed:\n    %s", msg)
	}
	if len(st.ExpectedErrors) > 0 {
		if err := matchErrors(st.ExpectedErrors, res); err != nil {
			return err
		}
	}
	if st.ExpectedWarnings != nil {
		want := *st.ExpectedWarnings
		ok := len(want) == len(res.Warnings)
		for i := 0; ok && i < len(want); i++ {
			ok = strings.Contains(res.Warnings[i], want[i])
		}
		if !ok {
			return fmt.Errorf("warnings differ\n  expected (substrings, in order):\n%s  actual:\n%s", bullets(want), bullets(res.Warnings))
		}
	}
	if st.ExpectedPruned != nil && !backend {
		want := *st.ExpectedPruned
		if !(len(want) == 0 && len(res.Pruned) == 0) && !reflect.DeepEqual(want, res.Pruned) {
			return fmt.Errorf("pruned fields differ\n  expected:\n%s  actual:\n%s", bullets(want), bullets(res.Pruned))
		}
	}
	if st.MaxCost != nil && !backend {
		var total uint64
		for _, c := range res.Costs {
			total += c.Cost
		}
		if total > *st.MaxCost {
			var b strings.Builder
			costs := append(res.Costs[:0:0], res.Costs...)
			sort.SliceStable(costs, func(i, j int) bool { return costs[i].Cost > costs[j].Cost })
			for _, c := range costs {
				what := "rule"
				if c.MessageExpression {
					what = "messageExpression"
				}
				fmt.Fprintf(&b, "    %s x-kubernetes-validations[%d] %s: %d\n", orRoot(c.Path), c.Rule, what, c.Cost)
			}
			return fmt.Errorf("CEL runtime cost %d exceeds maxCost %d:\n%s", total, *st.MaxCost, b.String())
		}
	}
	if st.Expected != "" && stored != nil {
		return compareStored(st.Expected, stored)
	}
	return nil
}

func orRoot(p string) string {
	if p == "" {
		return "<root>"
	}
	return p
}

func bullets(list []string) string {
	if len(list) == 0 {
		return "    (none)\n"
	}
	var b strings.Builder
	for _, s := range list {
		fmt.Fprintf(&b, "    %s\n", s)
	}
	return b.String()
}

func renderExpectedErrors(list []ExpectedError) string {
	var b strings.Builder
	for _, e := range list {
		fmt.Fprintf(&b, "    %s: %s", e.Field, e.Type)
		if e.Detail != "" {
			fmt.Fprintf(&b, ": ...%s...", e.Detail)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// matchErrors compares the field errors, in order, with the expected ones.
func matchErrors(want []ExpectedError, res *engine.Result) error {
	ok := len(want) == len(res.Errors)
	for i := 0; ok && i < len(want); i++ {
		e, w := res.Errors[i], want[i]
		ok = e.Field == w.Field && (w.Type == string(e.Type) || w.Type == e.Type.String()) && strings.Contains(e.Detail, w.Detail)
	}
	if ok {
		return nil
	}
	var b strings.Builder
	for _, e := range res.Errors {
		fmt.Fprintf(&b, "    %s: %s (%s): %s\n", e.Field, string(e.Type), e.Type.String(), e.Detail)
	}
	if res.DecodeError != "" {
		fmt.Fprintf(&b, "    (decoding failed: %s)\n", res.DecodeError)
	}
	if b.Len() == 0 {
		b.WriteString("    (none)\n")
	}
	return fmt.Errorf("field errors differ\n  expected (field: type: detail substring):\n%s  actual:\n%s", renderExpectedErrors(want), b.String())
}

// Wire returns the report as `crdlab test -o json` prints it (and the
// WebAssembly module's "test" op answers): the results with their
// durations in seconds, the load errors and the counts.
func (r *Report) Wire() *wire.TestReport {
	passed, failed := r.Counts()
	out := &wire.TestReport{Results: make([]wire.TestCaseResult, len(r.Results)), LoadErrors: make([]wire.TestLoadError, len(r.LoadErrors)),
		Passed: passed, Failed: failed, Seconds: r.Duration.Seconds()}
	for i, c := range r.Results {
		out.Results[i] = wire.TestCaseResult{Name: c.Name, File: c.File, Line: c.Line, Passed: c.Passed, Message: c.Message, Seconds: c.Duration.Seconds(), Admission: c.Admission}
	}
	for i, e := range r.LoadErrors {
		out.LoadErrors[i] = wire.TestLoadError{File: e.File, Error: e.Err}
	}
	return out
}
