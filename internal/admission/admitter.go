package admission

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/google/cel-go/cel"
)

// UserInfo is the requesting user (authentication/v1 UserInfo).
type UserInfo struct {
	Username string              `json:"username,omitempty"`
	UID      string              `json:"uid,omitempty"`
	Groups   []string            `json:"groups,omitempty"`
	Extra    map[string][]string `json:"extra,omitempty"`
}

// Request is one admission request: the attributes kube-apiserver hands to
// its validating admission plugins.
type Request struct {
	Operation   string // CREATE, UPDATE, DELETE or CONNECT
	Kind        GVK
	Resource    GVR
	SubResource string
	Name        string
	Namespace   string
	// Object is nil on DELETE; OldObject is set on UPDATE and DELETE.
	Object, OldObject map[string]interface{}
	UserInfo          UserInfo
	DryRun            bool
	// Options is the operation's options object (CreateOptions,
	// UpdateOptions, DeleteOptions); nil gives DefaultOptions(Operation).
	Options map[string]interface{}
}

// DefaultOptions is the options object the API server's handlers pass for
// an operation: an empty CreateOptions, UpdateOptions or DeleteOptions of
// meta.k8s.io/v1.
func DefaultOptions(op string) map[string]interface{} {
	kind := map[string]string{"CREATE": "CreateOptions", "UPDATE": "UpdateOptions", "DELETE": "DeleteOptions"}[op]
	if kind == "" {
		return nil
	}
	return map[string]interface{}{"kind": kind, "apiVersion": "meta.k8s.io/v1"}
}

// Resources answers what the API server's REST mapper and equivalent
// resource mapper know.
type Resources interface {
	// Equivalents lists the resources equivalent to r (r itself included),
	// each with its kind: a CRD's served versions.
	Equivalents(r GVR, subresource string) []Equivalent
	// ParamScope tells whether objects of the param kind are namespaced.
	ParamScope(apiVersion, kind string) (namespaced bool)
}

// Denial is the API server's refusal.
type Denial struct {
	Policy  string `json:"policy"`
	Binding string `json:"binding,omitempty"`
	// Message is the status message, e.g. `crontabs.stable.example.com "c"
	// is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied
	// request: ...`.
	Message string `json:"message"`
	// Cause is the message without the resource prefix (the status's
	// details.causes[0].message).
	Cause  string `json:"cause"`
	Reason string `json:"reason"`
	Code   int    `json:"code"`
}

// Decision is the outcome of validating admission for one request.
type Decision struct {
	// Denied is nil when the request is admitted.
	Denied *Denial `json:"denied,omitempty"`
	// Warnings as the API server sends them (Warn action), de-duplicated.
	Warnings []string `json:"warnings,omitempty"`
	// AuditAnnotations are the annotations the request's audit event gets.
	AuditAnnotations map[string]string `json:"auditAnnotations,omitempty"`
	// Notes are crdlab's remarks where the outcome depends on something it
	// does not model (the authorizer without RBAC objects among the inputs).
	Notes []string `json:"notes,omitempty"`
	// Evaluated lists "policy/binding" pairs that matched the request.
	Evaluated []string `json:"evaluated,omitempty"`
}

// Config is what an Admitter is built from.
type Config struct {
	Policies []*Policy
	Bindings []*Binding
	// Webhooks are the webhook configurations (Admitter.Webhooks).
	Webhooks []*WebhookConfiguration
	// Objects are the other objects of the inputs: parameters and
	// Namespaces are looked up among them.
	Objects []map[string]interface{}
	// Resources resolves equivalent resources and param scopes; nil
	// knows no equivalents and takes every param kind as namespaced.
	Resources Resources
}

// Admitter evaluates the policies of a Config. It is immutable after New
// and safe for concurrent use.
type Admitter struct {
	hooks      []*hook
	webhooks   []*compiledWebhook
	objects    []map[string]interface{}
	namespaces map[string]map[string]interface{}
	resources  Resources
	// rbac answers the authorizer of CEL expressions (rbac.go).
	rbac *rbacAuthorizer
}

type hook struct {
	policy   *Policy
	bindings []*Binding
	v        *validator
}

