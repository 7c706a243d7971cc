package admission

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/crdlab/crdlab/internal/unstructured"
	"reflect"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/position"
	"github.com/crdlab/crdlab/internal/yamldoc"
)

// DecodeError is a policy or binding that does not decode, located at
// file:line:column.
type DecodeError struct {
	File         string
	Line, Column int
	Path         string
	Msg          string
}

func (e *DecodeError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Inputs are the documents of policy files.
type Inputs struct {
	Policies []*Policy
	Bindings []*Binding
	// Webhooks are the ValidatingWebhookConfigurations and
	// MutatingWebhookConfigurations.
	Webhooks []*WebhookConfiguration
	// MutatingPolicies and MutatingBindings are the mutating admission
	// policies and their bindings.
	MutatingPolicies []*MutatingPolicy
	MutatingBindings []*MutatingBinding
	// Objects are the other objects (params, Namespaces, anything else).
	Objects []map[string]interface{}

	// served, while DecodeDocumentServed decodes, says which versions of
	// the policy kinds the release serves.
	served func(apiVersion, kind, name, file string) string
}

// Add appends the contents of other.
func (in *Inputs) Add(other *Inputs) {
	in.Policies = append(in.Policies, other.Policies...)
	in.Bindings = append(in.Bindings, other.Bindings...)
	in.Webhooks = append(in.Webhooks, other.Webhooks...)
	in.Objects = append(in.Objects, other.Objects...)
	in.MutatingPolicies = append(in.MutatingPolicies, other.MutatingPolicies...)
	in.MutatingBindings = append(in.MutatingBindings, other.MutatingBindings...)
}

// DecodeFile reads every document of a YAML stream or JSON file; kind: List
// items are read one by one.
func DecodeFile(data []byte, file string) (*Inputs, error) {
	docs, err := yamldoc.Split(data)
	if err != nil {
		if se, ok := err.(*yamldoc.SeparatorError); ok {
			return nil, &DecodeError{File: file, Line: se.Line, Msg: se.Error()}
		}
		return nil, err
	}
	in := &Inputs{}
	for _, d := range docs {
		if yamldoc.Empty(d.Data) {
			continue
		}
		if err := decodeInto(in, d.Data, file, d.Line); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// DecodeDocumentServed is DecodeDocument for a release that serves the
// policy kinds' versions served says: served returns "" for a version the
// API server serves, else the error a create of the object named name
// gets (kubectl's "resource mapping not found" for the file kubectl reads
// it from). Versions v1alpha1 and
// v1beta1 of the policies and bindings are read as v1 with their
// version's defaults (a v1alpha1 binding's paramRef.parameterNotFoundAction
// is Deny), as the API server converts them.
func DecodeDocumentServed(raw []byte, file string, firstLine int, served func(apiVersion, kind, name, file string) string) (*Inputs, error) {
	in := &Inputs{served: served}
	if err := decodeInto(in, raw, file, firstLine); err != nil {
		return nil, err
	}
	in.served = nil
	return in, nil
}

// metaName is an object's metadata.name, "" when it has none.
func metaName(obj map[string]interface{}) string {
	md, _ := obj["metadata"].(map[string]interface{})
	name, _ := md["name"].(string)
	return name
}

// defaultAlphaParamRef is v1alpha1's SetDefaults_ParamRef: a paramRef
// without parameterNotFoundAction denies when no param is found (v1 and
// v1beta1 require the field).
func defaultAlphaParamRef(r *ParamRef) {
	if r != nil && r.ParameterNotFoundAction == nil {
		deny := "Deny"
		r.ParameterNotFoundAction = &deny
	}
}

// DecodeDocument reads one document (YAML or JSON) that starts at line
// firstLine of file.
func DecodeDocument(raw []byte, file string, firstLine int) (*Inputs, error) {
	in := &Inputs{}
	if err := decodeInto(in, raw, file, firstLine); err != nil {
		return nil, err
	}
	return in, nil
}

// IsPolicyKind reports whether apiVersion and kind are a
// ValidatingAdmissionPolicy, MutatingAdmissionPolicy or one of their
// bindings.
func IsPolicyKind(apiVersion, kind string) bool {
	g, _, _ := strings.Cut(apiVersion, "/")
	return g == APIGroup && (kind == KindPolicy || kind == KindBinding || kind == KindMutatingPolicy || kind == KindMutatingBinding)
}

// IsWebhookKind reports whether apiVersion and kind are a
// ValidatingWebhookConfiguration or MutatingWebhookConfiguration.
func IsWebhookKind(apiVersion, kind string) bool {
	g, _, _ := strings.Cut(apiVersion, "/")
	return g == APIGroup && (kind == KindValidatingWebhooks || kind == KindMutatingWebhooks)
}

// IsAdmissionKind reports whether apiVersion and kind are one of the kinds
// this package decodes: policies, bindings and webhook configurations.
func IsAdmissionKind(apiVersion, kind string) bool {
	return IsPolicyKind(apiVersion, kind) || IsWebhookKind(apiVersion, kind)
}

func decodeInto(in *Inputs, raw []byte, file string, firstLine int) error {
	raw = bytes.TrimPrefix(raw, []byte("---"))
	js, err := yaml.YAMLToJSON(raw)
	if err != nil {
		return &DecodeError{File: file, Line: firstLine, Msg: err.Error()}
	}
	v, err := decodeJSON(js)
	if err != nil {
		return &DecodeError{File: file, Line: firstLine, Msg: err.Error()}
	}
	if v == nil {
		return nil
	}
	obj, ok := v.(map[string]interface{})
	if !ok {
		return &DecodeError{File: file, Line: firstLine, Msg: "expected an object"}
	}
	var tree *position.Tree
	locate := func(path, msg string) error {
		if tree == nil {
			tree = position.Parse(raw)
		}
		e := &DecodeError{File: file, Line: firstLine, Path: path, Msg: msg}
		if strings.Contains(msg, strconv.Quote(path)) {
			e.Path = "" // the message names it
		}
		if p, ok := tree.Find(path); ok || p.Known() {
			e.Line, e.Column = p.Line+firstLine-1, p.Column
		}
		return e
	}
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	where := fmt.Sprintf("%s:%d", file, contentLine(raw, firstLine))
	if kind == "List" && apiVersion == "v1" {
		items, _ := obj["items"].([]interface{})
		for i, it := range items {
			b, _ := json.Marshal(it)
			if err := decodeInto(in, b, fmt.Sprintf("%s (items[%d])", where, i), 0); err != nil {
				return err
			}
		}
		return nil
	}
	if !IsAdmissionKind(apiVersion, kind) {
		if isRBACObject(obj) {
			if err := checkRBACShape(obj, kind, locate); err != nil {
				return err
			}
		}
		in.Objects = append(in.Objects, obj)
		return nil
	}
	_, version, _ := strings.Cut(apiVersion, "/")
	if in.served != nil && IsPolicyKind(apiVersion, kind) && (version == "v1" || version == "v1beta1" || version == "v1alpha1") {
		// The release (and its runtime config) decides whether the API
		// server serves the version: kubectl's error when it does not.
		if msg := in.served(apiVersion, kind, metaName(obj), file); msg != "" {
			return locate("apiVersion", msg)
		}
	} else if version != "v1" {
		return locate("apiVersion", fmt.Sprintf("unsupported apiVersion %q: crdlab reads %s/v1 %s objects", apiVersion, APIGroup, kind))
	}
	if IsWebhookKind(apiVersion, kind) {
		c := &WebhookConfiguration{Source: where}
		if err := strictFill(obj, reflect.ValueOf(c).Elem(), "", locate); err != nil {
			return err
		}
		if c.Metadata.Name == "" {
			return locate("metadata", "metadata.name: Required value: name is required")
		}
		for i := range c.Webhooks {
			w := &c.Webhooks[i]
			path := fmt.Sprintf("webhooks[%d]", i)
			if w.ReinvocationPolicy != nil && !c.Mutating() {
				return locate(path+".reinvocationPolicy", fmt.Sprintf("unknown field %q", path+".reinvocationPolicy"))
			}
			if w.Name == "" {
				return locate(path, path+".name: Required value")
			}
		}
		defaultWebhooks(c)
		in.Webhooks = append(in.Webhooks, c)
		return nil
	}
	if kind == KindMutatingPolicy || kind == KindMutatingBinding {
		return decodeMutating(in, obj, kind, version, where, locate)
	}
	if kind == KindPolicy {
		p := &Policy{Source: where}
		if err := strictFill(obj, reflect.ValueOf(p).Elem(), "", locate); err != nil {
			return err
		}
		if p.Metadata.Name == "" {
			return locate("metadata", "metadata.name: Required value: name is required")
		}
		defaultPolicy(p)
		in.Policies = append(in.Policies, p)
		return nil
	}
	b := &Binding{Source: where}
	if err := strictFill(obj, reflect.ValueOf(b).Elem(), "", locate); err != nil {
		return err
	}
	if b.Metadata.Name == "" {
		return locate("metadata", "metadata.name: Required value: name is required")
	}
	if version == "v1alpha1" {
		defaultAlphaParamRef(b.Spec.ParamRef)
	}
	defaultBinding(b)
	in.Bindings = append(in.Bindings, b)
	return nil
}

// decodeJSON decodes JSON as unstructured objects do: integers as int64,
// other numbers as float64.
func decodeJSON(data []byte) (interface{}, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return unstructured.ConvertNumbers(v), nil
}

// DecodeObject decodes one JSON object into the unstructured form params,
// namespaces and admitted objects take (integers int64, floats float64).
func DecodeObject(data []byte) (map[string]interface{}, error) {
	v, err := decodeJSON(data)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("expected an object")
	}
	return m, nil
}

// strictFill sets rv from v, refusing unknown fields and values of the
// wrong JSON type with the path of the offending field.
func strictFill(v interface{}, rv reflect.Value, path string, locate func(path, msg string) error) error {
	if v == nil {
		return nil
	}
	t := rv.Type()
	switch t.Kind() {
	case reflect.Pointer:
		nv := reflect.New(t.Elem())
		if err := strictFill(v, nv.Elem(), path, locate); err != nil {
			return err
		}
		rv.Set(nv)
		return nil
	case reflect.Int64:
		n, ok := v.(int64)
		if !ok {
			return locate(path, fmt.Sprintf("expected an integer, got %s", jsonType(v)))
		}
		rv.SetInt(n)
		return nil
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return locate(path, fmt.Sprintf("expected a string, got %s", jsonType(v)))
		}
		rv.SetString(s)
		return nil
	case reflect.Slice:
		l, ok := v.([]interface{})
		if !ok {
			return locate(path, fmt.Sprintf("expected a list, got %s", jsonType(v)))
		}
		s := reflect.MakeSlice(t, len(l), len(l))
		for i, x := range l {
			if err := strictFill(x, s.Index(i), fmt.Sprintf("%s[%d]", path, i), locate); err != nil {
				return err
			}
		}
		rv.Set(s)
		return nil
	case reflect.Map:
		m, ok := v.(map[string]interface{})
		if !ok {
			return locate(path, fmt.Sprintf("expected an object, got %s", jsonType(v)))
		}
		out := reflect.MakeMapWithSize(t, len(m))
		for _, k := range keys.Sorted(m) {
			e := reflect.New(t.Elem()).Elem()
			if err := strictFill(m[k], e, join(path, k), locate); err != nil {
				return err
			}
			out.SetMapIndex(reflect.ValueOf(k), e)
		}
		rv.Set(out)
		return nil
	case reflect.Struct:
		m, ok := v.(map[string]interface{})
		if !ok {
			return locate(path, fmt.Sprintf("expected an object, got %s", jsonType(v)))
		}
		byName := map[string]int{}
		for i := 0; i < t.NumField(); i++ {
			tag := t.Field(i).Tag.Get("json")
			name, _, _ := strings.Cut(tag, ",")
			if name != "" && name != "-" {
				byName[name] = i
			}
		}
		for _, k := range keys.Sorted(m) {
			i, ok := byName[k]
			if !ok {
				if path == "metadata" {
					continue // other ObjectMeta fields are not used
				}
				return locate(join(path, k), fmt.Sprintf("unknown field %q", join(path, k)))
			}
			if err := strictFill(m[k], rv.Field(i), join(path, k), locate); err != nil {
				return err
			}
		}
		return nil
	case reflect.Interface:
		rv.Set(reflect.ValueOf(v)) // any JSON value
		return nil
	}
	return locate(path, "unsupported field type")
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func jsonType(v interface{}) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	case []interface{}:
		return "a list"
	case map[string]interface{}:
		return "an object"
	}
	return "null"
}

