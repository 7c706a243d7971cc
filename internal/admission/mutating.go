package admission

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"

	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/ssa"
	"github.com/crdlab/crdlab/internal/unstructured"
	"github.com/crdlab/crdlab/wire"
)

// Mutating admission: k8s.io/apiserver/pkg/admission/plugin/policy/mutating
// (compilation.go, dispatcher.go, reinvocationcontext.go) over the generic
// policy dispatcher (generic/policy_dispatcher.go), run as the admission
// chain's reinvoker runs a mutating plugin: once, then once more when the
// first pass asked for reinvocation. Matching, params, match conditions and
// variables are those of the validating policies (match.go, admitter.go,
// validator.go); the patches are in mutating_patch.go.

// MutatingConfig is what a Mutator is built from.
type MutatingConfig struct {
	Policies []*MutatingPolicy
	Bindings []*MutatingBinding
	// Objects are the params and Namespaces, as Config.Objects.
	Objects []map[string]interface{}
	// Resources resolves equivalent resources and param scopes.
	Resources Resources
}

// Mutator evaluates mutating admission policies. It is immutable after
// NewMutator and safe for concurrent use.
type Mutator struct {
	a     *Admitter
	hooks []*mutatingHook
}

type mutatingHook struct {
	policy   *MutatingPolicy
	bindings []*MutatingBinding
	// v holds the variables and match conditions (its validations are
	// empty).
	v        *validator
	patchers []patcher
}

// patcher is one compiled mutation.
type patcher struct {
	patchType string
	c         compiled
}

// NewMutator compiles the policies of cfg. Policies are evaluated in name
// order, each policy's bindings in name order (as NewAdmitter); policies
// without bindings never apply. Compilation errors are reported when the
// policy is evaluated, as the API server does.
func NewMutator(cfg MutatingConfig) (*Mutator, error) {
	a, err := New(Config{Objects: cfg.Objects, Resources: cfg.Resources})
	if err != nil {
		return nil, err
	}
	m := &Mutator{a: a}
	byPolicy := map[string][]*MutatingBinding{}
	for _, b := range cfg.Bindings {
		byPolicy[b.Spec.PolicyName] = append(byPolicy[b.Spec.PolicyName], b)
	}
	pols := append([]*MutatingPolicy(nil), cfg.Policies...)
	sort.SliceStable(pols, func(i, j int) bool { return pols[i].Metadata.Name < pols[j].Metadata.Name })
	for _, p := range pols {
		bs := append([]*MutatingBinding(nil), byPolicy[p.Metadata.Name]...)
		if len(bs) == 0 {
			continue
		}
		sort.SliceStable(bs, func(i, j int) bool { return bs[i].Metadata.Name < bs[j].Metadata.Name })
		h, err := compileMutatingPolicy(p)
		if err != nil {
			return nil, err
		}
		h.bindings = bs
		m.hooks = append(m.hooks, h)
	}
	return m, nil
}

// Policies is the number of mutating policies that have bindings.
func (m *Mutator) Policies() int { return len(m.hooks) }

// compileMutatingPolicy is mutating/compilation.go compilePolicy:
// variables and match conditions in the environment of validating
// policies, mutations in the same environment with the patch types.
func compileMutatingPolicy(p *MutatingPolicy) (*mutatingHook, error) {
	pe, err := newPolicyEnvs()
	if err != nil {
		return nil, err
	}
	opts := envOpts{params: p.Spec.ParamKind != nil, authorizer: true}
	v := &validator{failurePolicy: mutatingFailurePolicy(p)}
	seen := map[string]int{}
	for _, vr := range p.Spec.Variables {
		c := pe.compile(vr.Expression, opts, anyTypes)
		pe.addVariable(vr.Name, c.outputType)
		if i, ok := seen[vr.Name]; ok {
			v.variables[i].c = c
			continue
		}
		seen[vr.Name] = len(v.variables)
		v.variables = append(v.variables, variable{name: vr.Name, c: c})
	}
	for _, mc := range p.Spec.MatchConditions {
		v.matchConditions = append(v.matchConditions, condition{compiled: pe.compile(mc.Expression, opts, boolTypes), present: true})
	}
	if err := pe.addPatchEnvs(); err != nil {
		return nil, err
	}
	patchOpts := opts
	patchOpts.patch = true
	h := &mutatingHook{policy: p, v: v}
	for _, mu := range p.Spec.Mutations {
		switch {
		case mu.PatchType == PatchTypeJSONPatch && mu.JSONPatch != nil:
			h.patchers = append(h.patchers, patcher{patchType: mu.PatchType, c: pe.compile(mu.JSONPatch.Expression, patchOpts, jsonPatchReturnTypes)})
		case mu.PatchType == PatchTypeApplyConfiguration && mu.ApplyConfiguration != nil:
			h.patchers = append(h.patchers, patcher{patchType: mu.PatchType, c: pe.compile(mu.ApplyConfiguration.Expression, patchOpts, applyConfigReturnTypes)})
		}
	}
	return h, nil
}

