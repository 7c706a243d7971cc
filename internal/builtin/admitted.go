package builtin

import (
	"encoding/json"
	"fmt"
	"strings"

	kjson "sigs.k8s.io/json"

	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/unstructured"
)

// The object the admission chain sees. kube-apiserver's create and update
// handlers decode the body (the scheme's defaults and the conversion run
// there), set the request's namespace, then call mutating admission on
// that object, before the store's rest.BeforeCreate / BeforeUpdate runs
// the strategy; validating admission sees the object the strategy
// prepared and validated (Outcome.Object). Kinds is that path at one
// release, as admission.BuiltinKinds asks for it.

// Kinds answers admission.BuiltinKinds for the release Release.
type Kinds struct {
	Release kubeversion.Release
}

// Resource is the resource serving apiVersion and kind, when the release
// serves one that can be created.
func (k Kinds) Resource(apiVersion, kind string) (plural string, namespaced, ok bool) {
	r := Lookup(k.Release, apiVersion, kind)
	if r == nil || !r.Creatable() {
		return "", false, false
	}
	return r.Resource, r.Namespaced, true
}

// Admitted is the object mutating admission sees: for a kind with a
// Strategy, obj decoded (under fieldValidation: a body with unknown or
// duplicate fields is not admitted, the typed object would drop them),
// defaulted and converted as the codec does, with the request's namespace;
// for another kind obj as given, with the request's namespace (the API
// server's defaults are not modelled). ok is false when it does not decode:
// the request fails before admission (Serve answers it).
func (k Kinds) Admitted(apiVersion, kind string, obj map[string]interface{}, fieldValidation string) (map[string]interface{}, bool) {
	r := Lookup(k.Release, apiVersion, kind)
	if r == nil || obj == nil {
		return nil, false
	}
	body, err := json.Marshal(obj)
	if err != nil {
		return nil, false
	}
	s := StrategyFor(r)
	if s == nil {
		var m map[string]interface{}
		if err := kjson.UnmarshalCaseSensitivePreserveInts(body, &m); err != nil || m == nil {
			return nil, false
		}
		m, _ = unstructured.ConvertNumbers(m).(map[string]interface{})
		setRequestNamespace(m, r.Namespaced)
		return m, true
	}
	if fieldValidation == "" {
		fieldValidation = Strict
	}
	var strict Outcome
	o, msg := decode(s, r, body, fieldValidation, &strict)
	if msg != "" || len(strict.Warnings) > 0 {
		return nil, false
	}
	ensureNamespace(s, o.Meta())
	m := toUnstructured(o)
	return m, m != nil
}

// Redefault is what the mutating policy dispatcher does to a patched
// object: converted back to the typed object (fields the Go type does not
// have are dropped) and defaulted by the scheme. nil for a kind without a
// Strategy, or an object that does not decode.
func (k Kinds) Redefault(apiVersion, kind string, obj map[string]interface{}) map[string]interface{} {
	r := Lookup(k.Release, apiVersion, kind)
	s := StrategyFor(r)
	if s == nil {
		return nil
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return nil
	}
	var ignored Outcome
	o, msg := decode(s, r, data, Ignore, &ignored)
	if msg != "" {
		return nil
	}
	return toUnstructured(o)
}

// Answer is Serve's answer between mutating and validating admission.
type Answer struct {
	Modelled        bool
	Object          map[string]interface{}
	Message, Reason string
	Code            int
	Warnings        []string
}

// Serve runs the request path on obj after mutating admission (old: the
// stored object of an update): the object validating admission sees, or the
// API server's refusal (its status message, reason and code).
func (k Kinds) Serve(apiVersion, kind string, obj, old map[string]interface{}, fieldValidation string) (Answer, error) {
	req := Request{FieldValidation: fieldValidation, Release: k.Release, APIVersion: apiVersion, Kind: kind}
	var err error
	if req.Body, err = json.Marshal(obj); err != nil {
		return Answer{}, err
	}
	if old != nil {
		if req.Old, err = json.Marshal(old); err != nil {
			return Answer{}, err
		}
	}
	o, err := Serve(req)
	if err != nil {
		return Answer{}, err
	}
	a := Answer{Modelled: o.Modelled, Warnings: o.Warnings}
	switch {
	case !o.Modelled && o.DecodeError == "":
		a.Object = obj
	case o.DecodeError != "":
		a.Message, a.Reason, a.Code = o.DecodeError, "BadRequest", 400
		switch {
		case strings.HasPrefix(o.DecodeError, "Operation cannot be fulfilled"):
			a.Reason, a.Code = "Conflict", 409
		case strings.HasPrefix(o.DecodeError, "Request entity too large"):
			a.Reason, a.Code = "RequestEntityTooLarge", 413
		}
	case len(o.Errors) > 0:
		a.Message = fmt.Sprintf("%s %q is invalid: %v", o.Resource.groupKind(), o.Name, o.Errors.ToAggregate())
		a.Reason, a.Code = "Invalid", 422
	default:
		a.Object = o.Object
	}
	return a, nil
}

// groupKind renders the resource's kind as errors.NewInvalid's qualified
// kind: "ConfigMap", "Deployment.apps".
func (r *Resource) groupKind() string {
	if r.Group == "" {
		return r.Kind
	}
	return r.Kind + "." + r.Group
}

// setRequestNamespace is ensureNamespace on an unstructured object.
func setRequestNamespace(m map[string]interface{}, namespaced bool) {
	md, _ := m["metadata"].(map[string]interface{})
	if md == nil {
		if !namespaced {
			return
		}
		md = map[string]interface{}{}
		m["metadata"] = md
	}
	if !namespaced {
		delete(md, "namespace")
		return
	}
	if ns, _ := md["namespace"].(string); ns == "" {
		md["namespace"] = "default"
	}
}
