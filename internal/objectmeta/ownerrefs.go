package objectmeta

import (
	"fmt"
	"strings"
)

// DuplicateOwnerReferencesWarningFormat mirrors the request handlers'
// warning of the same name (k8s.io/apiserver/pkg/endpoints/handlers).
const DuplicateOwnerReferencesWarningFormat = ".metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: %v"

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

// DedupOwnerReferences mirrors the create and update handlers'
// dedupOwnerReferencesAndAddWarning on an unstructured object: identical
// owner references in metadata.ownerReferences are removed (the first is
// kept) and the returned warning names the duplicate UIDs.
func DedupOwnerReferences(obj map[string]interface{}) []string {
	metadata, ok := obj["metadata"].(map[string]interface{})
	if !ok {
		return nil
	}
	refs, ok := metadata["ownerReferences"].([]interface{})
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
	metadata["ownerReferences"] = kept
	return []string{fmt.Sprintf(DuplicateOwnerReferencesWarningFormat, strings.Join(duplicates, ", "))}
}