// New compiles the policies of cfg. Policies are evaluated in name order and
// each policy's bindings in name order (the API server's order comes from
// its informers and is unspecified). Policies without bindings never apply.
func New(cfg Config) (*Admitter, error) {
	a := &Admitter{resources: cfg.Resources, namespaces: map[string]map[string]interface{}{}}
	byPolicy := map[string][]*Binding{}
	for _, b := range cfg.Bindings {
		byPolicy[b.Spec.PolicyName] = append(byPolicy[b.Spec.PolicyName], b)
	}
	pols := append([]*Policy(nil), cfg.Policies...)
	sort.SliceStable(pols, func(i, j int) bool { return pols[i].Metadata.Name < pols[j].Metadata.Name })
	for _, p := range pols {
		bs := byPolicy[p.Metadata.Name]
		if len(bs) == 0 {
			continue
		}
		bs = append([]*Binding(nil), bs...)
		sort.SliceStable(bs, func(i, j int) bool { return bs[i].Metadata.Name < bs[j].Metadata.Name })
		v, err := compilePolicy(p)
		if err != nil {
			return nil, err
		}
		a.hooks = append(a.hooks, &hook{policy: p, bindings: bs, v: v})
	}
	var err error
	if a.webhooks, err = compileWebhooks(cfg.Webhooks); err != nil {
		return nil, err
	}
	objects := inDefaultNamespace(cfg.Objects, cfg.Resources)
	if a.rbac, err = newRBACAuthorizer(objects); err != nil {
		return nil, err
	}
	for _, o := range objects {
		if o == nil {
			continue
		}
		if o["apiVersion"] == "v1" && o["kind"] == "ConfigMap" {
			o = typedConfigMap(o)
		}
		a.objects = append(a.objects, o)
		if o["apiVersion"] == "v1" && o["kind"] == "Namespace" {
			if n := metaString(o, "name"); n != "" {
				a.namespaces[n] = o
			}
		}
	}
	return a, nil
}

// inDefaultNamespace is objects with the namespace `kubectl apply` gives
// an object of a namespaced kind written without metadata.namespace: the
// context's, "default" (params, Roles and RoleBindings are then found
// where a cluster has them); objects of cluster-scoped kinds and objects
// with a namespace are left as they are. The objects changed are copies.
func inDefaultNamespace(objects []map[string]interface{}, r Resources) []map[string]interface{} {
	out := make([]map[string]interface{}, len(objects))
	for i, o := range objects {
		out[i] = o
		if o == nil || metaString(o, "namespace") != "" {
			continue
		}
		apiVersion, _ := o["apiVersion"].(string)
		kind, _ := o["kind"].(string)
		if apiVersion == "" || kind == "" {
			continue
		}
		namespaced := !ClusterScopedBuiltin(kind)
		if namespaced && r != nil {
			namespaced = r.ParamScope(apiVersion, kind)
		}
		if !namespaced {
			continue
		}
		c := make(map[string]interface{}, len(o))
		for k, v := range o {
			c[k] = v
		}
		md := map[string]interface{}{}
		if m, ok := o["metadata"].(map[string]interface{}); ok {
			for k, v := range m {
				md[k] = v
			}
		}
		md["namespace"] = "default"
		c["metadata"] = md
		out[i] = c
	}
	return out
}

func metaString(o map[string]interface{}, f string) string {
	md, _ := o["metadata"].(map[string]interface{})
	s, _ := md[f].(string)
	return s
}

// DefaultNamespace is the Namespace crdlab assumes when a request names a
// namespace that is not among the inputs: an active namespace with the
// label the API server sets on every namespace.
func DefaultNamespace(name string) map[string]interface{} {
	return map[string]interface{}{
		"apiVersion": "v1",
		"kind":       "Namespace",
		"metadata": map[string]interface{}{
			"name":   name,
			"labels": map[string]interface{}{"kubernetes.io/metadata.name": name},
		},
		"spec":   map[string]interface{}{"finalizers": []interface{}{"kubernetes"}},
		"status": map[string]interface{}{"phase": "Active"},
	}
}

func (a *Admitter) namespace(name string) (map[string]interface{}, error) {
	if ns, ok := a.namespaces[name]; ok {
		return ns, nil
	}
	return DefaultNamespace(name), nil
}

// Policies is the number of policies that have bindings.
func (a *Admitter) Policies() int { return len(a.hooks) }

// WebhookCount is the number of webhooks of the configurations.
func (a *Admitter) WebhookCount() int { return len(a.webhooks) }

type deniedDecision struct {
	policy, binding string
	hasBinding      bool
	decision        policyDecision
}

