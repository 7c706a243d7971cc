package celcomplete

import (
	"strings"
	"sync"
	"unicode/utf8"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/admission"
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/limits"
)

// Variable is a kind of proposal: an expression's variable (a policy's
// object, request...) or a macro variable in scope.
const Variable Kind = "variable"

// Policy is what types the expressions of an admission policy
// (ValidatingAdmissionPolicy or MutatingAdmissionPolicy): the variables
// kube-apiserver declares for them (object, oldObject, request,
// namespaceObject, authorizer, variables, params).
type Policy struct {
	// Object is the schema (openAPIV3Schema) of the kind the policy
	// matches, which types object and oldObject; nil: they are dyn.
	Object *crd.JSONSchemaProps
	// Params says the policy has a paramKind (params is declared);
	// ParamsSchema is its kind's schema when known (nil: params is dyn).
	Params       bool
	ParamsSchema *crd.JSONSchemaProps
	// Variables are the policy's spec.variables, in order.
	Variables []PolicyVariable
}

// PolicyVariable is one of spec.variables: variables.<Name> is typed by
// its expression when that is a select chain of a known type
// (object.spec.replicas: int), dyn otherwise.
type PolicyVariable struct {
	Name       string
	Expression string
}

// declaredTypes are the object types of the policy environment that no
// schema gives, each field "name type" (a type: a simple type, list(t),
// map(k,v), or a type declared above it), as static data: a table of
// strings costs the WebAssembly module far less than map literals, which
// compile to initialization code.
var declaredTypes = [...]struct{ name, fields string }{
	{"kubernetes.GroupVersionKind", "group string; version string; kind string"},
	{"kubernetes.GroupVersionResource", "group string; version string; resource string"},
	{"kubernetes.UserInfo", "username string; uid string; groups list(string); extra map(string,list(string))"},
	{"kubernetes.AdmissionRequest", "kind kubernetes.GroupVersionKind; resource kubernetes.GroupVersionResource; " +
		"subResource string; requestKind kubernetes.GroupVersionKind; requestResource kubernetes.GroupVersionResource; " +
		"requestSubResource string; name string; namespace string; operation string; userInfo kubernetes.UserInfo; " +
		"dryRun bool; options dyn"},
	{"kubernetes.NamespaceCondition", "status string; type string; lastTransitionTime timestamp; message string; reason string"},
	{"kubernetes.NamespaceMetadata", "name string; generateName string; namespace string; labels map(string,string); " +
		"annotations map(string,string); UID string; creationTimestamp timestamp; deletionGracePeriodSeconds int; " +
		"deletionTimestamp timestamp; generation int; resourceVersion string; finalizers list(string)"},
	{"kubernetes.NamespaceSpec", "finalizers list(string)"},
	{"kubernetes.NamespaceStatus", "conditions list(kubernetes.NamespaceCondition); phase string"},
	{"kubernetes.Namespace", "metadata kubernetes.NamespaceMetadata; spec kubernetes.NamespaceSpec; status kubernetes.NamespaceStatus"},
}

// declared is the declared types by name (built once, read-only).
var declared = sync.OnceValue(func() map[string]*typ {
	out := map[string]*typ{}
	for _, d := range declaredTypes {
		t := &typ{kind: "object", name: d.name, fields: map[string]*typ{}}
		for _, f := range strings.Split(d.fields, "; ") {
			name, ft, _ := strings.Cut(f, " ")
			t.fields[name] = parseType(ft, out)
		}
		out[d.name] = t
	}
	return out
})

// parseType reads a type of declaredTypes.
func parseType(s string, declared map[string]*typ) *typ {
	if inner, ok := strings.CutPrefix(s, "list("); ok {
		return listOf(parseType(strings.TrimSuffix(inner, ")"), declared))
	}
	if inner, ok := strings.CutPrefix(s, "map("); ok {
		k, v, _ := strings.Cut(strings.TrimSuffix(inner, ")"), ",")
		return mapOf(parseType(k, declared), parseType(v, declared))
	}
	if t := declared[s]; t != nil {
		return t
	}
	return simple(s)
}

// authzMethods are the member functions of the authorizer library's
// types (k8s.io/apiserver/pkg/cel/library/authz.go), as static data.
var authzMethods = [...]struct{ recv, name, detail, result string }{
	{"Authorizer", "group", "group(name) → GroupCheck", "GroupCheck"},
	{"Authorizer", "path", "path(path) → PathCheck", "PathCheck"},
	{"Authorizer", "serviceAccount", "serviceAccount(namespace, name) → Authorizer", "Authorizer"},
	{"GroupCheck", "resource", "resource(name) → ResourceCheck", "ResourceCheck"},
	{"ResourceCheck", "subresource", "subresource(name) → ResourceCheck", "ResourceCheck"},
	{"ResourceCheck", "namespace", "namespace(name) → ResourceCheck", "ResourceCheck"},
	{"ResourceCheck", "name", "name(name) → ResourceCheck", "ResourceCheck"},
	{"ResourceCheck", "fieldSelector", "fieldSelector(selector) → ResourceCheck", "ResourceCheck"},
	{"ResourceCheck", "labelSelector", "labelSelector(selector) → ResourceCheck", "ResourceCheck"},
	{"ResourceCheck", "check", "check(verb) → Decision", "Decision"},
	{"PathCheck", "check", "check(verb) → Decision", "Decision"},
	{"Decision", "allowed", "allowed() → bool", "bool"},
	{"Decision", "reason", "reason() → string", "string"},
	{"Decision", "errored", "errored() → bool", "bool"},
	{"Decision", "error", "error() → string", "string"},
}

