package admission

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"google.golang.org/protobuf/types/known/structpb"
)

// The patch types of the mutating policy environment: upstream's
// HasPatchTypes environments (plugin/cel compile.go hasPatchTypes) resolve
// the type names Object, Object.<field>... (pkg/cel/mutation/dynamic: any
// field, of type dyn) and JSONPatch (pkg/cel/mutation/jsonpatch.go: op,
// from, path strings and a dyn value) in struct creation expressions, and
// declare jsonpatch.escapeKey (pkg/cel/library/jsonpatch.go).

const (
	objectTypeName    = "Object"
	jsonPatchTypeName = "JSONPatch"
)

var (
	applyConfigReturnTypes = []*cel.Type{types.NewObjectType(objectTypeName)}
	jsonPatchReturnTypes   = []*cel.Type{cel.ListType(types.NewObjectType(jsonPatchTypeName))}
	jsonPatchType          = types.NewObjectType(jsonPatchTypeName)
)

// patchTypeProvider resolves the patch types before the environment's own
// provider.
type patchTypeProvider struct{ base types.Provider }

func isObjectTypeName(name string) bool {
	return name == objectTypeName || strings.HasPrefix(name, objectTypeName+".")
}

func (p *patchTypeProvider) FindStructType(name string) (*types.Type, bool) {
	if name == jsonPatchTypeName {
		return types.NewTypeTypeWithParam(jsonPatchType), true
	}
	if isObjectTypeName(name) {
		return types.NewTypeTypeWithParam(types.NewObjectType(name)), true
	}
	return p.base.FindStructType(name)
}

func (p *patchTypeProvider) FindStructFieldNames(name string) ([]string, bool) {
	if name == jsonPatchTypeName {
		return []string{"op", "from", "path", "value"}, true
	}
	if isObjectTypeName(name) {
		return nil, true // any field name
	}
	return p.base.FindStructFieldNames(name)
}

func (p *patchTypeProvider) FindStructFieldType(name, field string) (*types.FieldType, bool) {
	if name == jsonPatchTypeName {
		var t *types.Type
		switch field {
		case "op", "from", "path":
			t = cel.StringType
		case "value":
			t = types.DynType
		}
		return &types.FieldType{Type: t}, true
	}
	if isObjectTypeName(name) {
		return &types.FieldType{
			Type: types.DynType,
			IsSet: func(target any) bool {
				m, ok := target.(map[string]any)
				if !ok {
					return false
				}
				_, set := m[field]
				return set
			},
			GetFrom: func(target any) (any, error) {
				if m, ok := target.(map[string]any); ok {
					return m[field], nil
				}
				return nil, fmt.Errorf("cannot get field %q", field)
			},
		}, true
	}
	return p.base.FindStructFieldType(name, field)
}

func (p *patchTypeProvider) NewValue(name string, fields map[string]ref.Val) ref.Val {
	if name == jsonPatchTypeName {
		return newJSONPatchVal(fields)
	}
	if isObjectTypeName(name) {
		return &objectVal{typ: types.NewObjectType(name), fields: fields}
	}
	return p.base.NewValue(name, fields)
}

func (p *patchTypeProvider) EnumValue(name string) ref.Val { return p.base.EnumValue(name) }

func (p *patchTypeProvider) FindIdent(name string) (ref.Val, bool) { return p.base.FindIdent(name) }

// patchEnvOptions are the options that extend an environment with the
// patch types.
func patchEnvOptions() []cel.EnvOption {
	return []cel.EnvOption{
		func(e *cel.Env) (*cel.Env, error) {
			return cel.CustomTypeProvider(&patchTypeProvider{base: e.CELTypeProvider()})(e)
		},
		cel.Function("jsonpatch.escapeKey",
			cel.Overload("string_jsonpatch_escapeKey_string", []*cel.Type{cel.StringType}, cel.StringType,
				cel.UnaryBinding(func(arg ref.Val) ref.Val {
					s, ok := arg.(types.String)
					if !ok {
						return types.MaybeNoSuchOverloadErr(arg)
					}
					return types.String(escapeJSONPointerKey(string(s)))
				}))),
	}
}

var jsonPointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// escapeJSONPointerKey escapes a key for a JSON pointer (RFC 6901).
func escapeJSONPointerKey(k string) string { return jsonPointerEscaper.Replace(k) }

// addPatchEnvs adds the four environments with patch types (params and
// authorizer on or off) to pe.
func (pe *policyEnvs) addPatchEnvs() error {
	for opts, env := range pe.envs {
		if opts.patch {
			continue
		}
		ext, err := env.Extend(patchEnvOptions()...)
		if err != nil {
			return fmt.Errorf("environment misconfigured: %w", err)
		}
		opts.patch = true
		pe.envs[opts] = ext
	}
	return nil
}

// objectVal is a value of an Object... type (dynamic.ObjectVal).
type objectVal struct {
	typ    *types.Type
	fields map[string]ref.Val
}

var _ traits.Zeroer = (*objectVal)(nil)

func (v *objectVal) native() (map[string]any, error) {
	out := make(map[string]any, len(v.fields))
	for k, f := range v.fields {
		c, err := objectFieldValue(f)
		if err != nil {
			return nil, fmt.Errorf("fail to convert field %q: %w", k, err)
		}
		out[k] = c
	}
	return out, nil
}

func (v *objectVal) ConvertToNative(t reflect.Type) (any, error) {
	m, err := v.native()
	if err != nil {
		return nil, err
	}
	switch t {
	case reflect.TypeFor[map[string]any]():
		return m, nil
	case reflect.TypeFor[*structpb.Struct]():
		return structpb.NewStruct(m)
	case reflect.TypeFor[*structpb.Value]():
		return structpb.NewValue(m)
	}
	return nil, fmt.Errorf("unable to convert to %v", t)
}

func (v *objectVal) ConvertToType(t ref.Type) ref.Val {
	if v.typ.TypeName() == t.TypeName() {
		return v
	}
	if t == types.TypeType {
		return types.NewTypeTypeWithParam(v.typ)
	}
	return types.NewErr("unsupported conversion into %v", t)
}

func (v *objectVal) Equal(other ref.Val) ref.Val {
	o, ok := other.(*objectVal)
	if !ok || v.typ.Equal(o.typ) != types.True {
		return types.False
	}
	return types.Bool(reflect.DeepEqual(v.fields, o.fields))
}

func (v *objectVal) Type() ref.Type { return types.NewObjectType(v.typ.TypeName()) }

func (v *objectVal) Value() any {
	m, err := v.native()
	if err != nil {
		return types.WrapErr(err)
	}
	return m
}

func (v *objectVal) IsZeroValue() bool { return len(v.fields) == 0 }

// checkTypeNames is CheckTypeNamesMatchFieldPathNames: every nested
// Object value's type name is the path of field names from the root.
func (v *objectVal) checkTypeNames() error {
	return errors.Join(objectTypeErrors(v, []string{v.Type().TypeName()})...)
}

func objectTypeErrors(v ref.Val, path []string) []error {
	var errs []error
	if ov, ok := v.(*objectVal); ok {
		want := strings.Join(path, ".")
		if tn := ov.typ.TypeName(); tn != want {
			errs = append(errs, fmt.Errorf("unexpected type name %q, expected %q, which matches field name path from root Object type", tn, want))
		}
		for k, f := range ov.fields {
			errs = append(errs, objectTypeErrors(f, append(path, k))...)
		}
	}
	switch x := v.Value().(type) {
	case []ref.Val:
		for _, e := range x {
			errs = append(errs, objectTypeErrors(e, path)...)
		}
	case map[ref.Val]ref.Val:
		for _, e := range x {
			errs = append(errs, objectTypeErrors(e, path)...)
		}
	}
	return errs
}

