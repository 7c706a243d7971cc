// Package conversion checks a conversion webhook's recorded answer offline:
// given a CustomResourceDefinition with conversion strategy Webhook, the
// ConversionReview the API server sent (the request) and the one the
// webhook returned (the response), it returns what kube-apiserver 1.37 does
// with that answer: the converted objects as it goes on to use them, or the
// error it returns to the client.
//
// It mirrors k8s.io/apiextensions-apiserver v0.37.2's
// pkg/apiserver/conversion (webhookConverter.Convert,
// getConvertedObjectsFromResponse, validateConvertedObject,
// restoreObjectMeta) with the webhook client's decoding of the answer
// (webhook.NewClientManager's codec), followed by what the storage codec's
// schemaCoercingConverter does with a converted object (pruning and
// ObjectMeta coercion at the target version). Each converted object is then
// also validated as a create at the target version (engine.Validator): the
// API server does not validate converted objects, but an object a webhook
// returns that its version's schema rejects fails the next update made at
// that version.
package conversion

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/jsonstrict"
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/objectmeta"
	"github.com/crdlab/crdlab/internal/unstructured"
	"github.com/crdlab/crdlab/wire"
	"sigs.k8s.io/yaml"
)

// Options tunes Check.
type Options struct {
	// List says the API server sent the request's objects as one list
	// (webhookConverter.Convert on an UnstructuredList), which changes the
	// wording of its errors and skips the schemaCoercingConverter. A
	// request with more than one object is always a list.
	List bool
	// ListAPIVersion is the list's apiVersion, which list errors quote
	// (the recorded request does not hold it); default: the first
	// object's apiVersion.
	ListAPIVersion string
	// KubeVersion is the Kubernetes release whose API server is reproduced
	// (engine.CompileOptions.KubeVersion); "" is the default. Check
	// reports an unsupported one as a *UsageError; CheckCRD uses the
	// release its CRD was compiled for.
	KubeVersion string
}

// Result is the API server's verdict on a webhook's answer (the report of
// `crdlab conversion-review -o json` and of the wasm module's
// "conversionReview" op; its members are documented in package wire).
type Result = wire.ConversionReport

// finish sets Accepted and Valid.
func finish(r *Result) *Result {
	r.Accepted = r.Error == ""
	r.Valid = r.Accepted
	for _, o := range r.Objects {
		if len(o.Errors) > 0 {
			r.Valid = false
		}
	}
	return r
}

// Object is one converted object of a Result.
type Object = wire.ConvertedObject

// UsageError is a problem with the inputs themselves (not the webhook's
// answer): the CRD is invalid or does not use a conversion webhook, or the
// request is not one the API server sends for it.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

func usagef(format string, a ...interface{}) error {
	return &UsageError{fmt.Sprintf(format, a...)}
}

// Check decodes the CRD (exactly one, YAML or JSON), the request and the
// response (ConversionReviews, JSON or YAML) and returns the API server's
// verdict on the response. The error, a *UsageError, is for inputs that
// cannot be checked.
func Check(crdData, request, response []byte, opts Options) (*Result, error) {
	defs, err := crd.Decode(crdData, "")
	if err != nil {
		return nil, usagef("CRD: %v", err)
	}
	if len(defs) != 1 {
		return nil, usagef("CRD: expected exactly one CustomResourceDefinition, found %d", len(defs))
	}
	compiled, err := engine.CompileCRDWithOptions(defs[0], engine.CompileOptions{KubeVersion: opts.KubeVersion})
	if err != nil {
		return nil, usagef("%v", err)
	}
	return CheckCRD(compiled, request, response, opts)
}

