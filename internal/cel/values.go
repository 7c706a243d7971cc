package cel

import (
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/crdlab/crdlab/internal/schema"
	"github.com/crdlab/crdlab/internal/strfmt"
)

// UnstructuredToVal wraps a decoded JSON value (map[string]interface{},
// []interface{}, string, int64, float64, bool, nil) in a lazy CEL value typed
// by its structural schema, as upstream's common.UnstructuredToVal does:
// objects become maps whose fields are escaped names, list-type set/map lists
// get set/map equality and "+" semantics, formatted strings become bytes,
// durations and timestamps, and mismatches become CEL errors.
func UnstructuredToVal(v interface{}, s *schema.Structural) ref.Val {
	if v == nil {
		if s.Nullable {
			return types.NullValue
		}
		return types.NewErr("invalid data, got null for schema with nullable=false")
	}
	if s.XIntOrString {
		switch x := v.(type) {
		case string:
			return types.String(x)
		case int:
			return types.Int(x)
		case int32:
			return types.Int(x)
		case int64:
			return types.Int(x)
		}
		return types.NewErr("invalid data, expected XIntOrString value to be either a string or integer")
	}
	switch s.Type {
	case "object":
		m, ok := v.(map[string]interface{})
		if !ok {
			return types.NewErr("invalid data, expected a map for the provided schema with type=object")
		}
		if s.XEmbeddedResource || s.Properties != nil {
			if s.XEmbeddedResource {
				s = WithTypeAndObjectMeta(s)
			}
			return &unstructuredMap{value: m, schema: s, kind: mapKindObject}
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
			return &unstructuredMap{value: m, schema: s, kind: mapKindAdditional}
		}
		return &unstructuredMap{value: m, schema: s, kind: mapKindNone}
	case "array":
		l, ok := v.([]interface{})
		if !ok {
			return types.NewErr("invalid data, expected an array for the provided schema with type=array")
		}
		if s.Items == nil {
			return types.NewErr("invalid array type, expected Items with a non-empty Schema")
		}
		list := unstructuredList{elements: l, itemsSchema: s.Items}
		if s.XListType != nil {
			switch *s.XListType {
			case "map":
				return &unstructuredMapList{unstructuredList: list, escapedKeyProps: escapeKeyProps(s.XListMapKeys)}
			case "set":
				return &unstructuredSetList{unstructuredList: list}
			case "atomic", "":
				return &list
			default:
				return types.NewErr("invalid x-kubernetes-list-type, expected 'map', 'set' or 'atomic' but got %s", *s.XListType)
			}
		}
		return &list
	case "string":
		str, ok := v.(string)
		if !ok {
			return types.NewErr("invalid data, expected string, got %T", v)
		}
		format := ""
		if s.ValueValidation != nil {
			format = s.ValueValidation.Format
		}
		switch format {
		case "duration":
			d, err := strfmt.ParseDuration(str)
			if err != nil {
				return types.NewErr("Invalid duration %s: %v", str, err)
			}
			return types.Duration{Duration: d}
		case "date":
			d, err := time.Parse("2006-01-02", str)
			if err != nil {
				return types.NewErr("Invalid date formatted string %s: %v", str, err)
			}
			return types.Timestamp{Time: d}
		case "date-time":
			d, err := strfmt.ParseDateTime(str)
			if err != nil {
				return types.NewErr("Invalid date-time formatted string %s: %v", str, err)
			}
			return types.Timestamp{Time: d}
		case "byte":
			b, err := strfmt.ParseBase64(str)
			if err != nil {
				return types.NewErr("Invalid byte formatted string %s: %v", str, err)
			}
			return types.Bytes(b)
		}
		return types.String(str)
	case "number":
		switch x := v.(type) {
		case int:
			return types.Double(x)
		case int32:
			return types.Double(x)
		case int64:
			return types.Double(x)
		case float32:
			return types.Double(x)
		case float64:
			return types.Double(x)
		}
		return types.NewErr("invalid data, expected float, got %T", v)
	case "integer":
		switch x := v.(type) {
		case int:
			return types.Int(x)
		case int32:
			return types.Int(x)
		case int64:
			return types.Int(x)
		}
		return types.NewErr("invalid data, expected int, got %T", v)
	case "boolean":
		b, ok := v.(bool)
		if !ok {
			return types.NewErr("invalid data, expected bool, got %T", v)
		}
		return types.Bool(b)
	}
	if s.XPreserveUnknownFields {
		return &unknownPreserved{u: v}
	}
	return types.NewErr("invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got %s", s.Type)
}