func mutatingFailurePolicy(p *MutatingPolicy) string {
	if p.Spec.FailurePolicy == nil {
		return "Fail"
	}
	return *p.Spec.FailurePolicy
}

// MutationTarget is what the mutations need besides the request: the typed
// schema of the object's kind and the defaulting the API server applies
// after each patch.
type MutationTarget struct {
	// TypeConverter types the objects of the request's kind (the CRD's
	// schema); nil answers as the API server does for a kind whose schema
	// it has not published.
	TypeConverter *ssa.TypeConverter
	// Default applies the schema's defaults to a patched object in place;
	// nil applies none.
	Default func(obj map[string]interface{})
}

// AppliedMutation is one mutation that ran: the wire type.
type AppliedMutation = wire.AppliedMutation

// MutationResult is the outcome of mutating admission for one request.
type MutationResult struct {
	// Object is the mutated object (the request's object when nothing
	// changed; nil on DELETE).
	Object map[string]interface{} `json:"object,omitempty"`
	// Denied is set when the request fails.
	Denied *Denial `json:"denied,omitempty"`
	// Mutations lists the mutations run, in order.
	Mutations []AppliedMutation `json:"mutations,omitempty"`
	// Reinvoked: the reinvocation pass ran.
	Reinvoked bool     `json:"reinvoked,omitempty"`
	Notes     []string `json:"notes,omitempty"`
}

// Outcome is the result on the wire without the object: the mutations
// run and, when the request fails, the denying policy and its status (the
// caller sets Object when it reports the mutated object).
func (r *MutationResult) Outcome() *wire.MutationOutcome {
	out := &wire.MutationOutcome{Allowed: r.Denied == nil, Reinvoked: r.Reinvoked, Notes: r.Notes, Mutations: r.Mutations}
	if den := r.Denied; den != nil {
		out.Policy, out.Binding, out.Message, out.Reason, out.Code = den.Policy, den.Binding, den.Message, den.Reason, den.Code
	}
	return out
}

// Changed reports whether the mutations changed the object.
func (r *MutationResult) Changed() bool {
	for _, m := range r.Mutations {
		if len(m.Changed) > 0 {
			return true
		}
	}
	return false
}

type invocationKey struct {
	policy, binding, paramNS, paramName string
}

// reinvokeState is policyReinvokeContext.
type reinvokeState struct {
	lastOutput        map[string]interface{}
	previouslyInvoked map[invocationKey]bool
	reinvoke          map[invocationKey]bool
	shouldReinvoke    bool
}

func (s *reinvokeState) requireReinvoking() {
	if len(s.previouslyInvoked) == 0 {
		return
	}
	if s.reinvoke == nil {
		s.reinvoke = map[invocationKey]bool{}
	}
	for k := range s.previouslyInvoked {
		s.reinvoke[k] = true
	}
	s.previouslyInvoked = map[invocationKey]bool{}
}

// policyError is generic.PolicyError.
type policyError struct {
	policy, binding string
	hasBinding      bool
	msg             string
	reason          string
	failurePolicy   string
}

func (e policyError) text() string {
	if e.hasBinding {
		return fmt.Sprintf("policy '%s' with binding '%s' denied request: %s", e.policy, e.binding, e.msg)
	}
	return fmt.Sprintf("policy %q denied request: %s", e.policy, e.msg)
}

// statusError is an API status the dispatcher returns as is.
type statusError struct {
	message, reason string
	// cause is the status's first cause (an internal error's error text).
	cause string
	code  int
}

func (e *statusError) Error() string { return e.message }

// Mutate runs mutating admission on req: the policies' mutations in order,
// then the reinvocation pass when the first asks for it. req is not
// modified.
func (m *Mutator) Mutate(req *Request, target MutationTarget) *MutationResult {
	res := &MutationResult{}
	cur := *req
	if req.Object != nil {
		cur.Object = unstructured.DeepCopyObject(req.Object)
	}
	st := &reinvokeState{}
	notes := map[string]bool{}
	for pass := 0; pass < 2; pass++ {
		if pass == 1 {
			if !st.shouldReinvoke {
				break
			}
			res.Reinvoked = true
		}
		obj, denied := m.dispatch(&cur, target, st, pass == 1, res, notes)
		if denied != nil {
			res.Denied = denied
			res.Object = cur.Object
			return res
		}
		cur.Object = obj
	}
	res.Object = cur.Object
	return res
}

// versioned is admission.VersionedAttributes for one kind.
type versioned struct {
	kind              GVK
	object, oldObject map[string]interface{}
	dirty             bool
}

