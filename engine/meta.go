package engine

import (
	"fmt"
	"strings"
)

// The helpers below mirror k8s.io/apimachinery's unstructured Nested*
// accessors, including their error messages.

func jsonPath(fields []string) string { return "." + strings.Join(fields, ".") }

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

// duplicateOwnerReferencesWarningFormat mirrors the handlers'
// DuplicateOwnerReferencesWarningFormat.
const duplicateOwnerReferencesWarningFormat = ".metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: %v"

// ownerRefKey is what apiequality.Semantic compares in a metav1.OwnerReference.
func ownerRefKey(m map[string]interface{}) string {
	ptr := func(k string) string {
		switch b := m[k].(type) {
		case bool:
			return fmt.Sprint(b)
		default:
			return "nil"
		}
	}
	str := func(k string) string { s, _ := m[k].(string); return s }
	return fmt.Sprintf("%q %q %q %q %s %s", str("apiVersion"), str("kind"), str("name"), str("uid"), ptr("controller"), ptr("blockOwnerDeletion"))
}

// dedupOwnerReferences mirrors the create/update handlers'
// dedupOwnerReferencesAndAddWarning: identical owner references are removed
// (the first is kept) and a warning names the duplicate UIDs.
func dedupOwnerReferences(obj map[string]interface{}) []string {
	v, ok := nestedField(obj, "metadata", "ownerReferences")
	if !ok {
		return nil
	}
	refs, ok := v.([]interface{})
	if !ok {
		return nil
	}
	var kept []interface{}
	var duplicates []string
	seen := map[string]bool{}
	for _, r := range refs {
		m, ok := r.(map[string]interface{})
		if !ok {
			return nil // GetOwnerReferences gives up on malformed lists
		}
		key := ownerRefKey(m)
		if seen[key] {
			uid, _ := m["uid"].(string)
			duplicates = append(duplicates, uid)
			continue
		}
		seen[key] = true
		kept = append(kept, m)
	}
	if len(duplicates) == 0 {
		return nil
	}
	setNested(obj, kept, "metadata", "ownerReferences")
	return []string{fmt.Sprintf(duplicateOwnerReferencesWarningFormat, strings.Join(duplicates, ", "))}
}
