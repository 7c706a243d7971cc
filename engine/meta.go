package engine

import (
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/engine/validation/names"
)

// The helpers below mirror k8s.io/apimachinery's unstructured Nested*
// accessors, including their error messages.

func jsonPath(fields []string) string { return "." + strings.Join(fields, ".") }

func typeName(v interface{}) string { return fmt.Sprintf("%T", v) }

// nestedFieldNoCopy mirrors unstructured.NestedFieldNoCopy.
func nestedFieldNoCopy(obj map[string]interface{}, fields ...string) (interface{}, bool, error) {
	var val interface{} = obj
	for i, f := range fields {
		if val == nil {
			return nil, false, nil
		}
		m, ok := val.(map[string]interface{})
		if !ok {
			return nil, false, fmt.Errorf("%v accessor error: %v is of the type %T, expected map[string]interface{}", jsonPath(fields[:i+1]), val, val)
		}
		if val, ok = m[f]; !ok {
			return nil, false, nil
		}
	}
	return val, true, nil
}

func nestedField(obj map[string]interface{}, fields ...string) (interface{}, bool) {
	v, ok, err := nestedFieldNoCopy(obj, fields...)
	return v, ok && err == nil
}

// nestedString mirrors unstructured.NestedString.
func nestedString(obj map[string]interface{}, fields ...string) (string, bool, error) {
	val, found, err := nestedFieldNoCopy(obj, fields...)
	if !found || err != nil {
		return "", found, err
	}
	s, ok := val.(string)
	if !ok {
		return "", false, fmt.Errorf("%v accessor error: %v is of the type %T, expected string", jsonPath(fields), val, val)
	}
	return s, true, nil
}

func nestedStringNoErr(obj map[string]interface{}, fields ...string) (string, bool) {
	s, ok, err := nestedString(obj, fields...)
	return s, ok && err == nil
}

// nestedInt64 mirrors unstructured.NestedInt64 (the found result is folded
// into the error: callers only need the value and the error).
func nestedInt64(obj map[string]interface{}, fields ...string) (int64, bool, error) {
	val, found, err := nestedFieldNoCopy(obj, fields...)
	if !found || err != nil {
		return 0, found, err
	}
	i, ok := val.(int64)
	if !ok {
		return 0, false, fmt.Errorf("%v accessor error: %v is of the type %T, expected int64", jsonPath(fields), val, val)
	}
	return i, true, nil
}

// setNested mirrors unstructured.SetNestedField: intermediate maps are
// created (and non-map values replaced).
func setNested(obj map[string]interface{}, value interface{}, fields ...string) {
	m := obj
	for _, f := range fields[:len(fields)-1] {
		if next, ok := m[f].(map[string]interface{}); ok {
			m = next
			continue
		}
		next := map[string]interface{}{}
		m[f] = next
		m = next
	}
	m[fields[len(fields)-1]] = value
}

// removeNested mirrors unstructured.RemoveNestedField.
func removeNested(obj map[string]interface{}, fields ...string) {
	m := obj
	for _, f := range fields[:len(fields)-1] {
		next, ok := m[f].(map[string]interface{})
		if !ok {
			return
		}
		m = next
	}
	delete(m, fields[len(fields)-1])
}

// stringSlice returns the strings of a string list field (metav1 accessors
// ignore non-string items after coercion, which has already typed them).
func stringSlice(obj map[string]interface{}, fields ...string) []string {
	v, ok := nestedField(obj, fields...)
	if !ok {
		return nil
	}
	l, _ := v.([]interface{})
	out := make([]string, 0, len(l))
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// standardFinalizers mirrors the CR validator's set.
var standardFinalizers = map[string]bool{
	"orphan":             true, // metav1.FinalizerOrphanDependents
	"foregroundDeletion": true, // metav1.FinalizerDeleteDependents
	"kubernetes":         true, // corev1.FinalizerKubernetes
}

// validateKubeFinalizerName mirrors the CR validator's function of the same name.
func validateKubeFinalizerName(value, fldPath string) []string {
	var out []string
	for _, msg := range names.IsQualifiedName(value) {
		out = append(out, fmt.Sprintf("%s: %q: %s", fldPath, value, msg))
	}
	if len(strings.Split(value, "/")) == 1 && !standardFinalizers[value] {
		if strings.Contains(value, ".") {
			out = append(out, fmt.Sprintf("%s: %q: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers", fldPath, value))
		} else {
			out = append(out, fmt.Sprintf("%s: %q: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers", fldPath, value))
		}
	}
	return out
}