// CheckCRD is Check with a compiled CRD.
func CheckCRD(c *engine.CRD, request, response []byte, opts Options) (*Result, error) {
	if !c.Valid() {
		msg := c.DecodeError()
		if msg == "" {
			msg = c.Errors().ToAggregate().Error()
		}
		return nil, usagef("CRD: the API server rejects it: %s", msg)
	}
	def := c.Definition()
	spec := &def.Spec
	if spec.Conversion == nil || spec.Conversion.Strategy != crd.WebhookConverter || spec.Conversion.Webhook == nil {
		return nil, usagef("CRD %s does not use a conversion webhook (spec.conversion.strategy is not Webhook)", def.Metadata.Name)
	}
	// createConversionReviewObjects: the first version the API server
	// supports among conversionReviewVersions.
	reviewVersion := ""
	for _, v := range spec.Conversion.Webhook.ConversionReviewVersions {
		if v == "v1" || v == "v1beta1" {
			reviewVersion = v
			break
		}
	}
	if reviewVersion == "" {
		return nil, usagef("CRD %s: no supported conversion review versions", def.Metadata.Name)
	}
	req, err := readRequest(request, reviewVersion)
	if err != nil {
		return nil, err
	}
	res := &Result{ReviewVersion: reviewVersion, UID: req.uid, DesiredAPIVersion: req.desired, Objects: []Object{}}
	// crConverter.ConvertToVersion's checks of the versions.
	tg, tv, _ := objectmeta.ParseGroupVersion(req.desired)
	if tg != spec.Group || !hasVersion(spec, tv) {
		return nil, usagef("request: request to convert CR to an invalid group/version: %s", groupVersion(tg, tv))
	}
	for i, o := range req.objects {
		g, v, _ := objectmeta.ParseGroupVersion(stringField(o, "apiVersion"))
		if g != spec.Group || !hasVersion(spec, v) {
			return nil, usagef("request: request.objects[%d]: request to convert CR from an invalid group/version: %s", i, groupVersion(g, v))
		}
		if k := stringField(o, "kind"); k != spec.Names.Kind {
			return nil, usagef("request: request.objects[%d]: kind %q is not the CRD's kind %q", i, k, spec.Names.Kind)
		}
		if groupVersion(g, v) == req.desired {
			return nil, usagef("request: request.objects[%d] is already at %s: the API server does not send it", i, req.desired)
		}
	}
	if len(req.objects) == 0 {
		return nil, usagef("request: request.objects is empty: the API server does not call the webhook")
	}
	res.List = opts.List || len(req.objects) > 1
	if !res.List && len(req.objects[0]) == 2 {
		// isEmptyUnstructuredObject: converted without the webhook.
		return nil, usagef("request: request.objects[0] has only apiVersion and kind: the API server converts it without calling the webhook")
	}
	// in.GetObjectKind().GroupVersionKind() as the errors render it.
	var inGVK string
	if res.List {
		av := opts.ListAPIVersion
		if av == "" {
			av = stringField(req.objects[0], "apiVersion")
		}
		g, v, _ := objectmeta.ParseGroupVersion(av)
		listKind := def.Status.AcceptedNames.ListKind
		if listKind == "" {
			listKind = spec.Names.ListKind
		}
		if listKind == "" {
			listKind = spec.Names.Kind + "List"
		}
		inGVK = gvkString(g, v, listKind)
	} else {
		g, v, _ := objectmeta.ParseGroupVersion(stringField(req.objects[0], "apiVersion"))
		inGVK = gvkString(g, v, stringField(req.objects[0], "kind"))
	}
	rel, _ := kubeversion.Parse(c.KubeVersion()) // c was compiled for a supported release
	converted, err := convert(rel, req, reviewVersion, response, res.List, inGVK)
	if err != nil {
		res.Error = err.Error()
		return finish(res), nil
	}
	for i, obj := range converted {
		out := Object{Index: i, Name: metaString(obj, "name"), Namespace: metaString(obj, "namespace"), Pruned: []string{}, Errors: []string{}, Warnings: []string{}}
		if !res.List {
			// schemaCoercingConverter (single objects only).
			pruned, err := c.CoerceConverted(obj, tv)
			if err != nil {
				res.Error = err.Error()
				res.Objects = []Object{}
				return finish(res), nil
			}
			out.Pruned = pruned
		}
		out.Object = obj
		validate(c, tv, obj, &out)
		res.Objects = append(res.Objects, out)
	}
	return finish(res), nil
}

