package unstructured

import "reflect"

// DeepCopy copies a decoded JSON value (map[string]interface{},
// []interface{} and scalars: string, bool, int64, float64, json.Number,
// nil). Every map and list of the copy is new, so the copy shares nothing
// with v; a nil map or list copies to an empty one. Scalars and values of
// other types are returned as they are.
func DeepCopy(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		out := make(map[string]interface{}, len(t))
		for k, x := range t {
			out[k] = DeepCopy(x)
		}
		return out
	case []interface{}:
		out := make([]interface{}, len(t))
		for i, x := range t {
			out[i] = DeepCopy(x)
		}
		return out
	}
	return v
}

// DeepCopyObject is DeepCopy of an object, except that a nil object copies
// to nil (as Unstructured.DeepCopy of an empty object does).
func DeepCopyObject(m map[string]interface{}) map[string]interface{} {
	if m == nil {
		return nil
	}
	return DeepCopy(m).(map[string]interface{})
}

// Equal is reflect.DeepEqual, fast for decoded JSON values: a nil and an
// empty map (or list) differ, and numbers are equal only with the same Go
// type (int64 1 is not float64 1).
func Equal(a, b interface{}) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case int64:
		y, ok := b.(int64)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case map[string]interface{}:
		y, ok := b.(map[string]interface{})
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !Equal(xv, yv) {
				return false
			}
		}
		return true
	case []interface{}:
		y, ok := b.([]interface{})
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// SemanticEqual is apimachinery's equality.Semantic.DeepEqual on decoded
// JSON values: Equal, except that a nil and an empty map (or list) are
// equal.
func SemanticEqual(a, b interface{}) bool {
	switch x := a.(type) {
	case map[string]interface{}:
		y, ok := b.(map[string]interface{})
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !SemanticEqual(v, w) {
				return false
			}
		}
		return true
	case []interface{}:
		y, ok := b.([]interface{})
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !SemanticEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}
