package openapi

import "github.com/crdlab/crdlab/internal/schema"

// corr correlates a new value with its old value, as upstream's
// k8s.io/apiserver/pkg/cel/common.CorrelatedObject does over the structural
// schema: by property name (properties, then an additionalProperties
// schema), and by key for x-kubernetes-list-type=map lists. It lives for
// one ValidateUpdate call.
type corr struct {
	old, new interface{}
	sch      *node

	eq       int8 // 0 unknown, 1 equal, 2 different
	ml       *schema.MapList
	children map[string]*corr
	items    map[int]*corr
}

// key is CorrelatedObject.Key.
func (c *corr) key(f string) *corr {
	if c == nil || c.sch == nil {
		return nil
	}
	if ch, ok := c.children[f]; ok {
		return ch
	}
	oldMap, okOld := c.old.(map[string]interface{})
	newMap, okNew := c.new.(map[string]interface{})
	if !okOld || !okNew {
		return nil
	}
	ov, okOld := oldMap[f]
	nv, okNew := newMap[f]
	if !okOld || !okNew {
		return nil
	}
	var s *node
	if p, ok := c.sch.props[f]; ok {
		s = p
	} else if c.sch.additionalProps != nil && c.sch.additionalProps.schema != nil {
		s = c.sch.additionalProps.schema
	} else {
		return nil
	}
	if c.children == nil {
		c.children = make(map[string]*corr, len(newMap))
	}
	ch := &corr{old: ov, new: nv, sch: s}
	c.children[f] = ch
	return ch
}

// index is CorrelatedObject.Index: only map-list elements correlate.
func (c *corr) index(i int) *corr {
	if c == nil || c.sch == nil {
		return nil
	}
	if ch, ok := c.items[i]; ok {
		return ch
	}
	newList, ok := c.new.([]interface{})
	if !ok || len(newList) <= i {
		return nil
	}
	ov := c.oldForIndex(newList, i)
	if ov == nil || c.sch.items == nil {
		return nil
	}
	if c.items == nil {
		c.items = make(map[int]*corr, len(newList))
	}
	ch := &corr{old: ov, new: newList[i], sch: c.sch.items}
	c.items[i] = ch
	return ch
}

func (c *corr) oldForIndex(newList []interface{}, i int) interface{} {
	oldList, ok := c.old.([]interface{})
	if !ok || c.sch.listType != "map" {
		return nil
	}
	if c.ml == nil {
		c.ml = makeMapList(c.sch, oldList)
	}
	return c.ml.Get(newList[i])
}

// deepEqual is CorrelatedObject.CachedDeepEqual.
func (c *corr) deepEqual() bool {
	if c == nil {
		return false
	}
	if c.eq != 0 {
		return c.eq == 1
	}
	r := c.computeEqual()
	if r {
		c.eq = 1
	} else {
		c.eq = 2
	}
	return r
}

func (c *corr) computeEqual() bool {
	if c.new == nil && c.old == nil {
		return true
	} else if c.new == nil || c.old == nil {
		return false
	}
	oldArr, oldIsArr := c.old.([]interface{})
	newArr, newIsArr := c.new.([]interface{})
	oldMap, oldIsMap := c.old.(map[string]interface{})
	newMap, newIsMap := c.new.(map[string]interface{})
	if oldIsArr != newIsArr || oldIsMap != newIsMap {
		return false
	}
	switch {
	case oldIsArr:
		if len(oldArr) != len(newArr) {
			return false
		}
		for i := range newArr {
			ch := c.index(i)
			if ch == nil {
				if c.ml == nil {
					return deepEqual(oldArr, newArr)
				}
				return false
			} else if !ch.deepEqual() {
				return false
			}
		}
		return true
	case oldIsMap:
		if len(oldMap) != len(newMap) {
			return false
		}
		for k := range newMap {
			ch := c.key(k)
			if ch == nil || !ch.deepEqual() {
				return false
			}
		}
		return true
	default:
		return deepEqual(c.old, c.new)
	}
}

// makeMapList indexes the old elements of a map list by their keys
// (upstream's MakeMapList: the first old element with a key wins); for other
// nodes it finds nothing.
func makeMapList(s *node, items []interface{}) *schema.MapList {
	if s.structType != arrayType || s.listType != "map" {
		return schema.NewMapList(nil, nil)
	}
	return schema.NewMapList(s.listMapKeys, items)
}