// unknownPreserved is a value below x-kubernetes-preserve-unknown-fields
// without a type: it can only be compared.
type unknownPreserved struct{ u interface{} }

func (t *unknownPreserved) ConvertToNative(rt reflect.Type) (interface{}, error) {
	return nil, fmt.Errorf("type conversion to '%s' not supported for values preserved by x-kubernetes-preserve-unknown-fields", rt)
}

func (t *unknownPreserved) ConvertToType(tv ref.Type) ref.Val {
	return types.NewErr("type conversion to '%s' not supported for values preserved by x-kubernetes-preserve-unknown-fields", tv.TypeName())
}

func (t *unknownPreserved) Equal(other ref.Val) ref.Val {
	return types.Bool(reflect.DeepEqual(t.u, other.Value()))
}

func (t *unknownPreserved) Type() ref.Type     { return types.UnknownType }
func (t *unknownPreserved) Value() interface{} { return t.u }

// unstructuredList is a list (atomic or without list type).
type unstructuredList struct {
	elements    []interface{}
	itemsSchema *schema.Structural
}

var _ traits.Lister = &unstructuredList{}

func (t *unstructuredList) ConvertToNative(rt reflect.Type) (interface{}, error) {
	if rt.Kind() == reflect.Slice {
		if t.itemsSchema.Type == "string" {
			var out []string
			for _, e := range t.elements {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("expected all elements to be of type string, but got %T", e)
				}
				out = append(out, s)
			}
			return out, nil
		}
		return t.elements, nil
	}
	return nil, fmt.Errorf("type conversion error from '%s' to '%s'", t.Type(), rt)
}

