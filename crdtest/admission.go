package crdtest

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	sigsyaml "sigs.k8s.io/yaml"
	yaml "sigs.k8s.io/yaml/goyaml.v3"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/engine"
	iadm "github.com/crdlab/crdlab/internal/admission"
	"github.com/crdlab/crdlab/internal/unstructured"
	"github.com/crdlab/crdlab/wire"
)

// AdmissionCase is crdlab's admission case (tests.admission): one API
// request through the admission chain kube-apiserver 1.37 runs on it —
// MutatingAdmissionPolicies, then the CRD's schema validation (for an object
// of the suite's CRD), then ValidatingAdmissionPolicies — with what to
// expect: allowed or denied, the status message (a substring), warnings,
// audit annotations and the object after admission.
type AdmissionCase struct {
	Name string `yaml:"name" json:"name"`
	// Policies are the policies, bindings, params and Namespaces of this
	// case, added to the suite's (SuiteFile.Policies): each entry is a file
	// relative to the suite, or, when it holds a line break, the YAML
	// documents themselves (a block scalar).
	Policies []string `yaml:"policies" json:"policies,omitempty"`
	// Object is the request's object and OldObject the stored one (YAML).
	// The operation, unless Request names it, is CREATE with object alone,
	// UPDATE with both, DELETE with oldObject alone.
	Object    string            `yaml:"object" json:"object,omitempty"`
	OldObject string            `yaml:"oldObject" json:"oldObject,omitempty"`
	Request   *AdmissionRequest `yaml:"request" json:"request,omitempty"`
	// FieldValidation is the request's fieldValidation for the schema
	// step: Strict (default, as kubectl), Warn or Ignore.
	FieldValidation string `yaml:"fieldValidation" json:"fieldValidation,omitempty"`

	// ExpectedAllowed, when false, expects a refusal (any message); the
	// default is true unless ExpectedError is given.
	ExpectedAllowed *bool `yaml:"expectedAllowed" json:"expectedAllowed,omitempty"`
	// ExpectedError is a substring of the API server's status message of
	// the refusal (a policy's denial, a mutation's error, the schema's).
	ExpectedError string `yaml:"expectedError" json:"expectedError,omitempty"`
	// ExpectedWarnings are the response's warnings, in order, each a
	// substring; [] means none.
	ExpectedWarnings *[]string `yaml:"expectedWarnings" json:"expectedWarnings,omitempty"`
	// ExpectedAuditAnnotations are the audit annotations, exactly
	// ("<policy>/<key>": value); {} means none.
	ExpectedAuditAnnotations *map[string]string `yaml:"expectedAuditAnnotations" json:"expectedAuditAnnotations,omitempty"`
	// Expected is the object after admission (mutated, and for an object of
	// the suite's CRD, as stored: pruned and defaulted), compared as the
	// other cases compare.
	Expected string `yaml:"expected" json:"expected,omitempty"`
	Line     int    `yaml:"-" json:"-"`

	object, oldObject map[string]interface{}
	operation         string
	policyLines       []int             // the line of each Policies entry
	inputs            *admission.Inputs // Policies, read when the suite is loaded
}

// AdmissionRequest is the request's attributes beyond the objects, as an
// AdmissionReview's request names them.
type AdmissionRequest struct {
	// Operation is CREATE, UPDATE or DELETE (default: from the objects).
	Operation   string `yaml:"operation" json:"operation,omitempty"`
	SubResource string `yaml:"subResource" json:"subResource,omitempty"`
	// Name and Namespace default to the object's (the namespace "default"
	// for a namespaced kind without one).
	Name      string `yaml:"name" json:"name,omitempty"`
	Namespace string `yaml:"namespace" json:"namespace,omitempty"`
	// Resource is the plural of a kind that is not the suite's CRD's
	// (default: the kind in lower case, pluralized as the API machinery
	// guesses it: Deployment → deployments, Ingress → ingresses,
	// NetworkPolicy → networkpolicies).
	Resource string `yaml:"resource" json:"resource,omitempty"`
	// UserInfo defaults to kubernetes-admin in groups system:masters and
	// system:authenticated, as crdlab validate --policy.
	UserInfo *admission.UserInfo `yaml:"userInfo" json:"userInfo,omitempty"`
	DryRun   bool                `yaml:"dryRun" json:"dryRun,omitempty"`
	// Options is request.options (default: an empty CreateOptions,
	// UpdateOptions or DeleteOptions of meta.k8s.io/v1).
	Options map[string]interface{} `yaml:"options" json:"options,omitempty"`
}