// validate runs a create of obj (less server-set metadata) at version.
func validate(c *engine.CRD, version string, obj map[string]interface{}, out *Object) {
	v, err := c.Validator(version)
	if err != nil {
		out.Errors = append(out.Errors, err.Error())
		return
	}
	cp := unstructured.DeepCopy(obj).(map[string]interface{})
	if m, ok := cp["metadata"].(map[string]interface{}); ok {
		for _, k := range []string{"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds"} {
			delete(m, k)
		}
	}
	data, err := json.Marshal(cp)
	if err != nil {
		out.Errors = append(out.Errors, err.Error())
		return
	}
	r, err := v.Validate(data, engine.ValidateOptions{})
	if err != nil {
		out.Errors = append(out.Errors, err.Error())
		return
	}
	if r.DecodeError != "" {
		out.Errors = append(out.Errors, r.DecodeError)
		out.Invalid = r.DecodeError
	}
	for _, e := range r.Errors {
		out.Errors = append(out.Errors, e.Error())
	}
	if len(r.Errors) > 0 {
		out.Invalid = engine.InvalidMessage(c.Definition().Spec.Names.Kind, out.Name, r.Errors)
	}
	if r.Warnings != nil {
		out.Warnings = append(out.Warnings, r.Warnings...)
	}
}

type request struct {
	uid, desired string
	objects      []map[string]interface{}
}

// readRequest reads the ConversionReview the API server sent.
func readRequest(data []byte, reviewVersion string) (*request, error) {
	js, err := toJSON(data)
	if err != nil {
		return nil, usagef("request: %v", err)
	}
	val, _, err := jsonstrict.Decode(js, false)
	if err != nil {
		return nil, usagef("request: %v", err)
	}
	review, ok := val.(map[string]interface{})
	if !ok {
		return nil, usagef("request: not a ConversionReview object")
	}
	if k := stringField(review, "kind"); k != "ConversionReview" {
		return nil, usagef("request: kind is %q, not ConversionReview", k)
	}
	av := stringField(review, "apiVersion")
	if av != group+"/v1" && av != group+"/v1beta1" {
		return nil, usagef("request: apiVersion is %q, not %s/v1 or %s/v1beta1", av, group, group)
	}
	if want := group + "/" + reviewVersion; av != want {
		return nil, usagef("request: the API server sends a %s ConversionReview for this CRD (the first supported of spec.conversion.webhook.conversionReviewVersions), not %s", want, av)
	}
	r, ok := review["request"].(map[string]interface{})
	if !ok {
		return nil, usagef("request: the review's request is missing or not an object")
	}
	out := &request{uid: stringField(r, "uid"), desired: stringField(r, "desiredAPIVersion")}
	if out.uid == "" {
		return nil, usagef("request: request.uid is missing")
	}
	if out.desired == "" {
		return nil, usagef("request: request.desiredAPIVersion is missing")
	}
	items, ok := r["objects"].([]interface{})
	if !ok {
		return nil, usagef("request: request.objects is missing or not a list")
	}
	for i, it := range items {
		m, ok := it.(map[string]interface{})
		if !ok {
			return nil, usagef("request: request.objects[%d] is not an object", i)
		}
		out.objects = append(out.objects, m)
	}
	return out, nil
}

// toJSON returns JSON as is and converts YAML.
func toJSON(data []byte) ([]byte, error) {
	t := bytes.TrimSpace(data)
	if len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t) {
		return t, nil
	}
	return yaml.YAMLToJSON(data)
}

