package admission

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"google.golang.org/protobuf/types/known/structpb"
	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// The patchers of mutating/patch: smd.go (ApplyConfiguration merged with
// server-side apply's structured merge) and json_patch.go (RFC 6902 with
// gopkg.in/evanphx/json-patch.v4, the library the API server uses).

// patch evaluates one mutation on the versioned object and returns the
// patched object (dispatcher.go dispatchOne).
func (m *Mutator) patch(pt patcher, req *Request, v *versioned, inv invocation, ns map[string]interface{}, target MutationTarget, notes *[]string) (map[string]interface{}, error) {
	if target.TypeConverter == nil {
		return nil, &statusError{code: 503, reason: "ServiceUnavailable",
			message: fmt.Sprintf("Resource kind %s not found. There can be a delay between when CustomResourceDefinitions are created and when they are available.", gvkString(v.kind))}
	}
	if pt.c.err != nil {
		return nil, pt.c.err
	}
	in := evalInput{va: versionedAttributes{v.object, v.oldObject}, request: requestValue(req, inv.resource, v.kind),
		params: inv.param, namespace: namespaceValue(ns, false), notes: notes, authz: m.a.rbac.authzFor(req)}
	cond := []condition{{compiled: pt.c, present: true}}
	results, _, err := inv.h.v.forInput(in, cond, runtimeCELCostBudget)
	if err != nil {
		return nil, err
	}
	if results[0].err != nil {
		return nil, results[0].err
	}
	if pt.patchType == PatchTypeJSONPatch {
		return applyJSONPatch(results[0].value, v.object)
	}
	return applyConfiguration(results[0].value, v.object, target.TypeConverter)
}

// gvkString is schema.GroupVersionKind.String.
func gvkString(k GVK) string {
	return k.Group + "/" + k.Version + ", Kind=" + k.Kind
}

type typeConverter interface {
	ObjectToTyped(obj map[string]interface{}, opts ...typed.ValidationOptions) (*typed.TypedValue, error)
}

// applyConfiguration is applyConfigPatcher.Patch after the evaluation.
func applyConfiguration(val ref.Val, obj map[string]interface{}, tc typeConverter) (map[string]interface{}, error) {
	ov, ok := val.(*objectVal)
	if !ok {
		return nil, fmt.Errorf("unsupported return type from ApplyConfiguration expression: %v", val.Type())
	}
	if err := ov.checkTypeNames(); err != nil {
		return nil, fmt.Errorf("type mismatch: %w", err)
	}
	patchObj, ok := ov.Value().(map[string]any)
	if !ok {
		return nil, fmt.Errorf("invalid return type: *dynamic.ObjectVal")
	}
	patchObj["apiVersion"] = obj["apiVersion"]
	patchObj["kind"] = obj["kind"]
	out, err := mergeApplyConfiguration(tc, obj, patchObj)
	if err != nil {
		return nil, fmt.Errorf("error applying patch: %w", err)
	}
	return out, nil
}

// mergeApplyConfiguration is ApplyStructuredMergeDiff.
func mergeApplyConfiguration(tc typeConverter, live, patch map[string]interface{}) (map[string]interface{}, error) {
	pt, err := tc.ObjectToTyped(patch)
	if err != nil {
		return nil, fmt.Errorf("failed to convert patch object to typed object: %w", err)
	}
	if atomics := findAtomics(nil, pt.Schema(), pt.TypeRef(), pt.AsValue()); len(atomics) > 0 {
		return nil, fmt.Errorf("invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: %v", strings.Join(atomics, ", "))
	}
	lt, err := tc.ObjectToTyped(live, typed.AllowDuplicates)
	if err != nil {
		return nil, fmt.Errorf("failed to convert original object to typed object: %w", err)
	}
	merged, err := lt.Merge(pt)
	if err != nil {
		return nil, fmt.Errorf("failed to merge patch: %w", err)
	}
	u, ok := merged.AsValue().Unstructured().(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("failed to convert typed object to object: not an object")
	}
	return normalizeNumbers(u).(map[string]interface{}), nil
}

// normalizeNumbers turns the numbers SMD hands back into int64 and
// float64, as unstructured objects hold them.
func normalizeNumbers(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		for k, e := range t {
			t[k] = normalizeNumbers(e)
		}
		return t
	case []interface{}:
		for i, e := range t {
			t[i] = normalizeNumbers(e)
		}
		return t
	case int:
		return int64(t)
	case int32:
		return int64(t)
	case float32:
		return float64(t)
	}
	return v
}