// AdmissionObserved is one admission step of an admission case, as given
// to Options.ObserveAdmission: its inputs, its request and crdlab's
// outcome.
type AdmissionObserved struct {
	// Step is "mutating" (Mutation is set) or "validating" (Decision).
	Step      string
	Inputs    *admission.Inputs
	Resources admission.CRDResources
	// CRD is the CustomResourceDefinition of the request's kind as
	// installed (JSON); nil for a built-in kind.
	CRD      []byte
	Request  admission.Request
	Decision *admission.Decision
	Mutation *admission.MutationResult
}

var (
	admissionCaseKeys = []string{"name", "policies", "object", "oldObject", "request", "fieldValidation",
		"expectedAllowed", "expectedError", "expectedWarnings", "expectedAuditAnnotations", "expected"}
	admissionRequestKeys = []string{"operation", "subResource", "name", "namespace", "resource", "userInfo", "dryRun", "options"}
	userInfoKeys         = []string{"username", "uid", "groups", "extra"}
)

// checkKeys rejects the keys of a mapping that are not in allowed, with the
// key's line.
func checkKeys(path string, n *yaml.Node, what string, allowed []string) error {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		ok := false
		for _, a := range allowed {
			ok = ok || k.Value == a
		}
		if !ok {
			return fmt.Errorf("%s:%d: unknown field %q in %s (expected one of %s)", path, k.Line, k.Value, what, strings.Join(allowed, ", "))
		}
	}
	return nil
}

// checkAdmissionShapes checks the admission parts of a suite before it is
// decoded, so that a misplaced key or a value of the wrong kind is reported
// at its line with what was expected.
func checkAdmissionShapes(path string, doc *yaml.Node) error {
	is := func(n *yaml.Node, kind yaml.Kind) bool {
		return n == nil || n.Kind == kind || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
	}
	want := func(n *yaml.Node, where, what string) error {
		return fmt.Errorf("%s:%d: %s: expected %s", path, n.Line, where, what)
	}
	checkPolicies := func(n *yaml.Node, where string) error {
		if !is(n, yaml.SequenceNode) {
			return want(n, where, "a list of files (relative to the suite) or YAML documents (block scalars)")
		}
		if n != nil {
			for _, e := range n.Content {
				if e.Kind != yaml.ScalarNode {
					return want(e, where, "a file name or YAML documents in a block scalar (|)")
				}
			}
		}
		return nil
	}
	if err := checkPolicies(mapValue(doc, "policies"), "policies"); err != nil {
		return err
	}
	cases := mapValue(mapValue(doc, "tests"), "admission")
	if !is(cases, yaml.SequenceNode) {
		return want(cases, "tests.admission", "a list of cases")
	}
	if cases == nil {
		return nil
	}
	for _, n := range cases.Content {
		if !is(n, yaml.MappingNode) {
			return want(n, "tests.admission", "a case (a mapping: name, policies, object, ...)")
		}
		if err := checkKeys(path, n, "an admission case", admissionCaseKeys); err != nil {
			return err
		}
		for _, k := range []string{"name", "object", "oldObject", "fieldValidation", "expectedError", "expected"} {
			if v := mapValue(n, k); !is(v, yaml.ScalarNode) {
				return want(v, k, "a string (objects: YAML in a block scalar, |)")
			}
		}
		if v := mapValue(n, "expectedAllowed"); v != nil && v.Tag != "!!bool" {
			return want(v, "expectedAllowed", "true or false")
		}
		if err := checkPolicies(mapValue(n, "policies"), "policies"); err != nil {
			return err
		}
		if v := mapValue(n, "expectedWarnings"); !is(v, yaml.SequenceNode) {
			return want(v, "expectedWarnings", "a list of substrings ([] for none)")
		}
		if v := mapValue(n, "expectedAuditAnnotations"); !is(v, yaml.MappingNode) {
			return want(v, "expectedAuditAnnotations", "a mapping of annotation keys (<policy>/<key>) to values ({} for none)")
		}
		req := mapValue(n, "request")
		if !is(req, yaml.MappingNode) {
			return want(req, "request", "a mapping (operation, subResource, name, namespace, resource, userInfo, dryRun, options)")
		}
		if err := checkKeys(path, req, "request", admissionRequestKeys); err != nil {
			return err
		}
		ui := mapValue(req, "userInfo")
		if !is(ui, yaml.MappingNode) {
			return want(ui, "request.userInfo", "a mapping (username, uid, groups, extra)")
		}
		if err := checkKeys(path, ui, "request.userInfo", userInfoKeys); err != nil {
			return err
		}
		if v := mapValue(ui, "groups"); !is(v, yaml.SequenceNode) {
			return want(v, "request.userInfo.groups", "a list of group names")
		}
		if v := mapValue(ui, "extra"); !is(v, yaml.MappingNode) {
			return want(v, "request.userInfo.extra", "a mapping of keys to lists of values")
		}
		if v := mapValue(req, "options"); !is(v, yaml.MappingNode) {
			return want(v, "request.options", "a mapping (a CreateOptions, UpdateOptions or DeleteOptions)")
		}
		if v := mapValue(req, "dryRun"); v != nil && v.Tag != "!!bool" {
			return want(v, "request.dryRun", "true or false")
		}
	}
	return nil
}