type validationFailure struct {
	Message           string   `json:"message"`
	Policy            string   `json:"policy"`
	Binding           string   `json:"binding"`
	ExpressionIndex   int      `json:"expressionIndex"`
	ValidationActions []string `json:"validationActions"`
}

const (
	maxValidationFailures         = 50
	maxAuditAnnotationValueLength = 10 * 1024
	validationFailureKey          = "validation.policy.admission.k8s.io/validation_failure"
)

// Validate runs validating admission on req as the dispatcher of
// k8s.io/apiserver/pkg/admission/plugin/policy/validating (dispatcher.go).
func (a *Admitter) Validate(req *Request) *Decision {
	d := &Decision{}
	az := a.rbac.authzFor(req)
	var denied []deniedDecision
	var failures []validationFailure
	seenWarn := map[string]bool{}
	warn := func(w string) {
		if !seenWarn[w] {
			seenWarn[w] = true
			d.Warnings = append(d.Warnings, w)
		}
	}
	annotate := func(k, v string) {
		if d.AuditAnnotations == nil {
			d.AuditAnnotations = map[string]string{}
		}
		if _, ok := d.AuditAnnotations[k]; !ok {
			d.AuditAnnotations[k] = v
		}
	}
	configError := func(err error, p *Policy, b *Binding) {
		fp := failurePolicy(p)
		dd := deniedDecision{policy: p.Metadata.Name}
		switch fp {
		case "Ignore":
			return
		case "Fail":
			if b == nil {
				dd.decision.message = "failed to configure policy: " + err.Error()
			} else {
				dd.decision.message = "failed to configure binding: " + err.Error()
			}
		default:
			dd.decision.message = fmt.Sprintf("unrecognized failure policy: '%v'", fp)
		}
		if b != nil {
			dd.binding, dd.hasBinding = b.Metadata.Name, true
		}
		dd.decision.deny = true
		denied = append(denied, dd)
	}
	notes := map[string]bool{}

	for _, h := range a.hooks {
		p := h.policy
		mc := p.Spec.MatchConstraints
		ok, matchRes, matchKind, err := a.matchConstraints(req, mc)
		if err != nil {
			configError(err, p, nil)
			continue
		}
		if !ok {
			continue
		}
		collector := newAnnotationCollector()
		for _, b := range h.bindings {
			if mr := b.Spec.MatchResources; mr != nil {
				switch {
				case mr.NamespaceSelector == nil:
					err = fmt.Errorf(errNilSelector, "namespace")
				case mr.ObjectSelector == nil:
					err = fmt.Errorf(errNilSelector, "object")
				default:
					ok, _, _, err = a.matches(req, mr)
				}
				if err != nil {
					configError(err, p, b)
					continue
				}
				if !ok {
					continue
				}
			}
			params, err := a.collectParams(p.Spec.ParamKind, b.Spec.ParamRef, req.Namespace)
			if err != nil {
				configError(err, p, b)
				continue
			}
			d.Evaluated = append(d.Evaluated, p.Metadata.Name+"/"+b.Metadata.Name)
			va := a.versioned(req, matchKind)
			var ns map[string]interface{}
			nsName := req.Namespace
			if req.Kind == (GVK{Version: "v1", Kind: "Namespace"}) {
				nsName = ""
			}
			if nsName != "" {
				ns, _ = a.namespace(nsName)
			}
			for _, param := range params {
				res := h.v.validate(req, va, matchRes, matchKind, param, ns, az)
				for _, n := range res.notes {
					if !notes[n] {
						notes[n] = true
						d.Notes = append(d.Notes, fmt.Sprintf("ValidatingAdmissionPolicy '%s': %s", p.Metadata.Name, n))
					}
				}
				for i, dec := range res.decisions {
					if !dec.deny {
						continue
					}
					for _, action := range b.Spec.ValidationActions {
						switch action {
						case "Deny":
							denied = append(denied, deniedDecision{policy: p.Metadata.Name, binding: b.Metadata.Name, hasBinding: true, decision: dec})
						case "Audit":
							failures = append(failures, validationFailure{
								ExpressionIndex:   i,
								Message:           dec.message,
								ValidationActions: b.Spec.ValidationActions,
								Binding:           b.Metadata.Name,
								Policy:            b.Spec.PolicyName,
							})
						case "Warn":
							warn(fmt.Sprintf("Validation failed for ValidatingAdmissionPolicy '%s' with binding '%s': %s", p.Metadata.Name, b.Metadata.Name, dec.message))
						}
					}
				}
				for _, aa := range res.annotations {
					switch aa.action {
					case annotationPublish:
						v := aa.value
						if len(v) > maxAuditAnnotationValueLength {
							v = v[:maxAuditAnnotationValueLength]
						}
						collector.add(aa.key, v)
					case annotationError:
						denied = append(denied, deniedDecision{policy: p.Metadata.Name, binding: b.Metadata.Name, hasBinding: true,
							decision: policyDecision{deny: true, message: aa.err}})
					}
				}
			}
		}
		for _, k := range collector.order {
			annotate(p.Metadata.Name+"/"+k, strings.Join(collector.values[k], ", "))
		}
	}
	if len(failures) > 0 {
		if len(failures) > maxValidationFailures {
			failures = failures[:maxValidationFailures]
		}
		if data, err := json.Marshal(failures); err == nil {
			annotate(validationFailureKey, string(data))
		}
	}
	if len(denied) > 0 {
		dd := denied[0]
		var msg string
		if dd.hasBinding {
			msg = fmt.Sprintf("ValidatingAdmissionPolicy '%s' with binding '%s' denied request: %s", dd.policy, dd.binding, dd.decision.message)
		} else {
			msg = fmt.Sprintf("ValidatingAdmissionPolicy '%s' denied request: %s", dd.policy, dd.decision.message)
		}
		reason := dd.decision.reason
		if reason == "" {
			reason = "Invalid"
		}
		d.Denied = &Denial{Policy: dd.policy, Binding: dd.binding, Cause: msg, Reason: reason, Code: reasonToCode(reason),
			Message: fmt.Sprintf("%s %q is forbidden: %s", groupResource(req.Resource), resourceName(req), msg)}
	}
	return d
}