// convert is webhookConverter.Convert after the webhook answered: the
// response's decoding and checks, then each converted object's.
func convert(rel kubeversion.Release, req *request, reviewVersion string, response []byte, isList bool, inGVK string) ([]map[string]interface{}, error) {
	if len(response) == 0 {
		// rest.Result.Into, for an answer recorded as 200 OK with
		// Content-Type application/json.
		return nil, fmt.Errorf("conversion webhook for %v failed: 0-length response with status code: 200 and content type: application/json", inGVK)
	}
	body, err := toJSON(response)
	if err != nil {
		// The recorded answer is neither JSON nor YAML: the client's
		// decoder sees it as is.
		body = response
	}
	review, err := decodeReview(body, reviewVersion)
	if err != nil {
		return nil, fmt.Errorf("conversion webhook for %v failed: %v", inGVK, err)
	}
	items, err := responseObjects(review, reviewVersion, req.uid)
	if err != nil {
		return nil, fmt.Errorf("conversion webhook for %v failed: %v", inGVK, err)
	}
	if len(items) != len(req.objects) {
		return nil, fmt.Errorf("conversion webhook for %v returned %d objects, expected %d", inGVK, len(items), len(req.objects))
	}
	tg, tv, _ := objectmeta.ParseGroupVersion(req.desired)
	toGV := groupVersion(tg, tv)
	texts := rawTexts(body, len(items))
	out := make([]map[string]interface{}, len(items))
	for i, raw := range items {
		original := unstructured.DeepCopy(req.objects[i]).(map[string]interface{})
		converted, err := rawObject(raw, texts[i])
		if err != nil {
			if isList {
				return nil, fmt.Errorf("conversion webhook for %v returned invalid converted object at index %v: %v", inGVK, i, err)
			}
			return nil, err
		}
		cg, cv, ck := objectGVK(converted)
		what := "invalid object at index 0"
		if isList {
			what = fmt.Sprintf("invalid converted object at index %v", i)
		}
		if got := groupVersion(cg, cv); got != toGV {
			return nil, fmt.Errorf("conversion webhook for %v returned %s: invalid groupVersion (expected %v, received %v)", inGVK, what, toGV, got)
		}
		if e := stringField(original, "kind"); e != ck {
			return nil, fmt.Errorf("conversion webhook for %v returned %s: invalid kind (expected %v, received %v)", inGVK, what, e, ck)
		}
		if err := validateConvertedObject(original, converted); err != nil {
			if isList {
				return nil, fmt.Errorf("conversion webhook for %v returned invalid converted object at index %v: %v", inGVK, i, err)
			}
			return nil, fmt.Errorf("conversion webhook for %v returned invalid object: %v", inGVK, err)
		}
		if err := restoreObjectMeta(rel, original, converted); err != nil {
			if isList {
				return nil, fmt.Errorf("conversion webhook for %v returned invalid metadata in object at index %v: %v", inGVK, i, err)
			}
			return nil, fmt.Errorf("conversion webhook for %v returned invalid metadata: %v", inGVK, err)
		}
		out[i] = converted
	}
	return out, nil
}

// responseObjects is getConvertedObjectsFromResponse.
func responseObjects(review map[string]interface{}, version, uid string) ([]interface{}, error) {
	if version == "v1" {
		// The typed review's TypeMeta is the body's (case-sensitive).
		g, v, err := objectmeta.ParseGroupVersion(stringField(review, "apiVersion"))
		k := stringField(review, "kind")
		if err != nil {
			g, v = "", ""
		}
		if g != group || v != "v1" || k != "ConversionReview" {
			return nil, fmt.Errorf("expected webhook response of %v, got %v", gvkString(group, "v1", "ConversionReview"), gvkString(g, v, k))
		}
	}
	resp, ok := review["response"].(map[string]interface{})
	if !ok {
		return nil, errors.New("no response provided")
	}
	if version == "v1" {
		if got := stringField(resp, "uid"); got != uid {
			return nil, fmt.Errorf("expected response.uid=%q, got %q", uid, got)
		}
	}
	result, _ := resp["result"].(map[string]interface{})
	if status := stringField(result, "status"); status != "Success" {
		if msg := stringField(result, "message"); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, fmt.Errorf("response.result.status was '%s', not 'Success'", status)
	}
	items, _ := resp["convertedObjects"].([]interface{})
	return items, nil
}

// rawTexts returns the bytes of the n convertedObjects of a decoded
// answer, as runtime.RawExtension keeps them (error messages quote them).
func rawTexts(body []byte, n int) []json.RawMessage {
	out := make([]json.RawMessage, n)
	var review map[string]json.RawMessage
	var resp map[string]json.RawMessage
	var items []json.RawMessage
	if json.Unmarshal(body, &review) != nil || json.Unmarshal(review["response"], &resp) != nil || json.Unmarshal(resp["convertedObjects"], &items) != nil {
		return out
	}
	copy(out, items)
	return out
}

// rawObject is getRawExtensionObject: an Unstructured decoded from the
// RawExtension's bytes (text, when known, for the error message).
func rawObject(raw interface{}, text []byte) (map[string]interface{}, error) {
	if raw == nil {
		// RawExtension keeps no bytes for null.
		return nil, errors.New("unexpected end of JSON input")
	}
	m, ok := raw.(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("json: cannot unmarshal %s into Go value of type map[string]interface {}", jsonKind(raw))
	}
	if _, _, k := objectGVK(m); k == "" {
		if text == nil {
			text, _ = json.Marshal(m)
		}
		return nil, fmt.Errorf("Object 'Kind' is missing in '%s'", text)
	}
	return unstructured.DeepCopy(m).(map[string]interface{}), nil
}