// objectFieldValue is dynamic's convertField: CEL list and map literals
// give their elements' Value(), other lists and maps are converted
// element by element.
func objectFieldValue(v ref.Val) (any, error) {
	switch x := v.Value().(type) {
	case []ref.Val:
		var out []any
		for _, e := range x {
			out = append(out, e.Value())
		}
		return out, nil
	case map[ref.Val]ref.Val:
		out := make(map[string]any, len(x))
		for k, e := range x {
			s, ok := k.Value().(string)
			if !ok {
				return nil, fmt.Errorf("map key %q is of type %T, not string", k, k)
			}
			out[s] = e.Value()
		}
		return out, nil
	}
	if l, ok := v.(traits.Lister); ok {
		var out []any
		for it := l.Iterator(); it.HasNext() == types.True; {
			c, err := objectFieldValue(it.Next())
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
		return out, nil
	}
	if m, ok := v.(traits.Mapper); ok {
		out := map[string]any{}
		for it := m.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			s, ok := k.Value().(string)
			if !ok {
				return nil, fmt.Errorf("map key %q is of type %T, not string", k, k)
			}
			c, err := objectFieldValue(m.Get(k))
			if err != nil {
				return nil, err
			}
			out[s] = c
		}
		return out, nil
	}
	return v.Value(), nil
}

// jsonPatchVal is a JSONPatch value (mutation.JSONPatchVal).
type jsonPatchVal struct {
	op, from, path string
	val            ref.Val
}

func newJSONPatchVal(fields map[string]ref.Val) ref.Val {
	p := &jsonPatchVal{}
	for name, v := range fields {
		str := func() (string, ref.Val) {
			s, ok := v.Value().(string)
			if !ok {
				return "", types.NewErr("unexpected type %T for JSONPatchType '%s' field", v.Value(), name)
			}
			return s, nil
		}
		var bad ref.Val
		switch name {
		case "op":
			p.op, bad = str()
		case "path":
			p.path, bad = str()
		case "from":
			p.from, bad = str()
		case "value":
			p.val = v
		default:
			return types.NewErr("unexpected JSONPatchType field: %s", name)
		}
		if bad != nil {
			return bad
		}
	}
	return p
}

func (p *jsonPatchVal) ConvertToNative(t reflect.Type) (any, error) {
	if t == reflect.TypeFor[*jsonPatchVal]() {
		return p, nil
	}
	return nil, fmt.Errorf("cannot convert to native type: %v", t)
}

func (p *jsonPatchVal) ConvertToType(t ref.Type) ref.Val {
	if t == jsonPatchType {
		return p
	}
	if t == types.TypeType {
		return types.NewTypeTypeWithParam(jsonPatchType)
	}
	return types.NewErr("unsupported type: %s", t.TypeName())
}

func (p *jsonPatchVal) Equal(other ref.Val) ref.Val {
	o, ok := other.(*jsonPatchVal)
	if !ok || p == nil || o == nil {
		return types.False
	}
	if p.op != o.op || p.from != o.from || p.path != o.path || (p.val == nil) != (o.val == nil) {
		return types.False
	}
	if p.val == nil {
		return types.True
	}
	return p.val.Equal(o.val)
}

func (p *jsonPatchVal) Get(index ref.Val) ref.Val {
	if name, ok := index.Value().(string); ok {
		switch name {
		case "op":
			return types.String(p.op)
		case "path":
			return types.String(p.path)
		case "from":
			return types.String(p.from)
		case "value":
			return p.val
		}
	}
	return types.NewErr("unsupported indexer: %s", index)
}

func (p *jsonPatchVal) IsSet(field ref.Val) ref.Val {
	if name, ok := field.Value().(string); ok {
		switch name {
		case "op":
			return types.Bool(len(p.op) > 0)
		case "path":
			return types.Bool(len(p.path) > 0)
		case "from":
			return types.Bool(len(p.from) > 0)
		case "value":
			return types.Bool(p.val != nil)
		}
	}
	return types.NewErr("unsupported field: %s", field)
}

func (p *jsonPatchVal) Type() ref.Type { return jsonPatchType }

func (p *jsonPatchVal) Value() any { return p }