func strPtr(s string) *string { return &s }

// defaultPolicy applies the admissionregistration/v1 defaults the API server
// sets when the policy is created (pkg/apis/admissionregistration/v1
// defaults.go): failurePolicy Fail; in matchConstraints, matchPolicy
// Equivalent, empty namespace and object selectors, and scope "*" in rules.
func defaultPolicy(p *Policy) {
	if p.Spec.FailurePolicy == nil {
		p.Spec.FailurePolicy = strPtr("Fail")
	}
	defaultMatchResources(p.Spec.MatchConstraints)
}

// defaultBinding applies the binding's defaults: those of matchResources.
func defaultBinding(b *Binding) {
	defaultMatchResources(b.Spec.MatchResources)
}

func defaultMatchResources(m *MatchResources) {
	if m == nil {
		return
	}
	if m.MatchPolicy == nil {
		m.MatchPolicy = strPtr("Equivalent")
	}
	if m.NamespaceSelector == nil {
		m.NamespaceSelector = &LabelSelector{}
	}
	if m.ObjectSelector == nil {
		m.ObjectSelector = &LabelSelector{}
	}
	for _, rs := range [][]NamedRuleWithOperations{m.ResourceRules, m.ExcludeResourceRules} {
		for i := range rs {
			if rs[i].Scope == nil {
				rs[i].Scope = strPtr("*")
			}
		}
	}
}

