package cel

import (
	"math"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// Size constants of upstream's apiserver/pkg/cel/limits.go: the minimum and
// maximum serialized sizes used to estimate how many elements a request can
// hold.
const (
	maxDurationSizeJSON = 32
	maxDatetimeSizeJSON = 32
	minDurationSizeJSON = 3
	jsonDateSize        = 12
	minDatetimeSizeJSON = 21
	minStringSize       = 2
	minBoolSize         = 4
	minNumberSize       = 1

	noMaxLength = math.MaxInt
)

// DeclType is the CEL type of a schema node, mirroring upstream's
// apiserver/pkg/cel.DeclType: object types with fields, lists, maps and
// scalars, with the MaxElements and MinSerializedSize estimates that drive
// static cost.
type DeclType struct {
	name string
	// Fields holds the (escaped) fields of an object type.
	Fields map[string]*DeclField
	// KeyType and ElemType describe maps (both) and lists (ElemType).
	KeyType  *DeclType
	ElemType *DeclType
	// MaxElements is the estimated maximum size (string length, list items, map entries).
	MaxElements int64
	// MinSerializedSize is the smallest JSON serialization of a value of this type.
	MinSerializedSize int64

	celType *cel.Type
}

// DeclField is a field of an object DeclType.
type DeclField struct {
	Name     string
	Type     *DeclType
	Required bool
}

func newListType(elem *DeclType, maxItems int64) *DeclType {
	return &DeclType{name: "list", ElemType: elem, MaxElements: maxItems, celType: cel.ListType(elem.CelType()), MinSerializedSize: 2}
}

func newMapType(key, elem *DeclType, maxProperties int64) *DeclType {
	return &DeclType{name: "map", KeyType: key, ElemType: elem, MaxElements: maxProperties, celType: cel.MapType(key.CelType(), elem.CelType()), MinSerializedSize: 2}
}

func newObjectType(name string, fields map[string]*DeclField) *DeclType {
	return &DeclType{name: name, Fields: fields, celType: cel.ObjectType(name), MinSerializedSize: 2}
}

func newSimpleType(name string, celType *cel.Type, minSize int64) *DeclType {
	return &DeclType{name: name, celType: celType, MinSerializedSize: minSize}
}

var (
	anyDeclType       = newSimpleType("any", cel.AnyType, 1)
	bytesDeclType     = newSimpleType("bytes", cel.BytesType, minStringSize)
	durationDeclType  = newSimpleType("duration", cel.DurationType, minDurationSizeJSON)
	nullDeclType      = newSimpleType("null_type", cel.NullType, 4)
	timestampDeclType = newSimpleType("timestamp", cel.TimestampType, jsonDateSize)
	uintDeclType      = newSimpleType("uint", cel.UintType, 1)
	listDeclType      = newListType(anyDeclType, noMaxLength)
	mapDeclType       = newMapType(anyDeclType, anyDeclType, noMaxLength)

	stringDeclType = newSimpleType("string", cel.StringType, minStringSize)
	boolDeclType   = newSimpleType("bool", cel.BoolType, minBoolSize)
	doubleDeclType = newSimpleType("double", cel.DoubleType, minNumberSize)
	intDeclType    = newSimpleType("int", cel.IntType, minNumberSize)
)

// CelType returns the cel-go type.
func (t *DeclType) CelType() *cel.Type { return t.celType }

// TypeName returns the type name ("object" for unnamed objects, "list", "map", scalars).
func (t *DeclType) TypeName() string { return t.name }

// String returns the type name.
func (t *DeclType) String() string { return t.name }

// IsList reports whether t is a list type.
func (t *DeclType) IsList() bool { return t.KeyType == nil && t.ElemType != nil && t.Fields == nil }

// IsMap reports whether t is a map type.
func (t *DeclType) IsMap() bool { return t.KeyType != nil && t.ElemType != nil && t.Fields == nil }

// IsObject reports whether t is an object type.
func (t *DeclType) IsObject() bool { return t.KeyType == nil && t.ElemType == nil && t.Fields != nil }

// MaybeAssignTypeName names unnamed object types below t after their path
// from name (name.field, name.@elem, name.@idx) as upstream does, so that
// compile errors mention e.g. "selfType0.spec".
func (t *DeclType) MaybeAssignTypeName(name string) *DeclType {
	switch {
	case t.IsObject():
		updated := false
		if t.name != "object" {
			name = t.name
		} else {
			updated = true
		}
		fields := make(map[string]*DeclField, len(t.Fields))
		for fname, f := range t.Fields {
			nt := f.Type.MaybeAssignTypeName(name + "." + fname)
			if nt == f.Type {
				fields[fname] = f
				continue
			}
			updated = true
			fields[fname] = &DeclField{Name: fname, Type: nt, Required: f.Required}
		}
		if !updated {
			return t
		}
		return &DeclType{name: name, Fields: fields, MaxElements: t.MaxElements, celType: cel.ObjectType(name), MinSerializedSize: t.MinSerializedSize}
	case t.IsMap():
		nt := t.ElemType.MaybeAssignTypeName(name + ".@elem")
		if nt == t.ElemType {
			return t
		}
		return newMapType(t.KeyType, nt, t.MaxElements)
	case t.IsList():
		nt := t.ElemType.MaybeAssignTypeName(name + ".@idx")
		if nt == t.ElemType {
			return t
		}
		return newListType(nt, t.MaxElements)
	}
	return t
}

// collectTypes registers every named object type below t (upstream's
// FieldTypeMap/buildDeclTypes), keyed by type name or path.
func collectTypes(path string, t *DeclType, out map[string]*DeclType) {
	if t.IsObject() {
		out[t.name] = t
		for name, f := range t.Fields {
			collectTypes(path+"."+name, f.Type, out)
		}
	}
	if t.IsMap() {
		collectTypes(path+".@elem", t.ElemType, out)
		out[path] = t
	}
	if t.IsList() {
		collectTypes(path+".@idx", t.ElemType, out)
		out[path] = t
	}
}

// declTypeProvider resolves the object types of a schema for the CEL type
// checker, delegating everything else to the environment's provider
// (upstream's DeclTypeProvider with keywords recognised as field names,
// unless keywordsNotFields).
type declTypeProvider struct {
	registered map[string]*DeclType
	base       types.Provider
	adapter    types.Adapter
	// keywordsNotFields: a reserved word does not select the property
	// escaped as __word__ (`self.if` is an undefined field), as upstream's
	// DeclTypeProvider without SetRecognizeKeywordAsFieldName
	// (environments before compatibility version 1.31:
	// kubeversion.KeywordFieldNames).
	keywordsNotFields bool
}

func newDeclTypeProvider(base types.Provider, roots ...*DeclType) *declTypeProvider {
	reg := map[string]*DeclType{}
	for _, r := range roots {
		path := r.name
		collectTypes(path, r, reg)
	}
	var ad types.Adapter = types.DefaultTypeAdapter
	if a, ok := base.(types.Adapter); ok {
		ad = a
	}
	return &declTypeProvider{registered: reg, base: base, adapter: ad}
}

func (p *declTypeProvider) EnumValue(name string) ref.Val { return p.base.EnumValue(name) }

func (p *declTypeProvider) FindIdent(name string) (ref.Val, bool) { return p.base.FindIdent(name) }

func (p *declTypeProvider) find(name string) (*DeclType, bool) {
	if t, ok := p.registered[name]; ok {
		return t, true
	}
	switch name {
	case "bool":
		return boolDeclType, true
	case "string":
		return stringDeclType, true
	case "double":
		return doubleDeclType, true
	case "int":
		return intDeclType, true
	case "bytes":
		return bytesDeclType, true
	case "duration":
		return durationDeclType, true
	case "null_type":
		return nullDeclType, true
	case "timestamp":
		return timestampDeclType, true
	case "uint":
		return uintDeclType, true
	case "list":
		return listDeclType, true
	case "map":
		return mapDeclType, true
	}
	return nil, false
}

func (p *declTypeProvider) FindStructType(name string) (*types.Type, bool) {
	if t, ok := p.find(name); ok {
		return types.NewTypeTypeWithParam(t.CelType()), true
	}
	return p.base.FindStructType(name)
}

func (p *declTypeProvider) FindStructFieldNames(string) ([]string, bool) { return []string{}, false }

func (p *declTypeProvider) FindStructFieldType(typeName, fieldName string) (*types.FieldType, bool) {
	st, ok := p.find(typeName)
	if !ok {
		return p.base.FindStructFieldType(typeName, fieldName)
	}
	f, ok := st.Fields[fieldName]
	if !ok && !p.keywordsNotFields && celReservedSymbols[fieldName] {
		f, ok = st.Fields["__"+fieldName+"__"]
	}
	if ok {
		return &types.FieldType{Type: f.Type.CelType()}, true
	}
	if st.IsMap() {
		return &types.FieldType{Type: st.ElemType.CelType()}, true
	}
	return nil, false
}

func (p *declTypeProvider) NewValue(typeName string, fields map[string]ref.Val) ref.Val {
	return p.base.NewValue(typeName, fields)
}

func (p *declTypeProvider) NativeToValue(v any) ref.Val { return p.adapter.NativeToValue(v) }
