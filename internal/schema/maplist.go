package schema

import (
	"fmt"
	"strings"
)

// MapList finds, for an item of a new x-kubernetes-list-type=map list, the
// item of an old list with the same key values (upstream's
// k8s.io/apiserver/pkg/cel/common MapList, used by CEL transition rules and
// by ratcheting): the first old item with a key wins. It indexes the old
// items lazily and is not safe for concurrent use.
type MapList struct {
	keys    []string
	keyed   map[interface{}]interface{}
	unkeyed []interface{}
}

// NewMapList indexes items by the list-map keys; with no keys or no items
// the list finds nothing.
func NewMapList(keys []string, items []interface{}) *MapList {
	if len(keys) == 0 || len(items) == 0 {
		return &MapList{}
	}
	return &MapList{keys: keys, keyed: map[interface{}]interface{}{}, unkeyed: items}
}

// compositeKey is the item's key: the single key value itself, or the key
// values joined; ok is false when a key is missing or not a scalar.
func (l *MapList) compositeKey(obj map[string]interface{}) (interface{}, bool) {
	if len(l.keys) == 1 {
		v, ok := obj[l.keys[0]]
		if !ok {
			return nil, false
		}
		switch v.(type) {
		case bool, float64, int64, string:
			return v, true
		}
		return nil, false
	}
	var b strings.Builder
	for _, k := range l.keys {
		v, ok := obj[k]
		if !ok {
			return nil, false
		}
		switch v.(type) {
		case bool:
			fmt.Fprintf(&b, "\x00%t", v)
		case float64:
			fmt.Fprintf(&b, "\x00%f", v)
		case int64:
			fmt.Fprintf(&b, "\x00%d", v)
		case string:
			fmt.Fprintf(&b, "\x00%q", v)
		default:
			return nil, false
		}
	}
	return b.String(), true
}

// Get returns the old item with obj's key values, or nil.
func (l *MapList) Get(obj interface{}) interface{} {
	if l.keyed == nil {
		return nil
	}
	m, ok := obj.(map[string]interface{})
	if !ok {
		return nil
	}
	key, ok := l.compositeKey(m)
	if !ok {
		return nil
	}
	if match, ok := l.keyed[key]; ok {
		return match
	}
	for len(l.unkeyed) > 0 {
		item := l.unkeyed[0]
		l.unkeyed = l.unkeyed[1:]
		mi, ok := item.(map[string]interface{})
		if !ok {
			continue
		}
		k, ok := l.compositeKey(mi)
		if !ok {
			continue
		}
		if _, exists := l.keyed[k]; !exists {
			l.keyed[k] = mi
		}
		if k == key {
			return mi
		}
	}
	return nil
}