// reasonToCode is validating/policy_decision.go's reasonToCode.
func reasonToCode(r string) int {
	switch r {
	case "Forbidden":
		return 403
	case "Unauthorized":
		return 401
	case "RequestEntityTooLarge":
		return 413
	}
	return 422
}

func failurePolicy(p *Policy) string {
	if p.Spec.FailurePolicy == nil {
		return "Fail"
	}
	return *p.Spec.FailurePolicy
}

type annotationCollector struct {
	order  []string
	values map[string][]string
}

func newAnnotationCollector() *annotationCollector {
	return &annotationCollector{values: map[string][]string{}}
}

func (c *annotationCollector) add(k, v string) {
	vs, ok := c.values[k]
	if !ok {
		c.order = append(c.order, k)
	}
	for _, x := range vs {
		if x == v {
			return
		}
	}
	c.values[k] = append(vs, v)
}

// versionedAttributes are the request's objects at the matched kind.
type versionedAttributes struct {
	object, oldObject map[string]interface{}
}

// versioned converts the request's objects to kind, as
// admission.NewVersionedAttributes does through a CRD's None conversion:
// only apiVersion changes.
func (a *Admitter) versioned(req *Request, kind GVK) versionedAttributes {
	if kind == req.Kind || kind == (GVK{}) {
		return versionedAttributes{req.Object, req.OldObject}
	}
	apiVersion := kind.Version
	if kind.Group != "" {
		apiVersion = kind.Group + "/" + kind.Version
	}
	conv := func(o map[string]interface{}) map[string]interface{} {
		if o == nil {
			return nil
		}
		c := make(map[string]interface{}, len(o))
		for k, v := range o {
			c[k] = v
		}
		c["apiVersion"] = apiVersion
		return c
	}
	return versionedAttributes{conv(req.Object), conv(req.OldObject)}
}