func (t *unstructuredList) ConvertToType(tv ref.Type) ref.Val {
	switch tv {
	case types.ListType:
		return t
	case types.TypeType:
		return types.ListType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", t.Type(), tv.TypeName())
}

func (t *unstructuredList) Equal(other ref.Val) ref.Val {
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz := types.Int(len(t.elements))
	if sz != ol.Size() {
		return types.False
	}
	for i := types.Int(0); i < sz; i++ {
		if eq := t.Get(i).Equal(ol.Get(i)); eq != types.True {
			return eq
		}
	}
	return types.True
}

func (t *unstructuredList) Type() ref.Type     { return types.ListType }
func (t *unstructuredList) Value() interface{} { return t.elements }

func (t *unstructuredList) Add(other ref.Val) ref.Val {
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	osz, _ := ol.Size().(types.Int)
	elems := make([]ref.Val, 0, len(t.elements)+int(osz))
	for i := range t.elements {
		elems = append(elems, t.Get(types.Int(i)))
	}
	for it := ol.Iterator(); it.HasNext() == types.True; {
		elems = append(elems, it.Next())
	}
	return types.NewRefValList(types.DefaultTypeAdapter, elems)
}

func (t *unstructuredList) Contains(val ref.Val) ref.Val {
	if types.IsUnknownOrError(val) {
		return val
	}
	var err ref.Val
	for _, e := range t.elements {
		cmp := UnstructuredToVal(e, t.itemsSchema).Equal(val)
		b, ok := cmp.(types.Bool)
		if !ok && err == nil {
			err = types.MaybeNoSuchOverloadErr(cmp)
		}
		if b == types.True {
			return types.True
		}
	}
	if err != nil {
		return err
	}
	return types.False
}

func (t *unstructuredList) Get(idx ref.Val) ref.Val {
	iv, ok := idx.(types.Int)
	if !ok {
		return types.ValOrErr(idx, "unsupported index: %v", idx)
	}
	i := int(iv)
	if i < 0 || i >= len(t.elements) {
		return types.NewErr("index out of bounds: %v", idx)
	}
	return UnstructuredToVal(t.elements[i], t.itemsSchema)
}

func (t *unstructuredList) Iterator() traits.Iterator {
	items := make([]ref.Val, len(t.elements))
	for i, e := range t.elements {
		items[i] = UnstructuredToVal(e, t.itemsSchema)
	}
	return &valIterator{items: items}
}

func (t *unstructuredList) Size() ref.Val { return types.Int(len(t.elements)) }

// valIterator iterates over precomputed values.
type valIterator struct {
	items []ref.Val
	idx   int
}

func (it *valIterator) HasNext() ref.Val { return types.Bool(it.idx < len(it.items)) }
func (it *valIterator) Next() ref.Val {
	v := it.items[it.idx]
	it.idx++
	return v
}
func (it *valIterator) ConvertToNative(reflect.Type) (interface{}, error) {
	return nil, fmt.Errorf("type conversion on iterators not supported")
}
func (it *valIterator) ConvertToType(ref.Type) ref.Val {
	return types.NewErr("no such overload")
}
func (it *valIterator) Equal(ref.Val) ref.Val { return types.NewErr("no such overload") }
func (it *valIterator) Type() ref.Type        { return types.IteratorType }
func (it *valIterator) Value() interface{}    { return nil }

// unstructuredMapList is a list with x-kubernetes-list-type=map.
type unstructuredMapList struct {
	unstructuredList
	escapedKeyProps []string

	once      sync.Once
	mapOfList map[interface{}]interface{}
}

func (t *unstructuredMapList) getMap() map[interface{}]interface{} {
	t.once.Do(func() {
		t.mapOfList = make(map[interface{}]interface{}, len(t.elements))
		for _, e := range t.elements {
			t.mapOfList[t.toMapKey(e)] = e
		}
	})
	return t.mapOfList
}

func (t *unstructuredMapList) toMapKey(element interface{}) interface{} {
	obj, ok := element.(map[string]interface{})
	if !ok {
		return types.NewErr("unexpected data format for element of array with x-kubernetes-list-type=map: %T", element)
	}
	switch len(t.escapedKeyProps) {
	case 1:
		return comparableKey(obj[t.escapedKeyProps[0]])
	case 2:
		return [2]interface{}{comparableKey(obj[t.escapedKeyProps[0]]), comparableKey(obj[t.escapedKeyProps[1]])}
	case 3:
		return [3]interface{}{comparableKey(obj[t.escapedKeyProps[0]]), comparableKey(obj[t.escapedKeyProps[1]]), comparableKey(obj[t.escapedKeyProps[2]])}
	}
	key := make([]interface{}, len(t.escapedKeyProps))
	for i, k := range t.escapedKeyProps {
		key[i] = obj[k]
	}
	return fmt.Sprintf("%#v", key)
}

// comparableKey guards against non-comparable map keys (which upstream would
// panic on; structural validation keeps keys scalar).
func comparableKey(v interface{}) interface{} {
	if v != nil && !reflect.TypeOf(v).Comparable() {
		return fmt.Sprintf("%#v", v)
	}
	return v
}

func (t *unstructuredMapList) Equal(other ref.Val) ref.Val {
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if types.Int(len(t.elements)) != ol.Size() {
		return types.False
	}
	tMap := t.getMap()
	seen := make(map[interface{}]struct{}, len(tMap))
	for it := ol.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := t.toMapKey(v.Value())
		if _, isErr := k.(*types.Err); isErr {
			return types.False
		}
		tv, ok := tMap[k]
		if !ok {
			return types.False
		}
		if eq := UnstructuredToVal(tv, t.itemsSchema).Equal(v); eq != types.True {
			return eq
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(tMap))
}

func (t *unstructuredMapList) Add(other ref.Val) ref.Val {
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	elems := make([]ref.Val, len(t.elements))
	for i := range t.elements {
		elems[i] = t.Get(types.Int(i))
	}
	return addToMapList(elems, ol, t.escapedKeyProps)
}

func escapeKeyProps(idents []string) []string {
	out := make([]string, len(idents))
	for i, p := range idents {
		if e, ok := Escape(p); ok {
			out[i] = e
		} else {
			out[i] = p
		}
	}
	return out
}

// unstructuredSetList is a list with x-kubernetes-list-type=set.
type unstructuredSetList struct {
	unstructuredList

	once   sync.Once
	set    map[interface{}]struct{}
	setErr ref.Val
}

func (t *unstructuredSetList) getSet() (map[interface{}]struct{}, ref.Val) {
	t.once.Do(func() {
		t.set = make(map[interface{}]struct{}, len(t.elements))
		for i := range t.elements {
			k, err := setElementKey(t.Get(types.Int(i)))
			if err != nil {
				t.set, t.setErr = nil, err
				return
			}
			t.set[k] = struct{}{}
		}
	})
	return t.set, t.setErr
}

func (t *unstructuredSetList) Equal(other ref.Val) ref.Val {
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if types.Int(len(t.elements)) != ol.Size() {
		return types.False
	}
	tSet, err := t.getSet()
	if err != nil {
		return err
	}
	seen := make(map[interface{}]struct{}, len(tSet))
	for it := ol.Iterator(); it.HasNext() == types.True; {
		k, err := setElementKey(it.Next())
		if err != nil {
			return err
		}
		if _, ok := tSet[k]; !ok {
			return types.False
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(tSet))
}

func (t *unstructuredSetList) Add(other ref.Val) ref.Val {
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	elems := make([]ref.Val, len(t.elements))
	for i := range t.elements {
		elems[i] = t.Get(types.Int(i))
	}
	return addToSetList(elems, ol)
}

// addToMapList merges other into elements with map-list semantics: items
// with an existing key replace it in place, others are appended.
func addToMapList(elements []ref.Val, other traits.Lister, escapedKeyProps []string) ref.Val {
	keyToIdx := make(map[interface{}]int, len(elements))
	for i, e := range elements {
		keyToIdx[refValMapKey(e, escapedKeyProps)] = i
	}
	for it := other.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := refValMapKey(v, escapedKeyProps)
		if pos, ok := keyToIdx[k]; ok {
			elements[pos] = v
		} else {
			elements = append(elements, v)
		}
	}
	return &refValMapList{Lister: types.NewRefValList(types.DefaultTypeAdapter, elements), escapedKeyProps: escapedKeyProps}
}

func refValMapKey(element ref.Val, escapedKeyProps []string) interface{} {
	get := func(prop string) interface{} {
		key := types.String(prop)
		var v ref.Val
		var found bool
		switch e := element.(type) {
		case traits.Mapper:
			v, found = e.Find(key)
		case traits.Indexer:
			if tester, ok := element.(traits.FieldTester); ok {
				found = tester.IsSet(key) == types.True
			}
			if found {
				v = e.Get(key)
			}
		}
		if !found || v == nil || types.IsUnknownOrError(v) {
			return nil
		}
		raw := v.Value()
		if raw != nil && !reflect.TypeOf(raw).Comparable() {
			return fmt.Sprintf("%#v", raw)
		}
		return raw
	}
	switch len(escapedKeyProps) {
	case 1:
		return get(escapedKeyProps[0])
	case 2:
		return [2]interface{}{get(escapedKeyProps[0]), get(escapedKeyProps[1])}
	case 3:
		return [3]interface{}{get(escapedKeyProps[0]), get(escapedKeyProps[1]), get(escapedKeyProps[2])}
	}
	key := make([]interface{}, len(escapedKeyProps))
	for i, k := range escapedKeyProps {
		key[i] = get(k)
	}
	return fmt.Sprintf("%#v", key)
}

type refValMapList struct {
	traits.Lister
	escapedKeyProps []string
}

func (l *refValMapList) Add(other ref.Val) ref.Val {
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz, _ := l.Size().(types.Int)
	elems := make([]ref.Val, int(sz))
	for i := range sz {
		elems[i] = l.Get(i)
	}
	return addToMapList(elems, ol, l.escapedKeyProps)
}

func (l *refValMapList) Equal(other ref.Val) ref.Val {
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz, _ := l.Size().(types.Int)
	if sz != ol.Size() {
		return types.False
	}
	byKey := make(map[interface{}]ref.Val, int(sz))
	for i := range sz {
		e := l.Get(i)
		byKey[refValMapKey(e, l.escapedKeyProps)] = e
	}
	seen := make(map[interface{}]struct{}, int(sz))
	for it := ol.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := refValMapKey(v, l.escapedKeyProps)
		e, ok := byKey[k]
		if !ok {
			return types.False
		}
		if eq := e.Equal(v); eq != types.True {
			return eq
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(byKey))
}

func addToSetList(elements []ref.Val, other traits.Lister) ref.Val {
	set := make(map[interface{}]struct{}, len(elements))
	for _, e := range elements {
		k, err := setElementKey(e)
		if err != nil {
			return err
		}
		set[k] = struct{}{}
	}
	for it := other.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k, err := setElementKey(v)
		if err != nil {
			return err
		}
		if _, ok := set[k]; !ok {
			set[k] = struct{}{}
			elements = append(elements, v)
		}
	}
	return &refValSetList{Lister: types.NewRefValList(types.DefaultTypeAdapter, elements)}
}