type invocation struct {
	h         *mutatingHook
	b         *MutatingBinding
	kind      GVK
	resource  GVR
	param     map[string]interface{}
	versioned *versioned
}

// dispatch is one call of the plugin: the generic dispatcher's matching and
// params, then dispatchInvocations.
func (m *Mutator) dispatch(req *Request, target MutationTarget, st *reinvokeState, isReinvoke bool, res *MutationResult, notes map[string]bool) (map[string]interface{}, *Denial) {
	var configErrors, evalErrors []policyError
	addConfig := func(p *MutatingPolicy, b *MutatingBinding, err error) {
		pe := policyError{policy: p.Metadata.Name, failurePolicy: mutatingFailurePolicy(p)}
		if b == nil {
			pe.msg = "failed to configure policy: " + err.Error()
		} else {
			pe.binding, pe.hasBinding = b.Metadata.Name, true
			pe.msg = "failed to configure binding: " + err.Error()
		}
		configErrors = append(configErrors, pe)
	}
	byKind := map[GVK]*versioned{}
	versionedFor := func(kind GVK) *versioned {
		if v, ok := byKind[kind]; ok {
			return v
		}
		va := m.a.versioned(req, kind)
		v := &versioned{kind: kind, object: va.object, oldObject: va.oldObject}
		if kind == (GVK{}) {
			v.kind = req.Kind
		}
		if v.object != nil {
			v.object = unstructured.DeepCopyObject(v.object)
		}
		byKind[kind] = v
		return v
	}
	var invs []invocation
	for _, h := range m.hooks {
		p := h.policy
		mc := p.Spec.MatchConstraints
		ok, matchRes, matchKind, err := m.a.matchConstraints(req, mc)
		if err != nil {
			addConfig(p, nil, err)
			continue
		}
		if !ok {
			continue
		}
		for _, b := range h.bindings {
			if mr := b.Spec.MatchResources; mr != nil {
				switch {
				case mr.NamespaceSelector == nil:
					err = fmt.Errorf(errNilSelector, "namespace")
				case mr.ObjectSelector == nil:
					err = fmt.Errorf(errNilSelector, "object")
				default:
					ok, _, _, err = m.a.matches(req, mr)
				}
				if err != nil {
					addConfig(p, b, err)
					continue
				}
				if !ok {
					continue
				}
			}
			v := versionedFor(matchKind)
			params, err := m.a.collectParams(p.Spec.ParamKind, b.Spec.ParamRef, req.Namespace)
			if err != nil {
				addConfig(p, b, err)
				continue
			}
			for _, param := range params {
				invs = append(invs, invocation{h: h, b: b, kind: v.kind, resource: matchRes, param: param, versioned: v})
			}
		}
	}

	out := req.Object
	if len(invs) > 0 {
		obj, errs, se := m.dispatchInvocations(req, target, invs, st, isReinvoke, res, notes)
		if se != nil {
			return nil, &Denial{Message: se.message, Cause: se.cause, Reason: se.reason, Code: se.code}
		}
		out = obj
		evalErrors = errs
	}
	var failed []policyError
	for _, e := range append(configErrors, evalErrors...) {
		if e.failurePolicy != "Ignore" {
			failed = append(failed, e)
		}
	}
	if len(failed) > 0 {
		e := failed[0]
		reason := "Forbidden"
		if e.reason != "" {
			reason = e.reason
		}
		return nil, &Denial{Policy: e.policy, Binding: e.binding, Message: e.text(), Cause: e.text(), Reason: reason, Code: 403}
	}
	return out, nil
}

