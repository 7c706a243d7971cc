package engine

// The request handler: what the create and update handlers
// (k8s.io/apiserver/pkg/endpoints/handlers) do with a custom resource
// before the store, with the CRD's codecs from customresource_handler.go —
// decoding through the schemaCoercingDecoder (ObjectMeta coercion, pruning,
// dropping non-nullable nulls, defaulting), the group/version check, the
// request namespace and the owner-reference deduplication — and the storage
// codec reading the stored object of an update.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/defaulting"
	"github.com/crdlab/crdlab/internal/jsonstrict"
	"github.com/crdlab/crdlab/internal/objectmeta"
	"github.com/crdlab/crdlab/internal/pruning"
	"github.com/crdlab/crdlab/internal/schema"
	"github.com/crdlab/crdlab/internal/unstructured"
)

// serve handles one create (oldData == nil), update or status update: body
// is the request body, or nil to read it from object.
func (v *Validator) serve(ctx context.Context, object []byte, body *jsonBody, oldData []byte, status bool, fv FieldValidation, applied bool) (res *Result, err error) {
	var old map[string]interface{}
	if oldData != nil {
		if old, err = v.decodeStored(oldData); err != nil {
			return nil, fmt.Errorf("old object: %v", err)
		}
	}

	res = &Result{Pruned: []string{}, Warnings: []string{}, ctx: ctx}
	if old != nil {
		res.OldObject = schema.DeepCopyJSONValue(old)
	}
	defer func() {
		res.Warnings = recordWarnings(res.Warnings)
	}()
	res.Warnings = append(res.Warnings, v.warnings...)
	if body == nil {
		body = toJSONBody(object)
	}
	obj, ok := v.decodeRequest(body, fv, res, applied)
	if !ok {
		return res, nil
	}
	if err := ctxErr(ctx, "validating the object"); err != nil {
		return res, err // ended while decoding (ValidateContext drops res)
	}
	v.ensureNamespace(obj)
	res.Warnings = append(res.Warnings, objectmeta.DedupOwnerReferences(obj)...)
	if old == nil {
		v.create(obj, res)
	} else if msg := v.conflict(obj, old); msg != "" {
		res.DecodeError = msg
		return res, nil
	} else {
		if status {
			obj = v.statusUpdate(obj, old, res)
		} else {
			v.update(obj, old, res)
		}
	}
	res.Object = obj
	if res.Errors == nil {
		res.Errors = field.ErrorList{}
	}
	res.Errors = errorsAt(v.crd.release, res.Errors)
	return res, nil
}

// decodeRequest mirrors the create/update handlers' decoding through the
// CRD's unstructuredNegotiatedSerializer: strict or non-strict JSON decoding,
// the schemaCoercingDecoder, defaulting, and the group/version check. An
// applied object (ValidateOptions.Applied) skips the schemaCoercingDecoder:
// the field manager's result reaches the store unpruned, only defaulted.
func (v *Validator) decodeRequest(in *jsonBody, fv FieldValidation, res *Result, applied bool) (map[string]interface{}, bool) {
	fail := func(msg string) (map[string]interface{}, bool) {
		res.DecodeError = msg
		res.Errors = field.ErrorList{}
		return nil, false
	}
	if in.err != nil {
		return fail(fmt.Sprintf("error converting YAML to JSON: %v", in.err))
	}
	strict := fv != Ignore
	scope := gvk{Group: v.shared.group, Version: v.version, Kind: v.shared.kind}
	actual, err := in.interpret()
	if err != nil {
		return fail(v.decodeError(nil, err, in))
	}
	*actual = gvkWithDefaults(*actual, scope)
	val, strictErrs, err := in.decode(strict)
	if err != nil {
		return fail(v.decodeError(actual, err, in))
	}
	obj, _ := val.(map[string]interface{})
	content := contentGVK(obj)
	if content.Kind == "" {
		// Strict decoding reports the content's (empty) kind; the non-strict
		// path fails inside Unstructured.UnmarshalJSON and reports the
		// kind interpreted with the endpoint's defaults.
		g := &content
		if !strict {
			g = actual
		}
		return fail(v.decodeError(g, fmt.Errorf("Object 'Kind' is missing in '%s'", in.text()), in))
	}
	var unknown []string
	if !applied {
		if unknown, err = v.coerce(obj, false); err != nil {
			return fail(v.decodeError(&content, err, in))
		}
	}
	res.Pruned = append(res.Pruned, unknown...)
	if strict && (len(strictErrs) > 0 || len(unknown) > 0) {
		for _, u := range unknown {
			strictErrs = append(strictErrs, jsonstrict.FieldError{Kind: jsonstrict.UnknownField, Path: u})
		}
		if fv == Strict {
			msgs := make([]string, len(strictErrs))
			for i, e := range strictErrs {
				msgs[i] = e.Error()
			}
			return fail(v.decodeError(&content, fmt.Errorf("strict decoding error: %s", strings.Join(msgs, ", ")), in))
		}
		for _, e := range strictErrs {
			res.Warnings = append(res.Warnings, e.Error())
		}
	}
	if content.Group == v.shared.group && content.Kind == v.shared.kind {
		defaulting.Default(obj, v.shared.structural[content.Version])
	}
	if content.groupVersion() != scope.groupVersion() || content.Group != scope.Group {
		return fail(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%s)", content.groupVersion(), scope.groupVersion()))
	}
	return obj, true
}

