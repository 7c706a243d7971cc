package objectmeta

import "unicode/utf8"

// fastObjectMeta builds the ObjectMeta that encoding/json would decode from
// m's encoding (m holds exact field names only, see caseSensitive) without
// the round trip, for the common shapes: strings, an integral generation,
// string maps and lists, and null timestamps. Anything else (timestamps,
// owner references, managed fields, a value of another type, invalid
// UTF-8) returns ok false and the caller takes the JSON round trip, whose
// errors are the ones upstream reports.
func fastObjectMeta(m map[string]interface{}) (meta *ObjectMeta, ok bool) {
	meta = &ObjectMeta{}
	for k, v := range m {
		if v == nil {
			switch k {
			case "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations",
				"ownerReferences", "finalizers", "managedFields",
				"name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation":
				continue // null leaves the zero value
			}
			return nil, false
		}
		switch k {
		case "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion":
			s, ok := v.(string)
			if !ok || !utf8.ValidString(s) {
				return nil, false
			}
			switch k {
			case "name":
				meta.Name = s
			case "generateName":
				meta.GenerateName = s
			case "namespace":
				meta.Namespace = s
			case "selfLink":
				meta.SelfLink = s
			case "uid":
				meta.UID = UID(s)
			case "resourceVersion":
				meta.ResourceVersion = s
			}
		case "generation", "deletionGracePeriodSeconds":
			i, ok := v.(int64)
			if !ok {
				return nil, false
			}
			if k == "generation" {
				meta.Generation = i
			} else {
				meta.DeletionGracePeriodSeconds = &i
			}
		case "labels", "annotations":
			src, ok := v.(map[string]interface{})
			if !ok {
				return nil, false
			}
			dst := make(map[string]string, len(src))
			for mk, mv := range src {
				s, ok := mv.(string)
				if !ok || !utf8.ValidString(s) || !utf8.ValidString(mk) {
					return nil, false
				}
				dst[mk] = s
			}
			if k == "labels" {
				meta.Labels = dst
			} else {
				meta.Annotations = dst
			}
		case "finalizers":
			src, ok := v.([]interface{})
			if !ok {
				return nil, false
			}
			dst := make([]string, len(src))
			for i, e := range src {
				s, ok := e.(string)
				if !ok || !utf8.ValidString(s) {
					return nil, false
				}
				dst[i] = s
			}
			meta.Finalizers = dst
		default:
			return nil, false
		}
	}
	return meta, true
}