// findAtomics lists the paths of the atomic lists, maps and structs the
// patch sets (validatePatch), in field-name order.
func findAtomics(path []fieldpath.PathElement, s *schema.Schema, tr schema.TypeRef, v value.Value) []string {
	a, ok := s.Resolve(tr)
	if !ok {
		return nil
	}
	var atomics []string
	if v.IsMap() && a.Map != nil {
		if a.Map.ElementRelationship == schema.Atomic {
			atomics = append(atomics, pathString(path))
		}
		m := v.AsMap()
		var keys []string
		m.Iterate(func(k string, _ value.Value) bool { keys = append(keys, k); return true })
		sort.Strings(keys)
		for _, k := range keys {
			if sf, ok := a.Map.FindField(k); ok {
				e, _ := m.Get(k)
				key := k
				atomics = append(atomics, findAtomics(append(path, fieldpath.PathElement{FieldName: &key}), s, sf.Type, e)...)
			}
		}
	}
	if v.IsList() && a.List != nil {
		if a.List.ElementRelationship == schema.Atomic {
			atomics = append(atomics, pathString(path))
		}
		l := v.AsList()
		for i := 0; i < l.Length(); i++ {
			idx := i
			atomics = append(atomics, findAtomics(append(path, fieldpath.PathElement{Index: &idx}), s, a.List.ElementType, l.At(i))...)
		}
	}
	return atomics
}

func pathString(path []fieldpath.PathElement) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteString(p.String())
	}
	return b.String()
}

// applyJSONPatch is jsonPatcher.Patch after the evaluation.
func applyJSONPatch(val ref.Val, obj map[string]interface{}) (map[string]interface{}, error) {
	list, ok := val.(traits.Lister)
	if !ok {
		return nil, fmt.Errorf("type mismatch: JSONPatchType.expression should evaluate to array")
	}
	p := jsonpatch.Patch{}
	quote := func(s string) *json.RawMessage { r := json.RawMessage(strconv.Quote(s)); return &r }
	for it := list.Iterator(); it.HasNext() == types.True; {
		e := it.Next()
		n, err := e.ConvertToNative(reflect.TypeFor[*jsonPatchVal]())
		if err != nil {
			return nil, fmt.Errorf("type mismatch: JSONPatchType.expression should evaluate to array of JSONPatch: %w", err)
		}
		op := n.(*jsonPatchVal)
		o := jsonpatch.Operation{"op": quote(op.op), "path": quote(op.path)}
		if len(op.from) > 0 {
			o["from"] = quote(op.from)
		}
		if op.val != nil {
			if ov, ok := op.val.(*objectVal); ok {
				if err := ov.checkTypeNames(); err != nil {
					return nil, fmt.Errorf("type mismatch: %w", err)
				}
			}
			nv, err := op.val.ConvertToNative(reflect.TypeFor[*structpb.Value]())
			if err != nil {
				return nil, fmt.Errorf("JSONPath valueExpression evaluated to a type that could not marshal to JSON: %w", err)
			}
			b, err := json.Marshal(nv)
			if err != nil {
				return nil, fmt.Errorf("JSONPath valueExpression evaluated to a type that could not marshal to JSON: %w", err)
			}
			r := json.RawMessage(b)
			o["value"] = &r
		}
		p = append(p, o)
	}
	doc, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("failed to create JSON patch: %w", err)
	}
	patched, err := p.Apply(doc)
	if err != nil {
		if errors.Is(err, jsonpatch.ErrTestFailed) {
			return obj, nil
		}
		return nil, fmt.Errorf("JSON Patch: %w", err)
	}
	return decodePatched(patched)
}

// decodePatched decodes the patched document as the strict JSON serializer
// decodes into an unstructured object; its errors are internal errors the
// API server returns as they are.
func decodePatched(data []byte) (map[string]interface{}, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		return nil, internalStatus(err.Error())
	}
	m, ok := v.(map[string]interface{})
	if !ok {
		return nil, internalStatus("Object 'Kind' is missing in '" + string(data) + "'")
	}
	if k, ok := m["kind"].(string); !ok || k == "" {
		return nil, internalStatus("Object 'Kind' is missing in '" + string(data) + "'")
	}
	obj, err := DecodeObject(data)
	if err != nil {
		return nil, internalStatus(err.Error())
	}
	return obj, nil
}

// internalStatus is apierrors.NewInternalError.
func internalStatus(msg string) *statusError {
	return &statusError{code: 500, reason: "InternalError", message: "Internal error occurred: " + msg, cause: msg}
}