// parseAdmissionCases sets the lines of tests.admission and checks each
// case: objects that are YAML mappings, an operation that fits the
// objects, expectations that do not contradict each other.
func parseAdmissionCases(path string, s *SuiteFile, doc *yaml.Node) error {
	cases := mapValue(mapValue(doc, "tests"), "admission")
	if top := mapValue(doc, "policies"); top != nil {
		for _, n := range top.Content {
			s.policyLines = append(s.policyLines, n.Line)
		}
	}
	for i, c := range s.Tests.Admission {
		if c == nil {
			return fmt.Errorf("%s: empty admission case", path)
		}
		n := cases.Content[i]
		c.Line = n.Line
		if p := mapValue(n, "policies"); p != nil {
			for _, e := range p.Content {
				c.policyLines = append(c.policyLines, e.Line)
			}
		}
		fail := func(key string, format string, args ...interface{}) error {
			line := c.Line
			if v := mapValue(n, key); v != nil {
				line = v.Line
			}
			return fmt.Errorf("%s:%d: admission case %q: %s", path, line, c.Name, fmt.Sprintf(format, args...))
		}
		if c.Name == "" {
			return fail("name", "a case needs a name")
		}
		var err error
		if c.object, err = parseAdmissionObject(c.Object); err != nil {
			return fail("object", "object: %v", err)
		}
		if c.oldObject, err = parseAdmissionObject(c.OldObject); err != nil {
			return fail("oldObject", "oldObject: %v", err)
		}
		op := ""
		if c.Request != nil {
			op = strings.ToUpper(c.Request.Operation)
		}
		switch {
		case op != "":
		case c.object != nil && c.oldObject != nil:
			op = "UPDATE"
		case c.object != nil:
			op = "CREATE"
		case c.oldObject != nil:
			op = "DELETE"
		default:
			return fail("name", "give object (CREATE), object and oldObject (UPDATE) or oldObject (DELETE)")
		}
		switch {
		case op != "CREATE" && op != "UPDATE" && op != "DELETE":
			return fail("request", "request.operation must be CREATE, UPDATE or DELETE, not %q", c.Request.Operation)
		case op == "CREATE" && (c.object == nil || c.oldObject != nil):
			return fail("request", "a CREATE has object and no oldObject")
		case op == "UPDATE" && (c.object == nil || c.oldObject == nil):
			return fail("request", "an UPDATE has object and oldObject")
		case op == "DELETE" && (c.object != nil || c.oldObject == nil):
			return fail("request", "a DELETE has oldObject (the stored object) and no object")
		}
		c.operation = op
		if c.Request != nil && c.Request.SubResource != "" && op == "CREATE" && c.Request.SubResource == "status" {
			return fail("request", "a status update is an UPDATE (give oldObject)")
		}
		if fv := c.FieldValidation; fv != "" && fv != string(engine.Strict) && fv != string(engine.Warn) && fv != string(engine.Ignore) {
			return fail("fieldValidation", "fieldValidation must be Strict, Warn or Ignore, not %q", fv)
		}
		if c.ExpectedAllowed != nil && *c.ExpectedAllowed && c.ExpectedError != "" {
			return fail("expectedError", "expectedError expects a refusal, expectedAllowed: true an admission")
		}
		if c.Expected != "" {
			if op == "DELETE" {
				return fail("expected", "a DELETE leaves no object to compare with expected")
			}
			if c.ExpectedError != "" || (c.ExpectedAllowed != nil && !*c.ExpectedAllowed) {
				return fail("expected", "a refused request leaves no object to compare with expected")
			}
			if _, err := parseAdmissionObject(c.Expected); err != nil {
				return fail("expected", "expected: %v", err)
			}
		}
	}
	return nil
}