func setElementKey(element ref.Val) (interface{}, ref.Val) {
	switch element.(type) {
	case traits.Lister, traits.Mapper:
		return nil, types.NewErr("listSet operations are only supported on lists of scalar values")
	}
	raw := element.Value()
	if raw != nil && !reflect.TypeOf(raw).Comparable() {
		return fmt.Sprintf("%#v", raw), nil
	}
	return raw, nil
}

type refValSetList struct{ traits.Lister }

func (l *refValSetList) Add(other ref.Val) ref.Val {
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz, _ := l.Size().(types.Int)
	elems := make([]ref.Val, int(sz))
	for i := range sz {
		elems[i] = l.Get(i)
	}
	return addToSetList(elems, ol)
}

func (l *refValSetList) Equal(other ref.Val) ref.Val {
	ol, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz, _ := l.Size().(types.Int)
	if sz != ol.Size() {
		return types.False
	}
	set := make(map[interface{}]struct{}, int(sz))
	for i := range sz {
		k, err := setElementKey(l.Get(i))
		if err != nil {
			return err
		}
		set[k] = struct{}{}
	}
	seen := make(map[interface{}]struct{}, int(sz))
	for it := ol.Iterator(); it.HasNext() == types.True; {
		k, err := setElementKey(it.Next())
		if err != nil {
			return err
		}
		if _, ok := set[k]; !ok {
			return types.False
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(set))
}

type mapKind int

const (
	mapKindObject mapKind = iota
	mapKindAdditional
	mapKindNone
)

// unstructuredMap is an object (escaped property names) or a map
// (additionalProperties); fields set to null in an object are absent.
type unstructuredMap struct {
	value  map[string]interface{}
	schema *schema.Structural
	kind   mapKind
}

var _ traits.Mapper = &unstructuredMap{}

func (t *unstructuredMap) propSchema(key string) (*schema.Structural, bool) {
	switch t.kind {
	case mapKindObject:
		if p, ok := t.schema.Properties[key]; ok {
			return &p, true
		}
		return nil, false
	case mapKindAdditional:
		return t.schema.AdditionalProperties.Structural, true
	}
	return nil, false
}

func (t *unstructuredMap) isObject() bool { return t.schema.Properties != nil }

func (t *unstructuredMap) ConvertToNative(rt reflect.Type) (interface{}, error) {
	if rt.Kind() == reflect.Map {
		return t.value, nil
	}
	return nil, fmt.Errorf("type conversion error from '%s' to '%s'", t.Type(), rt)
}

func (t *unstructuredMap) ConvertToType(tv ref.Type) ref.Val {
	switch tv {
	case types.MapType:
		return t
	case types.TypeType:
		return types.MapType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", t.Type(), tv.TypeName())
}

func (t *unstructuredMap) Equal(other ref.Val) ref.Val {
	om, ok := other.(traits.Mapper)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if t.Size() != om.Size() {
		return types.False
	}
	for key, value := range t.value {
		if _, ok := t.propSchema(key); ok {
			v, found := t.Find(types.String(key))
			ov, oFound := om.Find(types.String(key))
			if found != oFound {
				return types.False
			}
			if !found {
				continue
			}
			if eq := v.Equal(ov); eq != types.True {
				return eq
			}
		} else {
			ou, ok := other.(*unstructuredMap)
			if !ok {
				return types.MaybeNoSuchOverloadErr(other)
			}
			if ov, ok := ou.value[key]; ok {
				if !reflect.DeepEqual(value, ov) {
					return types.False
				}
			}
		}
	}
	return types.True
}

func (t *unstructuredMap) Type() ref.Type     { return types.MapType }
func (t *unstructuredMap) Value() interface{} { return t.value }

func (t *unstructuredMap) Contains(key ref.Val) ref.Val {
	v, found := t.Find(key)
	if v != nil && types.IsUnknownOrError(v) {
		return v
	}
	return types.Bool(found)
}

func (t *unstructuredMap) Get(key ref.Val) ref.Val {
	if v, found := t.Find(key); found {
		return v
	}
	return types.ValOrErr(key, "no such key: %v", key)
}

func (t *unstructuredMap) Iterator() traits.Iterator {
	obj := t.isObject()
	keys := make([]ref.Val, 0, len(t.value))
	for k := range t.value {
		if _, ok := t.propSchema(k); ok {
			mk := k
			if obj {
				if e, ok := Escape(k); ok {
					mk = e
				}
			}
			keys = append(keys, types.String(mk))
		}
	}
	return &valIterator{items: keys}
}

func (t *unstructuredMap) Size() ref.Val { return types.Int(len(t.value)) }

func (t *unstructuredMap) Find(key ref.Val) (ref.Val, bool) {
	obj := t.isObject()
	ks, ok := key.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(key), true
	}
	k := string(ks)
	if obj {
		k, ok = Unescape(k)
		if !ok {
			return nil, false
		}
	}
	if v, ok := t.value[k]; ok {
		if obj && v == nil {
			return nil, false
		}
		if ps, ok := t.propSchema(k); ok {
			return UnstructuredToVal(v, ps), true
		}
	}
	return nil, false
}