// addAuthzMethods adds the authorizer library's methods of kind to out.
func addAuthzMethods(kind string, out map[string]method) {
	for _, m := range authzMethods {
		if m.recv == kind {
			out[m.name] = method{m.detail, always(simple(m.result))}
		}
	}
}

// env is the policy's variables and their types.
func (p *Policy) env() map[string]*typ {
	obj := tDyn
	if p.Object != nil {
		if t := schemaType(p.Object, true); t != nil {
			obj = t
		}
	}
	vars := &typ{kind: "object", name: "kubernetes.variables", fields: map[string]*typ{}}
	env := map[string]*typ{
		"object": obj, "oldObject": obj, "request": declared()["kubernetes.AdmissionRequest"],
		"namespaceObject": declared()["kubernetes.Namespace"],
		"authorizer":      {kind: "Authorizer", fields: map[string]*typ{"requestResource": simple("ResourceCheck")}},
		"variables":       vars,
	}
	if p.Params {
		params := tDyn
		if p.ParamsSchema != nil {
			if t := schemaType(p.ParamsSchema, true); t != nil {
				params = t
			}
		}
		env["params"] = params
	}
	for _, v := range p.Variables {
		if v.Name == "" {
			continue
		}
		vars.fields[v.Name] = exprType(v.Expression, env)
	}
	return env
}

// exprType is the type of an expression that is one select chain
// (object.spec.items[0]), dyn for anything else.
func exprType(expr string, env map[string]*typ) *typ {
	if utf8.RuneCountInString(expr) > limits.CELExpressionSizeCodePoints {
		return tDyn
	}
	toks := tokenize(expr)
	if len(toks) == 0 || chainStart(toks, len(toks)-1) != 0 {
		return tDyn
	}
	if t := chainType(toks, 0, len(toks)-1, nil, env); t != nil {
		return t
	}
	return tDyn
}

// CompletePolicy returns the completion at the end of before (the text of
// one of p's expressions up to the cursor): after "<receiver>.", as
// Complete; where an identifier starts (the start, after an operator or
// an opening bracket, or a name typed so far), the policy's variables
// (object, oldObject, request, params...) and the macro variables in
// scope. nil when nothing completes there.
func CompletePolicy(p *Policy, before string) *Result {
	if p == nil {
		p = &Policy{}
	}
	return complete(p.env(), before, true)
}

// completeName offers the names of env and of the macro variables in
// scope where an identifier starts at the end of before.
func completeName(env map[string]*typ, before string) *Result {
	from := len(before)
	for from > 0 && isWord(before[from-1]) {
		from--
	}
	if from < len(before) && !isIdentStart(before[from]) {
		return nil // a number
	}
	head := before[:from]
	toks := tokenize(head)
	if n := len(toks); n > 0 {
		last := toks[n-1]
		if last.t == 's' && (last.e > len(head) || !closedString(head[last.s:last.e])) {
			return nil // inside a string literal
		}
		if from == len(before) && !(last.t == 'p' && strings.Contains("([{,!&|=<>+-*/%?:", last.v)) {
			return nil // nothing typed, and no identifier may start here
		}
	}
	if from > 0 && (before[from-1] == '.' || isWord(before[from-1])) {
		return nil
	}
	scope, ok := scopeAtEnd(toks, env)
	if !ok {
		return nil
	}
	all := map[string]*typ{}
	for name, t := range env {
		all[name] = t
	}
	for _, f := range scope {
		for name, t := range f.vars {
			all[name] = t
		}
	}
	names := keys.Sorted(all)
	out := &Result{From: from}
	for _, name := range names {
		detail := "dyn"
		if t := all[name]; t != nil {
			detail = t.String()
		}
		out.Options = append(out.Options, Option{Label: name, Kind: Variable, Detail: detail})
	}
	if len(out.Options) == 0 {
		return nil
	}
	return out
}

// PolicyFor reads what types a policy's expressions from its document (a
// ValidatingAdmissionPolicy or MutatingAdmissionPolicy, YAML or JSON;
// only spec.matchConstraints, spec.paramKind and spec.variables are read,
// other fields are not checked) and the CRDs of the cluster: object's
// schema is that of the kind the policy matches among crds (as type
// checking picks it: internal/admission.PolicyObjectSchema), params' that
// of its paramKind when one of crds serves it.
func PolicyFor(doc []byte, crds []*crd.CustomResourceDefinition) (*Policy, error) {
	var p struct {
		Spec struct {
			ParamKind        *admission.ParamKind      `json:"paramKind"`
			MatchConstraints *admission.MatchResources `json:"matchConstraints"`
			Variables        []admission.Variable      `json:"variables"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(doc, &p); err != nil {
		return nil, err
	}
	out := &Policy{Object: admission.PolicyObjectSchema(p.Spec.MatchConstraints, crds), Params: p.Spec.ParamKind != nil}
	if out.Params {
		out.ParamsSchema = admission.PolicyParamsSchema(p.Spec.ParamKind, crds)
	}
	for _, v := range p.Spec.Variables {
		out.Variables = append(out.Variables, PolicyVariable{Name: v.Name, Expression: v.Expression})
	}
	return out, nil
}