// objectGVK is Unstructured.GroupVersionKind: empty when apiVersion does
// not parse.
func objectGVK(obj map[string]interface{}) (g, v, k string) {
	g, v, err := objectmeta.ParseGroupVersion(stringField(obj, "apiVersion"))
	if err != nil {
		return "", "", ""
	}
	return g, v, stringField(obj, "kind")
}

// validateConvertedObject checks that ObjectMeta fields match, with the
// exception of labels and annotations.
func validateConvertedObject(in, out map[string]interface{}) error {
	if e, a := stringField(in, "kind"), stringField(out, "kind"); e != a {
		return fmt.Errorf("must have the same kind: %v != %v", e, a)
	}
	for _, f := range []struct{ key, name string }{{"name", "name"}, {"namespace", "namespace"}, {"uid", "UID"}} {
		if e, a := metaString(in, f.key), metaString(out, f.key); e != a {
			return fmt.Errorf("must have the same %s: %v != %v", f.name, e, a)
		}
	}
	return nil
}

// restoreObjectMeta puts original's metadata into converted, keeping the
// labels and annotations of converted (validated when they changed).
func restoreObjectMeta(rel kubeversion.Release, original, converted map[string]interface{}) error {
	obj, found := converted["metadata"]
	if !found {
		return errors.New("missing metadata in converted object")
	}
	responseMeta, ok := obj.(map[string]interface{})
	if !ok {
		return fmt.Errorf("invalid metadata of type %s in converted object", goType(obj))
	}
	if m, ok := original["metadata"]; !ok {
		converted["metadata"] = map[string]interface{}{}
	} else {
		converted["metadata"] = unstructured.DeepCopy(m)
	}
	convertedMeta, ok := converted["metadata"].(map[string]interface{})
	if !ok {
		return fmt.Errorf("invalid metadata of type %s in input object", goType(converted["metadata"]))
	}
	for _, fld := range []string{"labels", "annotations"} {
		obj, found := responseMeta[fld]
		if !found || obj == nil {
			delete(convertedMeta, fld)
			continue
		}
		responseField, ok := obj.(map[string]interface{})
		if !ok {
			return fmt.Errorf("invalid metadata.%s of type %s in converted object", fld, goType(obj))
		}
		originalField, ok := convertedMeta[fld].(map[string]interface{})
		if !ok && convertedMeta[fld] != nil {
			return fmt.Errorf("invalid metadata.%s of type %s in original object", fld, goType(convertedMeta[fld]))
		}
		changed := len(originalField) != len(responseField)
		// Upstream ranges over the map: with several non-strings, which
		// one it names is random; this names the first in key order.
		keys := keys.Sorted(responseField)
		for _, k := range keys {
			v := responseField[k]
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("metadata.%s[%s] must be a string, but is %s in converted object", fld, k, goType(v))
			}
			if o, ok := originalField[k].(string); !ok || o != s {
				changed = true
			}
		}
		if changed {
			m := make(map[string]string, len(responseField))
			for k, v := range responseField {
				m[k] = v.(string)
			}
			var errs field.ErrorList
			if fld == "labels" {
				errs = objectmeta.ValidateLabels(rel, m, field.NewPath("metadata", "labels"))
			} else {
				errs = objectmeta.ValidateAnnotations(rel, m, field.NewPath("metadata", "annotation"))
			}
			if len(errs) > 0 {
				return errs.ToAggregate()
			}
		}
		convertedMeta[fld] = responseField
	}
	return nil
}

// goType names a decoded JSON value's Go type as %T renders it.
func goType(v interface{}) string {
	switch v.(type) {
	case nil:
		return "<nil>"
	case string:
		return "string"
	case bool:
		return "bool"
	case int64:
		return "int64"
	case float64:
		return "float64"
	case []interface{}:
		return "[]interface {}"
	case map[string]interface{}:
		return "map[string]interface {}"
	}
	return fmt.Sprintf("%T", v)
}

func stringField(m map[string]interface{}, key string) string {
	s, _ := m[key].(string)
	return s
}

func metaString(obj map[string]interface{}, key string) string {
	m, _ := obj["metadata"].(map[string]interface{})
	return stringField(m, key)
}

func hasVersion(spec *crd.CustomResourceDefinitionSpec, name string) bool {
	for _, v := range spec.Versions {
		if v.Name == name {
			return true
		}
	}
	return false
}
