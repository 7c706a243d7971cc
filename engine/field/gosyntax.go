package field

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Before Kubernetes 1.34 (k8s.io/apimachinery before v0.34), ErrorBody
// renders a bad value other than a number, boolean, string or fmt.Stringer
// with fmt's %#v: Go syntax naming upstream's Go types, e.g.
//
//	apiextensions.ValidationRule{Rule:"self.x > 0", Message:"", …, OptionalOldSelf:(*bool)(nil)}
//	[]string{"a", "b"}
//	map[string]interface {}{"a":"x"}
//
// crdlab's values are not upstream's types, so the printer below is fmt's
// %#v algorithm over reflection with two hooks: a type implementing
// GoTypeNamer is printed under upstream's name, and a value implementing
// GoSyntaxer is replaced by the value it returns (a mirror with upstream's
// field layout). Pointers below the top level print as upstream's do, with
// their type and no target; an address (which changes from run to run
// upstream) is written 0xPTR.

// GoTypeNamer is implemented by a type standing for an upstream Go type in
// a bad value: GoTypeName returns the name fmt's %#v prints for upstream's
// type ("apiextensions.ValidationRule", "v1.OwnerReference").
type GoTypeNamer interface {
	GoTypeName() string
}

// GoSyntaxer is implemented by a bad value whose upstream counterpart has
// another shape: GoSyntax returns the value to print in its place (before
// Kubernetes 1.34, see ErrorList.WithGoSyntaxValues); nil prints as the
// type's nil ("apiextensions.JSON(nil)"). A pointer to a GoSyntaxer is
// printed as a pointer (fmt prints no target below the top level).
type GoSyntaxer interface {
	GoSyntax() interface{}
}

var (
	goTypeNamerType = reflect.TypeOf((*GoTypeNamer)(nil)).Elem()
	goSyntaxerType  = reflect.TypeOf((*GoSyntaxer)(nil)).Elem()
)

// WithGoSyntaxValues returns copies of the errors whose bad values render
// as k8s.io/apimachinery before v0.34 renders them (Kubernetes 1.33 and
// older): nil and nil pointers as "null" (quoted), a pointer as its target,
// numbers, booleans and strings as now, a fmt.Stringer by its String,
// anything else in Go syntax (%#v).
func (list ErrorList) WithGoSyntaxValues() ErrorList {
	out := make(ErrorList, len(list))
	for i, e := range list {
		c := *e
		c.goSyntax = true
		out[i] = &c
	}
	return out
}

// renderValueGoSyntax is renderValue before k8s.io/apimachinery v0.34
// (field.Error.ErrorBody of v0.33).
func renderValueGoSyntax(v interface{}) string {
	if v == nil {
		return `"null"`
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return `"null"`
		}
		v = rv.Elem().Interface()
	}
	switch t := v.(type) {
	case int64, int32, float64, float32, bool:
		return fmt.Sprintf("%v", t)
	case string:
		return strconv.Quote(t)
	case GoSyntaxer:
	case fmt.Stringer:
		return t.String()
	}
	var b strings.Builder
	writeGoSyntax(&b, reflect.ValueOf(v), 0)
	return b.String()
}

// goTypeName is the name %#v prints for t, upstream's where t (or a type
// it is built from) implements GoTypeNamer.
func goTypeName(t reflect.Type) string {
	if t.Name() != "" && t.Implements(goTypeNamerType) && t.Kind() != reflect.Pointer {
		return reflect.Zero(t).Interface().(GoTypeNamer).GoTypeName()
	}
	if t.Name() != "" {
		return t.String()
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + goTypeName(t.Elem())
	case reflect.Slice:
		return "[]" + goTypeName(t.Elem())
	case reflect.Array:
		return "[" + strconv.Itoa(t.Len()) + "]" + goTypeName(t.Elem())
	case reflect.Map:
		return "map[" + goTypeName(t.Key()) + "]" + goTypeName(t.Elem())
	}
	return t.String()
}

// writeGoSyntax writes v as fmt's %#v does at the given depth (fmt's
// printValue), with the GoTypeNamer and GoSyntaxer hooks.
func writeGoSyntax(b *strings.Builder, v reflect.Value, depth int) {
	if !v.IsValid() {
		b.WriteString("<invalid reflect.Value>")
		return
	}
	if v.Kind() != reflect.Pointer && v.Kind() != reflect.Interface && v.CanInterface() && v.Type().Implements(goSyntaxerType) {
		m := v.Interface().(GoSyntaxer).GoSyntax()
		if m == nil {
			b.WriteString(goTypeName(v.Type()) + "(nil)")
			return
		}
		writeGoSyntax(b, reflect.ValueOf(m), depth)
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString("0x" + strconv.FormatUint(v.Uint(), 16))
	case reflect.Float32:
		fmt.Fprintf(b, "%#v", float32(v.Float()))
	case reflect.Float64:
		fmt.Fprintf(b, "%#v", v.Float())
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Map:
		b.WriteString(goTypeName(v.Type()))
		if v.IsNil() {
			b.WriteString("(nil)")
			return
		}
		b.WriteByte('{')
		keys := v.MapKeys()
		sortKeys(keys)
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			writeGoSyntax(b, k, depth+1)
			b.WriteByte(':')
			writeGoSyntax(b, v.MapIndex(k), depth+1)
		}
		b.WriteByte('}')
	case reflect.Struct:
		b.WriteString(goTypeName(v.Type()))
		b.WriteByte('{')
		for i := 0; i < v.NumField(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(v.Type().Field(i).Name)
			b.WriteByte(':')
			f := v.Field(i)
			if f.Kind() == reflect.Interface && !f.IsNil() {
				f = f.Elem()
			}
			writeGoSyntax(b, f, depth+1)
		}
		b.WriteByte('}')
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString(goTypeName(v.Type()) + "(nil)")
			return
		}
		writeGoSyntax(b, v.Elem(), depth+1)
	case reflect.Array, reflect.Slice:
		name := goTypeName(v.Type())
		if depth == 0 && v.Type().Elem().Kind() == reflect.Uint8 && v.Type().Name() == "" {
			name = "[]byte" // fmt's printArg case []byte
		}
		b.WriteString(name)
		if v.Kind() == reflect.Slice && v.IsNil() {
			b.WriteString("(nil)")
			return
		}
		b.WriteByte('{')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			writeGoSyntax(b, v.Index(i), depth+1)
		}
		b.WriteByte('}')
	case reflect.Pointer:
		if depth == 0 && !v.IsNil() {
			switch v.Elem().Kind() {
			case reflect.Array, reflect.Slice, reflect.Struct, reflect.Map:
				b.WriteByte('&')
				writeGoSyntax(b, v.Elem(), depth+1)
				return
			}
		}
		b.WriteString("(" + goTypeName(v.Type()) + ")(")
		if v.IsNil() {
			b.WriteString("nil")
		} else {
			b.WriteString("0xPTR")
		}
		b.WriteByte(')')
	default:
		b.WriteString("(" + goTypeName(v.Type()) + ")(0xPTR)")
	}
}

// sortKeys orders map keys as fmt does (internal/fmtsort) for the key
// kinds bad values use: strings, integers, booleans.
func sortKeys(keys []reflect.Value) {
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		switch a.Kind() {
		case reflect.String:
			return a.String() < b.String()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return a.Int() < b.Int()
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			return a.Uint() < b.Uint()
		case reflect.Bool:
			return !a.Bool() && b.Bool()
		}
		return false
	})
}
