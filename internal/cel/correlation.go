package cel

import (
	"reflect"

	"github.com/crdlab/crdlab/internal/schema"
)

// MapList finds, for an item of a new x-kubernetes-list-type=map list, the
// item of the old list with the same keys (upstream's common.MapList).
type MapList interface {
	Get(interface{}) interface{}
}

// MakeMapList indexes items of a map-type list by their keys; for other
// schemas it returns a MapList that finds nothing.
func MakeMapList(s *schema.Structural, items []interface{}) MapList {
	if s.Type != "array" || s.XListType == nil || *s.XListType != "map" || len(s.XListMapKeys) == 0 || len(items) == 0 {
		return schema.NewMapList(nil, nil)
	}
	return schema.NewMapList(s.XListMapKeys, items)
}

// CorrelatedObject pairs a new value with its old value along the schema for
// ratcheting, caching deep-equality results (upstream's
// common.CorrelatedObject). It is not safe for concurrent use: create one per
// update.
type CorrelatedObject struct {
	OldValue interface{}
	Value    interface{}
	Schema   *schema.Structural

	comparisonResult *bool
	mapList          MapList
	children         map[interface{}]*CorrelatedObject
}

// NewCorrelatedObject correlates a new and an old object under s.
func NewCorrelatedObject(newObj, oldObj interface{}, s *schema.Structural) *CorrelatedObject {
	return &CorrelatedObject{OldValue: oldObj, Value: newObj, Schema: s}
}

func (r *CorrelatedObject) oldForIndex(index int) interface{} {
	oldList, ok := r.OldValue.([]interface{})
	if !ok {
		return nil
	}
	list, ok := r.Value.([]interface{})
	if !ok || len(list) <= index {
		return nil
	}
	if r.Schema.XListType != nil && *r.Schema.XListType == "map" {
		if r.mapList == nil {
			r.mapList = MakeMapList(r.Schema, oldList)
		}
		return r.mapList.Get(list[index])
	}
	return nil
}

// CachedDeepEqual reports whether the new value equals the old one,
// correlating map-list items by key.
func (r *CorrelatedObject) CachedDeepEqual() (res bool) {
	if r == nil {
		return false
	}
	if r.comparisonResult != nil {
		return *r.comparisonResult
	}
	defer func() { r.comparisonResult = &res }()
	if r.Value == nil && r.OldValue == nil {
		return true
	}
	if r.Value == nil || r.OldValue == nil {
		return false
	}
	oldArr, oldIsArr := r.OldValue.([]interface{})
	newArr, newIsArr := r.Value.([]interface{})
	oldMap, oldIsMap := r.OldValue.(map[string]interface{})
	newMap, newIsMap := r.Value.(map[string]interface{})
	if oldIsArr != newIsArr || oldIsMap != newIsMap {
		return false
	}
	switch {
	case oldIsArr:
		if len(oldArr) != len(newArr) {
			return false
		}
		for i := range newArr {
			child := r.Index(i)
			if child == nil {
				if r.mapList == nil {
					return reflect.DeepEqual(oldArr, newArr)
				}
				return false
			}
			if !child.CachedDeepEqual() {
				return false
			}
		}
		return true
	case oldIsMap:
		if len(oldMap) != len(newMap) {
			return false
		}
		for k := range newMap {
			child := r.Key(k)
			if child == nil || !child.CachedDeepEqual() {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(r.OldValue, r.Value)
}

// Key correlates the property or map entry named field.
func (r *CorrelatedObject) Key(field string) *CorrelatedObject {
	if r == nil || r.Schema == nil {
		return nil
	}
	if c, ok := r.children[field]; ok {
		return c
	}
	oldMap, okOld := r.OldValue.(map[string]interface{})
	newMap, okNew := r.Value.(map[string]interface{})
	if !okOld || !okNew {
		return nil
	}
	ov, okOld := oldMap[field]
	nv, okNew := newMap[field]
	if !okOld || !okNew {
		return nil
	}
	var ps *schema.Structural
	if p, ok := r.Schema.Properties[field]; ok {
		ps = &p
	} else if r.Schema.AdditionalProperties != nil && r.Schema.AdditionalProperties.Structural != nil {
		ps = r.Schema.AdditionalProperties.Structural
	} else {
		return nil
	}
	if r.children == nil {
		r.children = make(map[interface{}]*CorrelatedObject, len(newMap))
	}
	c := &CorrelatedObject{OldValue: ov, Value: nv, Schema: ps}
	r.children[field] = c
	return c
}

// Index correlates item i of a list (only map-type lists correlate).
func (r *CorrelatedObject) Index(i int) *CorrelatedObject {
	if r == nil || r.Schema == nil {
		return nil
	}
	if c, ok := r.children[i]; ok {
		return c
	}
	list, ok := r.Value.([]interface{})
	if !ok || len(list) <= i {
		return nil
	}
	ov := r.oldForIndex(i)
	if ov == nil {
		return nil
	}
	if r.Schema.Items == nil {
		return nil
	}
	if r.children == nil {
		r.children = make(map[interface{}]*CorrelatedObject, len(list))
	}
	c := &CorrelatedObject{OldValue: ov, Value: list[i], Schema: r.Schema.Items}
	r.children[i] = c
	return c
}