// collectParams is policy/generic CollectParams over the input objects.
func (a *Admitter) collectParams(kind *ParamKind, ref *ParamRef, namespace string) ([]map[string]interface{}, error) {
	if kind == nil || ref == nil {
		return []map[string]interface{}{nil}, nil
	}
	namespaced := true
	if a.resources != nil {
		namespaced = a.resources.ParamScope(kind.APIVersion, kind.Kind)
	}
	paramsNS := ""
	if namespaced {
		paramsNS = namespace
		if ref.Namespace != "" {
			paramsNS = ref.Namespace
		} else if paramsNS == "" {
			return nil, fmt.Errorf("cannot use namespaced paramRef in policy binding that matches cluster-scoped resources")
		}
	}
	var params []map[string]interface{}
	switch {
	case ref.Namespace != "" && !namespaced:
		return nil, fmt.Errorf("paramRef.namespace must not be provided for a cluster-scoped `paramKind`")
	case ref.Name != "":
		if ref.Selector != nil {
			return nil, fmt.Errorf("paramRef.name and paramRef.selector are mutually exclusive")
		}
		for _, o := range a.paramObjects(kind, namespaced, paramsNS) {
			if metaString(o, "name") == ref.Name {
				params = []map[string]interface{}{o}
				break
			}
		}
	case ref.Selector != nil:
		s, err := parseSelector(ref.Selector)
		if err != nil {
			return nil, err
		}
		for _, o := range a.paramObjects(kind, namespaced, paramsNS) {
			if s.matches(labelsOf(o)) {
				params = append(params, o)
			}
		}
	default:
		return nil, fmt.Errorf("one of name or selector must be provided")
	}
	if len(params) == 0 && ref.ParameterNotFoundAction != nil && *ref.ParameterNotFoundAction == "Deny" {
		return nil, fmt.Errorf("no params found for policy binding with `Deny` parameterNotFoundAction")
	}
	return params, nil
}

// paramObjects lists the input objects of the param kind in the namespace
// (all of them for a cluster-scoped kind), sorted by namespace and name.
func (a *Admitter) paramObjects(kind *ParamKind, namespaced bool, ns string) []map[string]interface{} {
	var out []map[string]interface{}
	for _, o := range a.objects {
		if o["apiVersion"] != kind.APIVersion || o["kind"] != kind.Kind {
			continue
		}
		if namespaced && metaString(o, "namespace") != ns {
			continue
		}
		out = append(out, o)
	}
	sort.SliceStable(out, func(i, j int) bool {
		ni, nj := metaString(out[i], "namespace"), metaString(out[j], "namespace")
		if ni != nj {
			return ni < nj
		}
		return metaString(out[i], "name") < metaString(out[j], "name")
	})
	return out
}

var _ = cel.BoolType

// groupResource is schema.GroupResource.String.
func groupResource(r GVR) string {
	if r.Group == "" {
		return r.Resource
	}
	return r.Resource + "." + r.Group
}

// resourceName is admission's extractResourceName: the request's name, else
// the object's name or generateName, else "Unknown".
func resourceName(req *Request) string {
	if req.Name != "" {
		return req.Name
	}
	if req.Object != nil {
		if n := metaString(req.Object, "name"); n != "" {
			return n
		}
		if n := metaString(req.Object, "generateName"); n != "" {
			return n
		}
	}
	return "Unknown"
}

// objectMetaFields are the fields of metav1.ObjectMeta.
var objectMetaFields = []string{"name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation",
	"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "ownerReferences",
	"finalizers", "managedFields"}

// typedConfigMap is a ConfigMap param as the API server's typed informer
// holds it and the dispatcher's wrappedParam shows it: the fields of
// v1.ConfigMap only (unknown ones dropped, empty ones omitted), apiVersion
// and kind from the paramKind.
func typedConfigMap(o map[string]interface{}) map[string]interface{} {
	out := map[string]interface{}{"apiVersion": "v1", "kind": "ConfigMap"}
	md, _ := o["metadata"].(map[string]interface{})
	outMD := map[string]interface{}{}
	for _, k := range objectMetaFields {
		if v, ok := md[k]; ok && !emptyJSON(v) {
			outMD[k] = v
		}
	}
	out["metadata"] = outMD
	for _, k := range []string{"data", "binaryData", "immutable"} {
		if v, ok := o[k]; ok && !emptyJSON(v) && v != false {
			out[k] = v
		}
	}
	return out
}

// matchConstraints is a policy's matchConstraints against the request, as
// the policy matcher checks them: the required fields first (the API
// server's errors for a policy that skipped its defaults), then matches.
func (a *Admitter) matchConstraints(req *Request, mc *MatchResources) (bool, GVR, GVK, error) {
	switch {
	case mc == nil:
		return false, GVR{}, GVK{}, fmt.Errorf("policy contained no match constraints, a required field")
	case mc.NamespaceSelector == nil:
		return false, GVR{}, GVK{}, fmt.Errorf(errNilSelector, "namespace")
	case mc.ObjectSelector == nil:
		return false, GVR{}, GVK{}, fmt.Errorf(errNilSelector, "object")
	}
	return a.matches(req, mc)
}
