// Package correlated pairs a new value with its old value along a schema, as
// upstream's k8s.io/apiserver/pkg/cel/common.CorrelatedObject does for
// ratcheting. Errors found in a correlated subtree whose new value
// deep-equals its old value are ratcheted: OpenAPI validation
// (internal/openapi) drops them, CEL rules (internal/cel) turn them into
// warnings (cel.Evaluation.Warnings), as upstream reports them through the
// request's warnings.
//
// Values correlate by property name (the properties schema, else the
// additionalProperties schema) and, for x-kubernetes-list-type=map lists, by
// the list-map keys (the first old item with a key wins). Items of other
// lists (set, atomic, untyped) never correlate, as upstream.
//
// The walk reads the schema through the tiny Schema view, so each caller
// keeps its own schema representation (the structural schema for CEL, the
// compiled validator node for OpenAPI).
package correlated

import (
	"github.com/crdlab/crdlab/internal/schema"
	"github.com/crdlab/crdlab/internal/unstructured"
)

// Schema is what the walk reads of a schema node S (a pointer-like handle;
// the zero S is no schema).
type Schema[S any] interface {
	comparable
	// PropertySchema is the schema of the property name: the properties
	// entry, else the additionalProperties schema; false when neither exists.
	PropertySchema(name string) (S, bool)
	// ItemSchema is the items schema, the zero S when there is none.
	ItemSchema() S
	// SchemaType is the type keyword ("array", "object", ...).
	SchemaType() string
	// ListType is x-kubernetes-list-type ("" when unset).
	ListType() string
	// ListMapKeys is x-kubernetes-list-map-keys.
	ListMapKeys() []string
}

// MakeMapList indexes the old items of a map-type list by their keys
// (upstream's MakeMapList); for other schemas the list finds nothing.
func MakeMapList[S Schema[S]](s S, items []interface{}) *schema.MapList {
	if s.SchemaType() != "array" || s.ListType() != "map" {
		return schema.NewMapList(nil, nil)
	}
	return schema.NewMapList(s.ListMapKeys(), items)
}

// Object is a new value, its old value and their schema (upstream's
// CorrelatedObject), with the correlated children found so far and the
// memoized deep-equality result. It is not safe for concurrent use: create
// one per update with New.
type Object[S Schema[S]] struct {
	OldValue interface{}
	Value    interface{}
	Schema   S

	eq       int8 // 0 unknown, 1 equal, 2 different
	mapList  *schema.MapList
	fields   map[string]*Object[S]
	elements map[int]*Object[S]
}

// New correlates newObj with oldObj under s.
func New[S Schema[S]](newObj, oldObj interface{}, s S) *Object[S] {
	return &Object[S]{OldValue: oldObj, Value: newObj, Schema: s}
}

func (o *Object[S]) hasSchema() bool {
	var none S
	return o.Schema != none
}

// Key correlates the property or map entry named field: nil unless both
// values are objects holding it and the schema has a property or
// additionalProperties schema for it.
func (o *Object[S]) Key(field string) *Object[S] {
	if o == nil || !o.hasSchema() {
		return nil
	}
	if c, ok := o.fields[field]; ok {
		return c
	}
	oldMap, okOld := o.OldValue.(map[string]interface{})
	newMap, okNew := o.Value.(map[string]interface{})
	if !okOld || !okNew {
		return nil
	}
	ov, okOld := oldMap[field]
	nv, okNew := newMap[field]
	if !okOld || !okNew {
		return nil
	}
	ps, ok := o.Schema.PropertySchema(field)
	if !ok {
		return nil
	}
	if o.fields == nil {
		o.fields = make(map[string]*Object[S], len(newMap))
	}
	c := &Object[S]{OldValue: ov, Value: nv, Schema: ps}
	o.fields[field] = c
	return c
}

// Index correlates item i of the new list with the old item of the same
// keys; nil unless the list is x-kubernetes-list-type=map, both values are
// lists, such an old item exists and the schema has items.
func (o *Object[S]) Index(i int) *Object[S] {
	if o == nil || !o.hasSchema() {
		return nil
	}
	if c, ok := o.elements[i]; ok {
		return c
	}
	newList, ok := o.Value.([]interface{})
	if !ok || len(newList) <= i {
		return nil
	}
	ov := o.oldForIndex(newList, i)
	if ov == nil {
		return nil
	}
	is := o.Schema.ItemSchema()
	var none S
	if is == none {
		return nil
	}
	if o.elements == nil {
		o.elements = make(map[int]*Object[S], len(newList))
	}
	c := &Object[S]{OldValue: ov, Value: newList[i], Schema: is}
	o.elements[i] = c
	return c
}

// oldForIndex is the old item correlated with newList[i]; it indexes the old
// list (setting mapList) on first use.
func (o *Object[S]) oldForIndex(newList []interface{}, i int) interface{} {
	oldList, ok := o.OldValue.([]interface{})
	if !ok || o.Schema.ListType() != "map" {
		return nil
	}
	if o.mapList == nil {
		o.mapList = MakeMapList(o.Schema, oldList)
	}
	return o.mapList.Get(newList[i])
}

// CachedDeepEqual reports whether the new value deep-equals the old one,
// comparing correlatable children through their own (cached) correlations:
// map-list items by key, so a reordered map list is equal; other lists
// position by position. A nil Object is not equal.
func (o *Object[S]) CachedDeepEqual() bool {
	if o == nil {
		return false
	}
	if o.eq != 0 {
		return o.eq == 1
	}
	r := o.computeEqual()
	if r {
		o.eq = 1
	} else {
		o.eq = 2
	}
	return r
}

func (o *Object[S]) computeEqual() bool {
	if o.Value == nil && o.OldValue == nil {
		return true
	} else if o.Value == nil || o.OldValue == nil {
		return false
	}
	oldArr, oldIsArr := o.OldValue.([]interface{})
	newArr, newIsArr := o.Value.([]interface{})
	oldMap, oldIsMap := o.OldValue.(map[string]interface{})
	newMap, newIsMap := o.Value.(map[string]interface{})
	if oldIsArr != newIsArr || oldIsMap != newIsMap {
		return false
	}
	switch {
	case oldIsArr:
		if len(oldArr) != len(newArr) {
			return false
		}
		for i := range newArr {
			c := o.Index(i)
			if c == nil {
				// not a map list (compare as a whole), or an item
				// without an old counterpart
				if o.mapList == nil {
					return unstructured.Equal(oldArr, newArr)
				}
				return false
			}
			if !c.CachedDeepEqual() {
				return false
			}
		}
		return true
	case oldIsMap:
		if len(oldMap) != len(newMap) {
			return false
		}
		for k := range newMap {
			c := o.Key(k)
			if c == nil || !c.CachedDeepEqual() {
				return false
			}
		}
		return true
	default:
		return unstructured.Equal(o.OldValue, o.Value)
	}
}
