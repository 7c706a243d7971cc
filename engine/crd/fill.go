package crd

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
)

// fill stores v, a JSON value (json.Number numbers) that check has
// accepted for rv's type, into rv (settable), with the result
// json.Unmarshal of v's encoding would give — null leaves the zero value,
// "{}" and "[]" give empty non-nil maps and slices, JSON and
// json.RawMessage hold the compact encoding of their value — without
// encoding and re-parsing the document (and, for the schema-or-array
// types, every nested level again).
func fill(v interface{}, rv reflect.Value) error {
	if v == nil {
		if rv.Type() == rawMessageType {
			rv.SetBytes([]byte("null"))
		}
		return nil
	}
	t := rv.Type()
	if t.Kind() == reflect.Pointer {
		p := reflect.New(t.Elem())
		if err := fill(v, p.Elem()); err != nil {
			return err
		}
		rv.Set(p)
		return nil
	}
	switch t {
	case jsonType:
		raw, err := json.Marshal(v)
		if err != nil {
			return err
		}
		rv.Set(reflect.ValueOf(JSON{Raw: raw}))
		return nil
	case rawMessageType:
		raw, err := json.Marshal(v)
		if err != nil {
			return err
		}
		rv.SetBytes(raw)
		return nil
	case orArrayType:
		var s JSONSchemaPropsOrArray
		if err := fillSchemaOr(v, &s.Schema, reflect.ValueOf(&s.JSONSchemas).Elem()); err != nil {
			return err
		}
		rv.Set(reflect.ValueOf(s))
		return nil
	case orBoolType:
		var s JSONSchemaPropsOrBool
		if b, ok := v.(bool); ok {
			s.Allows = b
		} else {
			s.Allows = true
			if err := fillSchemaOr(v, &s.Schema, reflect.Value{}); err != nil {
				return err
			}
		}
		rv.Set(reflect.ValueOf(s))
		return nil
	case orStringsType:
		var s JSONSchemaPropsOrStringArray
		if err := fillSchemaOr(v, &s.Schema, reflect.ValueOf(&s.Property).Elem()); err != nil {
			return err
		}
		rv.Set(reflect.ValueOf(s))
		return nil
	case bytesType:
		b, err := base64.StdEncoding.DecodeString(v.(string))
		if err != nil {
			return err
		}
		rv.SetBytes(b)
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		fields := jsonFields(t)
		for k, e := range v.(map[string]interface{}) {
			f, ok := fields[k]
			if !ok {
				continue // one of extraKnownFields: check rejects the rest
			}
			if err := fill(e, rv.Field(f.index)); err != nil {
				return err
			}
		}
	case reflect.Map:
		obj := v.(map[string]interface{})
		m := reflect.MakeMapWithSize(t, len(obj))
		kt, et := t.Key(), t.Elem()
		for k, e := range obj {
			ev := reflect.New(et).Elem()
			if err := fill(e, ev); err != nil {
				return err
			}
			m.SetMapIndex(reflect.ValueOf(k).Convert(kt), ev)
		}
		rv.Set(m)
	case reflect.Slice:
		arr := v.([]interface{})
		s := reflect.MakeSlice(t, len(arr), len(arr))
		for i, e := range arr {
			if err := fill(e, s.Index(i)); err != nil {
				return err
			}
		}
		rv.Set(s)
	case reflect.String:
		rv.SetString(v.(string))
	case reflect.Bool:
		rv.SetBool(v.(bool))
	case reflect.Int32, reflect.Int64:
		i, err := strconv.ParseInt(string(v.(json.Number)), 10, 64)
		if err != nil {
			return err
		}
		rv.SetInt(i)
	case reflect.Float64:
		f, err := strconv.ParseFloat(string(v.(json.Number)), 64)
		if err != nil {
			return err
		}
		rv.SetFloat(f)
	default:
		return fmt.Errorf("cannot decode into %s", t)
	}
	return nil
}

// fillSchemaOr fills one of the schema-or-something types: an object into
// a new schema stored in *schema, anything else (check accepted it) into
// other.
func fillSchemaOr(v interface{}, schema **JSONSchemaProps, other reflect.Value) error {
	if _, ok := v.(map[string]interface{}); ok {
		*schema = &JSONSchemaProps{}
		return fill(v, reflect.ValueOf(*schema).Elem())
	}
	if !other.IsValid() {
		return fmt.Errorf("expected an object, got %T", v)
	}
	return fill(v, other)
}
