package defaulting

import "fmt"

// AccessorFunc returns the value a SurroundingObjectFunc placed into a
// surrounding object, after that object was changed (pruned, coerced).
type AccessorFunc func(obj map[string]interface{}) (x interface{}, found bool, err error)

// SurroundingObjectFunc places a value (a default) at its position in an
// object rooted at the resource (or embedded resource) the value belongs to,
// and returns that object with an accessor to get the value back. Defaults
// are pruned and their metadata is validated within that object.
type SurroundingObjectFunc func(focus interface{}) (map[string]interface{}, AccessorFunc, error)

// NewRootObjectFunc returns the identity: the value must be the object itself.
func NewRootObjectFunc() SurroundingObjectFunc {
	return func(x interface{}) (map[string]interface{}, AccessorFunc, error) {
		obj, ok := x.(map[string]interface{})
		if !ok {
			return nil, nil, fmt.Errorf("object root default value must be of object type")
		}
		return obj, func(root map[string]interface{}) (interface{}, bool, error) {
			return root, true, nil
		}, nil
	}
}

// WithTypeMeta sets apiVersion and kind in the surrounding object when they
// are missing.
func (f SurroundingObjectFunc) WithTypeMeta(apiVersion, kind string) SurroundingObjectFunc {
	return func(x interface{}) (map[string]interface{}, AccessorFunc, error) {
		obj, acc, err := f(x)
		if err != nil {
			return nil, nil, err
		}
		if obj == nil {
			obj = map[string]interface{}{}
		}
		if _, found := obj["kind"]; !found {
			obj["kind"] = kind
		}
		if _, found := obj["apiVersion"]; !found {
			obj["apiVersion"] = apiVersion
		}
		return obj, acc, nil
	}
}

// Child places the value under the key k of an object.
func (f SurroundingObjectFunc) Child(k string) SurroundingObjectFunc {
	return func(x interface{}) (map[string]interface{}, AccessorFunc, error) {
		obj, acc, err := f(map[string]interface{}{k: x})
		if err != nil {
			return nil, nil, err
		}
		return obj, func(obj map[string]interface{}) (interface{}, bool, error) {
			x, found, err := acc(obj)
			if err != nil {
				return nil, false, fmt.Errorf(".%s%v", k, err)
			}
			if !found {
				return nil, false, nil
			}
			m, ok := x.(map[string]interface{})
			if !ok {
				return nil, false, fmt.Errorf(".%s must be of object type", k)
			}
			v, found := m[k]
			if !found {
				return nil, false, nil
			}
			return v, true, nil
		}, nil
	}
}

// Index places the value as the only item of a list.
func (f SurroundingObjectFunc) Index() SurroundingObjectFunc {
	return func(focus interface{}) (map[string]interface{}, AccessorFunc, error) {
		obj, acc, err := f([]interface{}{focus})
		if err != nil {
			return nil, nil, err
		}
		return obj, func(obj map[string]interface{}) (interface{}, bool, error) {
			x, found, err := acc(obj)
			if err != nil {
				return nil, false, fmt.Errorf("[]%v", err)
			}
			if !found {
				return nil, false, nil
			}
			l, ok := x.([]interface{})
			if !ok {
				return nil, false, fmt.Errorf("[] must be of array type")
			}
			if len(l) == 0 {
				return nil, false, nil
			}
			return l[0], true, nil
		}, nil
	}
}