func (m *Mutator) dispatchInvocations(req *Request, target MutationTarget, invs []invocation, st *reinvokeState, isReinvoke bool, res *MutationResult, notes map[string]bool) (map[string]interface{}, []policyError, *statusError) {
	if isReinvoke && !unstructured.SemanticEqual(st.lastOutput, req.Object) {
		st.requireReinvoking()
	}
	var errs []policyError
	var ns map[string]interface{}
	nsName := req.Namespace
	if req.Kind == (GVK{Version: "v1", Kind: "Namespace"}) {
		nsName = ""
	}
	if nsName != "" {
		ns, _ = m.a.namespace(nsName)
	}
	var last *versioned
	for _, inv := range invs {
		p := inv.h.policy
		addErr := func(err error) {
			errs = append(errs, policyError{policy: p.Metadata.Name, binding: inv.b.Metadata.Name, hasBinding: true,
				msg: err.Error(), reason: "Invalid", failurePolicy: inv.h.v.failurePolicy})
		}
		if len(inv.h.patchers) != len(p.Spec.Mutations) {
			return nil, nil, &statusError{code: 500, reason: "InternalError",
				message: fmt.Sprintf("Internal error occurred: expected %v compiled evaluators for policy %v, got %v", len(p.Spec.Mutations), p.Metadata.Name, len(inv.h.patchers)),
				cause:   fmt.Sprintf("expected %v compiled evaluators for policy %v, got %v", len(p.Spec.Mutations), p.Metadata.Name, len(inv.h.patchers))}
		}
		v := inv.versioned
		var evalNotes []string
		if len(inv.h.v.matchConditions) > 0 {
			in := evalInput{va: versionedAttributes{v.object, v.oldObject}, request: requestValue(req, req.Resource, v.kind), params: inv.param, notes: &evalNotes, authz: m.a.rbac.authzFor(req)}
			ok, err := inv.h.v.match(in)
			m.note(res, notes, p, evalNotes)
			if err != nil {
				addErr(err)
				continue
			}
			if !ok {
				continue
			}
		}
		key := invocationKey{policy: p.Metadata.Name, binding: inv.b.Metadata.Name}
		if inv.param != nil {
			key.paramNS, key.paramName = metaString(inv.param, "namespace"), metaString(inv.param, "name")
		}
		if isReinvoke && !st.reinvoke[key] {
			continue
		}
		before := unstructured.DeepCopyObject(v.object)
		for i, pt := range inv.h.patchers {
			last = v
			if v.object == nil {
				continue
			}
			am := AppliedMutation{Policy: p.Metadata.Name, Binding: inv.b.Metadata.Name, Param: paramName(inv.param),
				Mutation: i, PatchType: pt.patchType, Reinvocation: isReinvoke}
			prev := v.object
			var evalNotes []string
			obj, err := m.patch(pt, req, v, inv, ns, target, &evalNotes)
			m.note(res, notes, p, evalNotes)
			if err != nil {
				if se, ok := err.(*statusError); ok {
					return nil, nil, se
				}
				am.Error = err.Error()
				res.Mutations = append(res.Mutations, am)
				addErr(err)
				continue
			}
			if target.Default != nil {
				target.Default(obj)
			}
			v.object, v.dirty = obj, true
			am.Changed = diffPaths(prev, obj)
			res.Mutations = append(res.Mutations, am)
		}
		if !unstructured.SemanticEqual(before, v.object) {
			st.requireReinvoking()
			st.shouldReinvoke = true
		}
		if p.Spec.ReinvocationPolicy == "IfNeeded" {
			if st.previouslyInvoked == nil {
				st.previouslyInvoked = map[invocationKey]bool{}
			}
			st.previouslyInvoked[key] = true
		}
	}
	out := req.Object
	if last != nil && last.object != nil && last.dirty {
		st.requireReinvoking()
		st.shouldReinvoke = true
		out = unstructured.DeepCopyObject(last.object)
		if av, ok := req.Object["apiVersion"]; ok {
			out["apiVersion"] = av
		} else {
			delete(out, "apiVersion")
		}
	}
	st.lastOutput = unstructured.DeepCopyObject(out)
	return out, errs, nil
}

func (m *Mutator) note(res *MutationResult, seen map[string]bool, p *MutatingPolicy, ns []string) {
	for _, n := range ns {
		n = fmt.Sprintf("MutatingAdmissionPolicy '%s': %s", p.Metadata.Name, n)
		if !seen[n] {
			seen[n] = true
			res.Notes = append(res.Notes, n)
		}
	}
}

func paramName(p map[string]interface{}) string {
	if p == nil {
		return ""
	}
	if ns := metaString(p, "namespace"); ns != "" {
		return ns + "/" + metaString(p, "name")
	}
	return metaString(p, "name")
}

// diffPaths lists the JSON pointers where a and b differ: fields added,
// removed or changed, and list items (a list of another length is one
// change).
func diffPaths(a, b interface{}) []string {
	var out []string
	var walk func(path string, x, y interface{})
	walk = func(path string, x, y interface{}) {
		xm, xok := x.(map[string]interface{})
		ym, yok := y.(map[string]interface{})
		if xok && yok {
			union := map[string]bool{}
			for k := range xm {
				union[k] = true
			}
			for k := range ym {
				union[k] = true
			}
			for _, k := range keys.Sorted(union) {
				xv, xin := xm[k]
				yv, yin := ym[k]
				p := path + "/" + escapeJSONPointerKey(k)
				if xin != yin {
					out = append(out, p)
					continue
				}
				walk(p, xv, yv)
			}
			return
		}
		xl, xok := x.([]interface{})
		yl, yok := y.([]interface{})
		if xok && yok && len(xl) == len(yl) {
			for i := range xl {
				walk(path+"/"+strconv.Itoa(i), xl[i], yl[i])
			}
			return
		}
		if !reflect.DeepEqual(x, y) {
			if path == "" {
				path = "/"
			}
			out = append(out, path)
		}
	}
	walk("", a, b)
	return out
}
