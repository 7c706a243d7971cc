package crdtest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/crdlab/crdlab/internal/unstructured"
)

// applyPatch applies RFC 6902 operations (add, remove, replace, move, copy,
// test) to a JSON document (map/slice/scalar values) and returns the new
// document; doc is modified. A small applier instead of a library: the
// patches here are a handful of operations on a CRD document, and the main
// module keeps its dependencies to the engine's own.
func applyPatch(doc interface{}, patches []Patch) (interface{}, error) {
	for i, p := range patches {
		var err error
		value := normalizeJSON(p.Value)
		switch p.Op {
		case "add":
			doc, err = pointerSet(doc, p.Path, value, true)
		case "remove":
			doc, _, err = pointerRemove(doc, p.Path)
		case "replace":
			if _, err = pointerGet(doc, p.Path); err == nil {
				doc, err = pointerSet(doc, p.Path, value, false)
			}
		case "move", "copy":
			var v interface{}
			if p.Op == "move" {
				if strings.HasPrefix(p.Path+"/", p.From+"/") && p.Path != p.From {
					err = fmt.Errorf("cannot move %q into itself", p.From)
					break
				}
				doc, v, err = pointerRemove(doc, p.From)
			} else {
				v, err = pointerGet(doc, p.From)
				v = unstructured.DeepCopy(v)
			}
			if err == nil {
				doc, err = pointerSet(doc, p.Path, v, true)
			}
		case "test":
			var v interface{}
			if v, err = pointerGet(doc, p.Path); err == nil && !reflect.DeepEqual(v, value) {
				err = fmt.Errorf("test failed: the value at %q differs", p.Path)
			}
		default:
			err = fmt.Errorf("unknown op %q (want add, remove, replace, move, copy or test)", p.Op)
		}
		if err != nil {
			return nil, fmt.Errorf("patch %d (%s %s): %v", i, p.Op, p.Path, err)
		}
	}
	return doc, nil
}

// normalizeJSON turns a value decoded from YAML into JSON values.
func normalizeJSON(v interface{}) interface{} {
	data, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out interface{}
	_ = json.Unmarshal(data, &out)
	return out
}

func splitPointer(ptr string) ([]string, error) {
	if ptr == "" {
		return nil, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("invalid JSON pointer %q (must start with /)", ptr)
	}
	parts := strings.Split(ptr[1:], "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
	}
	return parts, nil
}

func pointerGet(doc interface{}, ptr string) (interface{}, error) {
	parts, err := splitPointer(ptr)
	if err != nil {
		return nil, err
	}
	cur := doc
	for _, p := range parts {
		switch c := cur.(type) {
		case map[string]interface{}:
			v, ok := c[p]
			if !ok {
				return nil, fmt.Errorf("%q: no member %q", ptr, p)
			}
			cur = v
		case []interface{}:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("%q: no index %q", ptr, p)
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("%q: %q is inside a scalar", ptr, p)
		}
	}
	return cur, nil
}

// pointerSet sets (insert=false: replaces) the value at ptr; for arrays,
// add inserts before the index and "-" appends.
func pointerSet(doc interface{}, ptr string, value interface{}, insert bool) (interface{}, error) {
	parts, err := splitPointer(ptr)
	if err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return value, nil
	}
	parent, err := pointerGet(doc, "/"+joinPointer(parts[:len(parts)-1]))
	if len(parts) == 1 {
		parent, err = doc, nil
	}
	if err != nil {
		return nil, err
	}
	last := parts[len(parts)-1]
	switch c := parent.(type) {
	case map[string]interface{}:
		c[last] = value
		return doc, nil
	case []interface{}:
		var i int
		if last == "-" && insert {
			i = len(c)
		} else if i, err = strconv.Atoi(last); err != nil || i < 0 || i > len(c) || (!insert && i == len(c)) {
			return nil, fmt.Errorf("%q: index %q out of range", ptr, last)
		}
		var out []interface{}
		if insert {
			out = append(append(append([]interface{}{}, c[:i]...), value), c[i:]...)
		} else {
			c[i] = value
			out = c
		}
		if len(parts) == 1 {
			return out, nil
		}
		return pointerSet(doc, "/"+joinPointer(parts[:len(parts)-1]), out, false)
	default:
		return nil, fmt.Errorf("%q: the parent is not an object or array", ptr)
	}
}

func pointerRemove(doc interface{}, ptr string) (interface{}, interface{}, error) {
	parts, err := splitPointer(ptr)
	if err != nil {
		return nil, nil, err
	}
	if len(parts) == 0 {
		return nil, doc, nil
	}
	old, err := pointerGet(doc, ptr)
	if err != nil {
		return nil, nil, err
	}
	parentPtr := "/" + joinPointer(parts[:len(parts)-1])
	parent := doc
	if len(parts) > 1 {
		parent, _ = pointerGet(doc, parentPtr)
	}
	last := parts[len(parts)-1]
	switch c := parent.(type) {
	case map[string]interface{}:
		delete(c, last)
		return doc, old, nil
	case []interface{}:
		i, _ := strconv.Atoi(last)
		out := append(append([]interface{}{}, c[:i]...), c[i+1:]...)
		if len(parts) == 1 {
			return out, old, nil
		}
		doc, err = pointerSet(doc, parentPtr, out, false)
		return doc, old, err
	}
	return nil, nil, fmt.Errorf("%q: cannot remove", ptr)
}

func joinPointer(parts []string) string {
	esc := make([]string, len(parts))
	for i, p := range parts {
		esc[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1")
	}
	return strings.Join(esc, "/")
}