// defaultWebhooks applies the admissionregistration/v1 defaults of
// webhooks (pkg/apis/admissionregistration/v1 defaults.go): failurePolicy
// Fail, matchPolicy Equivalent, empty namespace and object selectors,
// timeoutSeconds 10, scope "*" in rules, and reinvocationPolicy Never for
// mutating webhooks. sideEffects has no default in v1 (it is required).
func defaultWebhooks(c *WebhookConfiguration) {
	for i := range c.Webhooks {
		w := &c.Webhooks[i]
		if w.FailurePolicy == nil {
			w.FailurePolicy = strPtr("Fail")
		}
		if w.MatchPolicy == nil {
			w.MatchPolicy = strPtr("Equivalent")
		}
		if w.NamespaceSelector == nil {
			w.NamespaceSelector = &LabelSelector{}
		}
		if w.ObjectSelector == nil {
			w.ObjectSelector = &LabelSelector{}
		}
		if w.TimeoutSeconds == nil {
			t := int64(10)
			w.TimeoutSeconds = &t
		}
		if c.Mutating() && w.ReinvocationPolicy == nil {
			w.ReinvocationPolicy = strPtr("Never")
		}
		for j := range w.Rules {
			if w.Rules[j].Scope == nil {
				w.Rules[j].Scope = strPtr("*")
			}
		}
		if svc := w.ClientConfig.Service; svc != nil && svc.Port == nil {
			p := int64(443)
			svc.Port = &p
		}
	}
}