// parseAdmissionObject decodes an object of a case (nil when empty) as the
// policies see it: integers int64, other numbers float64.
func parseAdmissionObject(text string) (map[string]interface{}, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	js, err := sigsyaml.YAMLToJSON([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("not valid YAML: %v", err)
	}
	if !strings.HasPrefix(strings.TrimSpace(string(js)), "{") {
		return nil, fmt.Errorf("expected a YAML mapping (an object), got %s", strings.TrimSpace(string(js)))
	}
	obj, err := admission.DecodeObject(js)
	if err != nil {
		return nil, err
	}
	if s, _ := obj["apiVersion"].(string); s == "" {
		return nil, fmt.Errorf("the object has no apiVersion")
	}
	if s, _ := obj["kind"].(string); s == "" {
		return nil, fmt.Errorf("the object has no kind")
	}
	return obj, nil
}

// admissionInputs reads the policies of a suite or case: files relative to
// the suite, or inline documents whose errors carry the suite's lines.
func (l *loader) admissionInputs(suitePath string, entries []string, lines []int) (*admission.Inputs, error) {
	in := &admission.Inputs{}
	for i, e := range entries {
		line := 0
		if i < len(lines) {
			line = lines[i]
		}
		var data []byte
		file := suitePath
		if strings.Contains(e, "\n") {
			// A block scalar's text starts on the line after its
			// indicator: pad so that decoding errors name the suite's
			// lines.
			data = []byte(strings.Repeat("\n", line) + e)
		} else {
			file = filepath.Join(filepath.Dir(suitePath), strings.TrimSpace(e))
			var err error
			if data, err = readFile(l.fs, file); err != nil {
				return nil, fmt.Errorf("%s:%d: policies: %v", suitePath, line, err)
			}
		}
		got, err := admission.DecodeFile(data, file)
		if err != nil && file == suitePath && strings.HasPrefix(err.Error(), suitePath+":1:") {
			// An error of the whole text (no line of its own): the
			// entry's line.
			err = fmt.Errorf("%s:%d:%s", suitePath, line, strings.TrimPrefix(err.Error(), suitePath+":1:"))
		}
		if err != nil {
			if _, ok := err.(*admission.DecodeError); ok || strings.HasPrefix(err.Error(), file) {
				return nil, err
			}
			return nil, fmt.Errorf("%s:%d: policies: %v", suitePath, line, err)
		}
		// A policy or binding the API server would not create cannot take
		// part in a case: the suite does not load.
		if err := got.CheckCreate(); err != nil {
			return nil, err
		}
		if len(got.Webhooks) > 0 {
			return nil, fmt.Errorf("%s:%d: policies: admission cases do not run webhook configurations (crdlab does not call webhooks; crdlab validate --policy tells which are called)", suitePath, line)
		}
		in.Add(got)
	}
	return in, nil
}

// admissionOutcome is what the chain answered.
type admissionOutcome struct {
	refused bool
	message string
	wire    *wire.AdmissionOutcome
	// warnings are the response's (schema validation's, then the
	// validating policies').
	warnings    []string
	annotations map[string]string
	object      map[string]interface{} // after admission (nil: refused or DELETE)
}

// runAdmission runs an admission case and checks its expectations; the
// outcome is returned for the report even when the case fails.
func (l *loader) runAdmission(t target, c *AdmissionCase, base *admission.Inputs) (*wire.AdmissionOutcome, error) {
	if l.backend != nil {
		return nil, fmt.Errorf("admission cases run on crdlab's engine only, not on a backend")
	}
	if kv := t.kubeVersion; kv != "" && kv != engine.DefaultKubeVersion {
		return nil, fmt.Errorf("admission cases run at Kubernetes %s only (crdlab reproduces the admission plugins of kube-apiserver %s); this suite runs at %s", engine.DefaultKubeVersion, engine.DefaultKubeVersion, kv)
	}
	all := &admission.Inputs{}
	all.Add(base)
	all.Add(c.inputs)
	// Params and Namespaces as the cluster stores them.
	all.Objects = admission.StoredObjects(all.Objects, l.builtins)
	out, err := l.admit(t, c, all)
	if err != nil {
		return nil, err
	}
	return out.wire, checkAdmission(c, out)
}

// admit runs the chain: mutating policies, the schema (objects of the
// suite's CRD), validating policies.
func (l *loader) admit(t target, c *AdmissionCase, in *admission.Inputs) (*admissionOutcome, error) {
	obj, old := unstructured.DeepCopyObject(c.object), unstructured.DeepCopyObject(c.oldObject)
	subject := obj
	if subject == nil {
		subject = old
	}
	apiVersion, _ := subject["apiVersion"].(string)
	kind, _ := subject["kind"].(string)
	group := ""
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		group = apiVersion[:i]
	}
	var crd *engine.CRD
	var resources admission.CRDResources
	if t.crd != nil {
		var err error
		if crd, err = l.compile(t, nil); err != nil {
			return nil, err
		}
		resources = admission.CRDResources{crd.Definition()}
		if d := crd.Definition(); d.Spec.Group != group || d.Spec.Names.Kind != kind {
			crd = nil // a built-in kind, or another CRD's: no schema
		}
	}
	tmpl := admission.Request{Operation: c.operation, UserInfo: admission.UserInfo{Username: "kubernetes-admin", Groups: []string{"system:masters", "system:authenticated"}}}
	plural, namespaced := guessResource(kind), !iadm.ClusterScopedBuiltin(kind)
	// A built-in kind's object goes through its request path
	// (Options.Builtins): its resource and scope are the release's.
	bk := l.builtins
	builtinKind := false
	if crd == nil && bk != nil {
		if p, ns, ok := bk.Resource(apiVersion, kind); ok {
			plural, namespaced, builtinKind = p, ns, true
		}
	}
	if crd != nil {
		d := crd.Definition()
		plural, namespaced = d.Spec.Names.Plural, d.Spec.Scope != "Cluster"
	}
	keep := false
	if r := c.Request; r != nil {
		tmpl.SubResource, tmpl.DryRun, tmpl.Options = r.SubResource, r.DryRun, r.Options
		if r.UserInfo != nil {
			tmpl.UserInfo = *r.UserInfo
		}
		if r.Resource != "" && crd == nil {
			plural = r.Resource
		}
		if r.Name != "" || r.Namespace != "" {
			keep = true
			tmpl.Name, tmpl.Namespace = r.Name, r.Namespace
			if tmpl.Name == "" {
				tmpl.Name, _ = meta(subject)["name"].(string)
			}
			if tmpl.Namespace == "" && namespaced {
				tmpl.Namespace = firstNonEmpty(metaString(subject, "namespace"), "default")
			}
		}
	}
	if tmpl.Options == nil {
		tmpl.Options = admission.DefaultOptions(c.operation)
	}
	out := &admissionOutcome{wire: &wire.AdmissionOutcome{Allowed: true}}
	refuse := func(msg, reason string, code int, policy, binding string) *admissionOutcome {
		out.refused, out.message = true, msg
		out.wire.Allowed, out.wire.Message, out.wire.Reason, out.wire.Code, out.wire.Policy, out.wire.Binding = false, msg, reason, code, policy, binding
		out.wire.Warnings = out.warnings
		return out
	}

	// The namespace of the request (its URL's), which the handler sets on
	// the object before admission (rest.EnsureObjectNamespaceMatchesRequestNamespace);
	// the stored object has it too.
	requestNS := ""
	if namespaced {
		requestNS = firstNonEmpty(metaString(subject, "namespace"), "default")
		if keep {
			requestNS = tmpl.Namespace
		}
	}
	for _, o := range []map[string]interface{}{obj, old} {
		if o == nil {
			continue
		}
		switch ns := metaString(o, "namespace"); {
		case ns == requestNS:
		case ns == "" || requestNS == "":
			setMeta(o, "namespace", requestNS)
		default:
			return refuse("the namespace of the provided object does not match the namespace sent on the request", "BadRequest", 400, "", ""), nil
		}
	}
	subject = obj
	if subject == nil {
		subject = old
	}

	// A built-in object as the handler decodes it (defaults, conversion)
	// before admission; a body that does not decode fails at the
	// strategy's stage below.
	fv := firstNonEmpty(c.FieldValidation, string(engine.Strict))
	if builtinKind {
		if obj != nil {
			if a, ok := bk.Admitted(apiVersion, kind, obj, fv); ok {
				obj = a
			}
		}
		if old != nil {
			if a, ok := bk.Admitted(apiVersion, kind, old, "Ignore"); ok {
				old = a
			}
		}
		subject = obj
		if subject == nil {
			subject = old
		}
	}

	// Mutating admission.
	if len(in.MutatingPolicies) > 0 {
		m, err := admission.NewMutator(admission.MutatingConfig{Policies: in.MutatingPolicies, Bindings: in.MutatingBindings, Objects: in.Objects, Resources: resources})
		if err != nil {
			return nil, fmt.Errorf("policies: %v", err)
		}
		var target admission.MutationTarget
		if crd != nil {
			if target, err = admission.TargetFor(crd.Definition()); err != nil {
				return nil, err
			}
			if old != nil && target.Default != nil {
				target.Default(old) // the stored object, as the API server reads it
			}
		} else if builtinKind || bk == nil && kubernetesGroup(group) {
			// A built-in kind: metadata typed, the rest deduced.
			var redefault func(map[string]interface{}) map[string]interface{}
			if builtinKind {
				redefault = func(o map[string]interface{}) map[string]interface{} { return bk.Redefault(apiVersion, kind, o) }
			}
			if target, err = admission.BuiltinTarget(apiVersion, kind, plural, namespaced, redefault); err != nil {
				return nil, err
			}
		}
		req := admission.ObjectRequest(tmpl, apiVersion, kind, plural, namespaced, subject, old, keep)
		if c.operation == "DELETE" {
			req.Object, req.OldObject = nil, old
		}
		res := m.Mutate(&req, target)
		if l.observeAdmission != nil {
			l.observeAdmission(AdmissionObserved{Step: "mutating", Inputs: in, Resources: resources, CRD: crdJSONOf(l, crd), Request: req, Mutation: res})
		}
		out.wire.Notes = append(out.wire.Notes, res.Notes...)
		if den := res.Denied; den != nil {
			return refuse(den.Message, den.Reason, den.Code, den.Policy, den.Binding), nil
		}
		if res.Changed() && c.operation != "DELETE" {
			obj = res.Object
		}
	}

	// The schema: decoding, pruning, defaulting, validation.
	if crd != nil && c.operation != "DELETE" {
		body, err := json.Marshal(obj)
		if err != nil {
			return nil, err
		}
		fv := engine.FieldValidation(firstNonEmpty(c.FieldValidation, string(engine.Strict)))
		opts := engine.ValidateOptions{FieldValidation: fv, Subresource: tmpl.SubResource}
		if old != nil {
			if opts.Old, err = json.Marshal(old); err != nil {
				return nil, err
			}
		}
		res, err := crd.Validate(body, opts)
		if err != nil {
			return nil, err
		}
		if l.observe != nil {
			l.observe(Request{CRD: l.crdJSON(crd), Object: body, Old: opts.Old, Subresource: tmpl.SubResource, FieldValidation: fv, Result: res})
		}
		out.warnings = append(out.warnings, res.Warnings...)
		if msg := errorMessage(crd, res); msg != "" {
			reason, code := "Invalid", 422
			if res.DecodeError != "" {
				reason, code = "BadRequest", 400
			}
			return refuse(msg, reason, code, "", ""), nil
		}
		if obj, err = admission.ObjectOf(res.Object); err != nil {
			return nil, err
		}
		if res.OldObject != nil {
			if old, err = admission.ObjectOf(res.OldObject); err != nil {
				return nil, err
			}
		}
	}

	// A built-in object: its strategy (a kind validated natively), on
	// the mutated object.
	if builtinKind && c.operation != "DELETE" {
		a, err := bk.Serve(apiVersion, kind, obj, old, fv)
		if err != nil {
			return nil, err
		}
		out.warnings = append(out.warnings, a.Warnings...)
		if a.Code != 0 {
			return refuse(a.Message, a.Reason, a.Code, "", ""), nil
		}
		if !a.Modelled {
			out.wire.Notes = append(out.wire.Notes, fmt.Sprintf("native validation and defaulting of %s %s are not modelled: the admission policies saw the object as written, with its namespace", apiVersion, kind))
		}
		if obj, err = admission.ObjectOf(a.Object); err != nil {
			return nil, err
		}
	}

	// Validating admission.
	if len(in.Policies) > 0 {
		adm, err := admission.New(admission.Config{Policies: in.Policies, Bindings: in.Bindings, Objects: in.Objects, Resources: resources})
		if err != nil {
			return nil, fmt.Errorf("policies: %v", err)
		}
		subject := obj
		if c.operation == "DELETE" {
			subject = old
		}
		req := admission.ObjectRequest(tmpl, apiVersion, kind, plural, namespaced, subject, old, keep)
		dec := adm.Validate(&req)
		if l.observeAdmission != nil {
			l.observeAdmission(AdmissionObserved{Step: "validating", Inputs: in, Resources: resources, CRD: crdJSONOf(l, crd), Request: req, Decision: dec})
		}
		out.warnings = append(out.warnings, dec.Warnings...)
		out.annotations = dec.AuditAnnotations
		out.wire.AuditAnnotations, out.wire.Evaluated = dec.AuditAnnotations, dec.Evaluated
		out.wire.Notes = append(out.wire.Notes, dec.Notes...)
		if den := dec.Denied; den != nil {
			return refuse(den.Message, den.Reason, den.Code, den.Policy, den.Binding), nil
		}
	}
	out.wire.Warnings = out.warnings
	if c.operation != "DELETE" {
		out.object = obj
	}
	return out, nil
}