// decodeError renders a decoding failure as the handlers' transformDecodeError.
func (v *Validator) decodeError(g *gvk, err error, body *jsonBody) string {
	if g != nil && len(g.Kind) > 0 {
		return fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", g.Kind, g.Version, v.shared.kind, err)
	}
	return fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v (%s)", v.shared.kind, err, summarizeData(body.text(), 30))
}

// summarizeData mirrors the handlers' summarizeData used in decode errors.
func summarizeData(data []byte, maxLength int) string {
	switch {
	case len(data) == 0:
		return "<empty>"
	case data[0] == '{':
		if len(data) > maxLength {
			return string(data[:maxLength]) + " ..."
		}
		return string(data)
	default:
		const hextable = "0123456789abcdef"
		enc := func(b []byte) string {
			out := make([]byte, 0, 2*len(b))
			for _, c := range b {
				out = append(out, hextable[c>>4], hextable[c&0x0f])
			}
			return string(out)
		}
		if len(data) > maxLength {
			return enc(data[:maxLength]) + " ..."
		}
		return enc(data)
	}
}

// contentGVK mirrors Unstructured.GroupVersionKind.
func contentGVK(obj map[string]interface{}) gvk {
	if obj == nil {
		return gvk{}
	}
	kind, _ := obj["kind"].(string)
	apiVersion, _ := obj["apiVersion"].(string)
	g, ver, err := objectmeta.ParseGroupVersion(apiVersion)
	if err != nil {
		return gvk{}
	}
	return gvk{Group: g, Version: ver, Kind: kind}
}

// coerce mirrors unstructuredSchemaCoercer.apply, for a request body or,
// when stored, for the storage codec (dropping invalid metadata, repairing
// the generation). The unknown field paths of a request are always tracked
// (they are reported in Result.Pruned even with Ignore).
func (v *Validator) coerce(obj map[string]interface{}, stored bool) ([]string, error) {
	kind, foundKind, err := unstructured.NestedString(obj, "kind")
	if err != nil {
		return nil, err
	}
	apiVersion, foundAPIVersion, err := unstructured.NestedString(obj, "apiVersion")
	if err != nil {
		return nil, err
	}
	meta, foundMeta, unknown, err := objectmeta.GetObjectMetaWithOptions(obj, objectmeta.ObjectMetaOptions{
		DropMalformedFields:     stored,
		ReturnUnknownFieldPaths: !stored,
	})
	if err != nil {
		return nil, err
	}
	group, version, err := objectmeta.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	repairGeneration := false
	if group == v.shared.group && kind == v.shared.kind {
		s := v.shared.structural[version]
		if !v.shared.preserveUnknownFields {
			paths := pruning.Prune(obj, s, true)
			if !stored {
				unknown = append(unknown, paths...)
			}
			if s != nil {
				defaulting.PruneNonNullableNullsWithoutDefaults(obj, s)
			}
		}
		ferr, paths := objectmeta.CoerceWithOptions(nil, obj, s, false, objectmeta.CoerceOptions{
			DropInvalidFields:       stored,
			ReturnUnknownFieldPaths: !stored,
		})
		if ferr != nil {
			return nil, ferr
		}
		unknown = append(unknown, paths...)
		repairGeneration = stored
	}
	if foundKind {
		obj["kind"] = kind
	}
	if foundAPIVersion {
		obj["apiVersion"] = apiVersion
	}
	if foundMeta {
		objectmeta.SetObjectMetaAt(obj, meta, v.crd.release)
		if repairGeneration {
			if g, _, _ := unstructured.NestedInt64(obj, "metadata", "generation"); g == 0 {
				unstructured.SetNestedField(obj, int64(1), "metadata", "generation")
			}
		}
	}
	return unknown, nil
}

// decodeStored decodes the old object as the storage codec of this
// version's endpoint reads it (readStored): non-strict, dropping invalid
// metadata, repairing the generation, defaulting at the stored version
// and, for an object stored at another version of the CRD, converting it
// (strategy None) and pruning it with this version's schema.
func (v *Validator) decodeStored(data []byte) (map[string]interface{}, error) {
	read := v.crd.readStored(data, v, false)
	if read.Error != "" {
		return nil, errors.New(read.Error)
	}
	obj := read.Object
	content := contentGVK(obj)
	if content.Group != v.shared.group || content.Version != v.version || content.Kind != v.shared.kind {
		return nil, fmt.Errorf("apiVersion/kind %s, %s does not match %s/%s, %s", content.groupVersion(), content.Kind, v.shared.group, v.version, v.shared.kind)
	}
	// A stored object lives in the request's namespace and always has a
	// resourceVersion.
	v.ensureNamespace(obj)
	if rv, _, _ := unstructured.NestedString(obj, "metadata", "resourceVersion"); rv == "" {
		unstructured.SetNestedField(obj, StoredResourceVersion, "metadata", "resourceVersion")
	}
	return obj, nil
}

// ensureNamespace mirrors rest.EnsureObjectNamespaceMatchesRequestNamespace
// for the request kubectl sends: to the object's namespace (or "default")
// for namespaced resources, to no namespace for cluster-scoped ones.
func (v *Validator) ensureNamespace(obj map[string]interface{}) {
	ns, _, _ := unstructured.NestedString(obj, "metadata", "namespace")
	if v.shared.namespaced {
		if ns == "" {
			unstructured.SetNestedField(obj, "default", "metadata", "namespace")
		}
		return
	}
	if ns != "" {
		unstructured.RemoveNestedField(obj, "metadata", "namespace")
	}
}