// checkAdmission compares the outcome with the case's expectations.
func checkAdmission(c *AdmissionCase, out *admissionOutcome) error {
	wantRefusal := c.ExpectedError != "" || (c.ExpectedAllowed != nil && !*c.ExpectedAllowed)
	switch {
	case c.ExpectedError != "":
		if err := errorContains("the request", out.message, c.ExpectedError); err != nil {
			return err
		}
	case wantRefusal && !out.refused:
		return fmt.Errorf("the request was admitted, expected a refusal")
	case !wantRefusal && out.refused:
		return fmt.Errorf("the request was refused:\n    %s", out.message)
	}
	if c.ExpectedWarnings != nil {
		want := *c.ExpectedWarnings
		ok := len(want) == len(out.warnings)
		for i := 0; ok && i < len(want); i++ {
			ok = strings.Contains(out.warnings[i], want[i])
		}
		if !ok {
			return fmt.Errorf("warnings differ\n  expected (substrings, in order):\n%s  actual:\n%s", bullets(want), bullets(out.warnings))
		}
	}
	if c.ExpectedAuditAnnotations != nil {
		want := *c.ExpectedAuditAnnotations
		if !(len(want) == 0 && len(out.annotations) == 0) && !reflect.DeepEqual(want, out.annotations) {
			return fmt.Errorf("audit annotations differ\n  expected:\n%s  actual:\n%s", bullets(renderAnnotations(want)), bullets(renderAnnotations(out.annotations)))
		}
	}
	if c.Expected != "" && out.object != nil {
		if err := compareStored(c.Expected, out.object); err != nil {
			return fmt.Errorf("%s", strings.Replace(err.Error(), "the stored object", "the object after admission", 1))
		}
	}
	return nil
}

func crdJSONOf(l *loader, c *engine.CRD) []byte {
	if c == nil {
		return nil
	}
	return l.crdJSON(c)
}

func renderAnnotations(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, fmt.Sprintf("%s: %q", k, v))
	}
	sort.Strings(out)
	return out
}

// guessResource is the plural the API machinery guesses for a kind
// (meta.UnsafeGuessKindToResource's rules): lower case, then "es" after a
// final s, "ies" for a final y, "s" otherwise; "endpoints" stays.
func guessResource(kind string) string {
	k := strings.ToLower(kind)
	switch {
	case k == "", strings.HasSuffix(k, "endpoints"):
		return k
	case strings.HasSuffix(k, "s"):
		return k + "es"
	case strings.HasSuffix(k, "y"):
		return k[:len(k)-1] + "ies"
	}
	return k + "s"
}

// kubernetesGroup reports whether a group can only be Kubernetes' own: the
// core group, a group without a dot (a CRD's group has one) or a k8s.io
// group (protected: a CRD needs an approval annotation to use one).
func kubernetesGroup(group string) bool {
	return !strings.Contains(group, ".") || strings.HasSuffix(group, ".k8s.io")
}
