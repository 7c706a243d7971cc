package schemadiff

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	upschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	uplisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	upobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	upfield "k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/listtype"
	"github.com/crdlab/crdlab/internal/objectmeta"
	"github.com/crdlab/crdlab/internal/schema"
)

func upStructural(t *testing.T, js string) (*upschema.Structural, error) {
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal([]byte(js), &v1); err != nil {
		t.Fatal(err)
	}
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &internal, nil); err != nil {
		t.Fatal(err)
	}
	return upschema.NewStructural(&internal)
}

func ourStructural(t *testing.T, js string) (*schema.Structural, error) {
	var p crd.JSONSchemaProps
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatal(err)
	}
	return schema.NewStructural(&p)
}

func upStrings(errs upfield.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}
func ourStrings(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}
func sorted(s []string) []string { c := append([]string(nil), s...); sort.Strings(c); return c }

var schemas = []string{
	`{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string"}}}}}`,
	`{"properties":{"a":{},"b":{"type":"array","items":{}}}}`,
	`{"type":"array"}`,
	`{"type":"object","additionalProperties":{"type":"string"}}`,
	`{"type":"object","properties":{"a":{"type":"object","x-kubernetes-int-or-string":true,"x-kubernetes-preserve-unknown-fields":true,"x-kubernetes-embedded-resource":true}}}`,
	`{"type":"object","properties":{"a":{"x-kubernetes-embedded-resource":true},"b":{"type":"string","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},"c":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"additionalProperties":{"type":"string"}}}}`,
	`{"type":"object","properties":{"kind":{"type":"integer"},"apiVersion":{"type":"object"},"metadata":{"type":"string"},"e":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"kind":{"type":"boolean"},"metadata":{"type":"array","items":{"type":"string"}}}},"n":{"type":"object","properties":{"kind":{"type":"integer"},"metadata":{"type":"string"}}}}}`,
	`{"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string","maxLength":10},"generateName":{"type":"string"}}}}}`,
	`{"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string"},"labels":{"type":"object"}}}}}`,
	`{"type":"object","properties":{"metadata":{"type":"object","required":["name"]}}}`,
	`{"type":"object","properties":{"metadata":{"type":"object","required":[]}}}`,
	`{"type":"object","properties":{"metadata":{"type":"object","x-kubernetes-validations":[]}}}`,
	`{"type":"object","properties":{"metadata":{"type":"object","properties":{}}}}`,
	`{"type":"object","properties":{"metadata":{"type":"object","default":{"name":"x"}}}}`,
	`{"type":"object","properties":{"metadata":{"type":"object","description":"x"}}}`,
	`{"type":"object","properties":{"a":{"type":"object"}},"anyOf":[{"type":"string","title":"t","description":"d","nullable":true,"default":"x","x-kubernetes-preserve-unknown-fields":true,"x-kubernetes-embedded-resource":true,"x-kubernetes-int-or-string":true,"x-kubernetes-list-map-keys":["k"],"x-kubernetes-list-type":"map","x-kubernetes-map-type":"atomic","x-kubernetes-validations":[{"rule":"true"}],"additionalProperties":{}}]}`,
	`{"type":"object","allOf":[{"x-kubernetes-validations":[{"rule":"true"}]}],"oneOf":[{"x-kubernetes-validations":[{"rule":"true"}]}]}`,
	`{"type":"object","properties":{"metadata":{"type":"object"}},"not":{"properties":{"metadata":{}}}}`,
	`{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}}`,
	`{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]},{"anyOf":[{"type":"integer"},{"type":"string"}]}]}}}`,
	`{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer","maximum":3},{"type":"string"}]}}}`,
	`{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer","required":[]},{"type":"string"}]}}}`,
	`{"type":"object","properties":{"a":{"type":"string","pattern":"(a"}}}`,
	`{"type":"object","properties":{"a":{"type":"string"},"l":{"type":"array","items":{"type":"string"}}},"anyOf":[{"properties":{"a":{"minLength":1},"b":{"minLength":1},"l":{"items":{"properties":{"x":{}}}}}}]}`,
	`{"type":"object","properties":{"a":{"type":"object","x-kubernetes-preserve-unknown-fields":true}},"not":{"properties":{"a":{"items":{"maxLength":1}}}}}`,
	`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}},"allOf":[{"properties":{"m":{"properties":{"k":{"maxLength":3}}}}}]}`,
	`{"type":"object","properties":{"m":{"type":"object","not":{"additionalProperties":false,"items":{"type":"string"}}}}}`,
	`{"type":"object","properties":{"x":{"type":"object","properties":{"metadata":{"type":"object","properties":{"foo":{"type":"string"}}}},"x-kubernetes-embedded-resource":true}}}`,
	`{"type":"object","x-kubernetes-preserve-unknown-fields":true}`,
	`{"type":"object","id":"x"}`,
	`{"type":"object","x-kubernetes-preserve-unknown-fields":false}`,
	`{"type":"object","properties":{"a":{"type":"array","items":[{}]}}}`,
	`{}`,
}

func TestDiffValidateStructural(t *testing.T) {
	for i, js := range schemas {
		up, upErr := upStructural(t, js)
		our, ourErr := ourStructural(t, js)
		if fmt.Sprint(upErr) != fmt.Sprint(ourErr) {
			t.Errorf("schema %d: NewStructural error: upstream %v, ours %v", i, upErr, ourErr)
			continue
		}
		if upErr != nil {
			continue
		}
		for _, p := range []*upfield.Path{nil, upfield.NewPath("spec", "validation", "openAPIV3Schema")} {
			var op *field.Path
			if p != nil {
				op = field.NewPath("spec", "validation", "openAPIV3Schema")
			}
			u := upStrings(upschema.ValidateStructural(p, up))
			o := ourStrings(schema.ValidateStructural(op, our))
			if !reflect.DeepEqual(u, o) {
				t.Errorf("schema %d %s:\nupstream: %q\nours:     %q", i, js, u, o)
			}
			for _, opts := range []upschema.ValidationOptions{{AllowNestedAdditionalProperties: true, AllowNestedXValidations: true, AllowValidationPropertiesWithAdditionalProperties: true}} {
				u := upStrings(upschema.ValidateStructuralWithOptions(p, up, opts))
				o := ourStrings(schema.ValidateStructuralWithOptions(op, our, schema.ValidationOptions(opts)))
				if !reflect.DeepEqual(u, o) {
					t.Errorf("schema %d with options %s:\nupstream: %q\nours:     %q", i, js, u, o)
				}
			}
		}
		// Unfold then validate
		up2, _ := upStructural(t, js)
		our2, _ := ourStructural(t, js)
		u := upStrings(upschema.ValidateStructural(nil, up2.Unfold()))
		o := ourStrings(schema.ValidateStructural(nil, our2.Unfold()))
		if !reflect.DeepEqual(u, o) {
			t.Errorf("schema %d unfolded:\nupstream: %q\nours:     %q", i, u, o)
		}
	}
}

func decode(t *testing.T, js string) map[string]interface{} {
	var v map[string]interface{}
	if err := utiljson.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

const listSchema = `{"type":"object","properties":{
	"set":{"type":"array","x-kubernetes-list-type":"set","items":{"x-kubernetes-preserve-unknown-fields":true}},
	"map1":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","x-kubernetes-preserve-unknown-fields":true}},
	"map2":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k1","k2"],"items":{"type":"object","x-kubernetes-preserve-unknown-fields":true}},
	"nested":{"type":"array","items":{"type":"object","properties":{"inner":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}}},
	"byKey":{"type":"object","additionalProperties":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"integer"}}}
}}`

func TestDiffListType(t *testing.T) {
	up, _ := upStructural(t, listSchema)
	our, _ := ourStructural(t, listSchema)
	objs := []string{
		`{"set":["a","b",1,1.5,true,null,{"a":1},[1]]}`,
		`{"set":["a","b","a","a","b"]}`,
		`{"set":[1,1.0,1.5,1.5,1e3,1000]}`,
		`{"set":[null,true,null,true,false,false]}`,
		`{"set":[{"a":1,"b":[2]},{"b":[2],"a":1},[1,{"x":null}],[1,{"x":null}],{"a":1.0}]}`,
		`{"map1":[{"k":"a","v":1},{"k":"b"},{"k":"a","v":2}]}`,
		`{"map1":[{"v":1},null,{"k":null},{"k":null},{"k":{"x":1}},{"k":{"x":1}},{"k":[1]},{"k":[1]}]}`,
		`{"map1":[{"k":"a"},"x",{"k":"a"}]}`,
		`{"map1":[{"k":"a"}, 5]}`,
		`{"map2":[{"k1":"a","k2":1},{"k1":"a","k2":2},{"k1":"a","k2":1,"x":3},{"k2":1},{"k2":1},null,{}]}`,
		`{"nested":[{"inner":["x","x"]},{"inner":["y","z","y"]}]}`,
		`{"byKey":{"b":[1,1],"a":[2,2]}}`,
	}
	for _, js := range objs {
		u := sorted(upStrings(uplisttype.ValidateListSetsAndMaps(nil, up, decode(t, js))))
		o := sorted(ourStrings(listtype.ValidateListSetsAndMaps(nil, our, decode(t, js))))
		if !reflect.DeepEqual(u, o) {
			t.Errorf("%s:\nupstream: %q\nours:     %q", js, u, o)
		}
	}
}

const embeddedSchema = `{"type":"object","properties":{
	"spec":{"type":"object","properties":{
		"template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
		"list":{"type":"array","items":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}},
		"byName":{"type":"object","additionalProperties":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}},
		"plain":{"type":"object","x-kubernetes-preserve-unknown-fields":true}
	}}}}`

var metaObjects = []string{
	`{"metadata":{"name":"a","generateName":"g-","namespace":"ns","selfLink":"/x","uid":"u","resourceVersion":"7","generation":3,"creationTimestamp":"2024-01-02T03:04:05Z","deletionTimestamp":"2024-01-02T03:04:06Z","deletionGracePeriodSeconds":30,"labels":{"a":"b"},"annotations":{"c":"d"},"ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"x","controller":true}],"finalizers":["f"],"managedFields":[{"manager":"m","operation":"Apply","apiVersion":"v1","time":"2024-01-02T03:04:05Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:x":{}}}}]}}`,
	`{"metadata":{"name":"a","Name":"B","foo":1,"ownerReferences":[{"Kind":"x","kind":"K","extra":1}]}}`,
	`{"metadata":{"creationTimestamp":"2024-01-02T05:04:05.999+02:00"}}`,
	`{"metadata":{"name":"","generation":0,"labels":{},"finalizers":[],"creationTimestamp":null,"annotations":null,"uid":null}}`,
	`{"metadata":{"labels":{"a":null},"finalizers":[null,"x"],"ownerReferences":[null]}}`,
	`{"metadata":{"generation":2.0}}`,
	`{"metadata":null}`,
	`{"metadata":{"name":1,"namespace":"ns","labels":{"a":1,"b":"c"},"generation":1.5,"creationTimestamp":"yesterday","finalizers":["a",2]}}`,
	`{"metadata":{"name":1}}`,
	`{"metadata":{"creationTimestamp":"yesterday"}}`,
	`{"metadata":{"creationTimestamp":""}}`,
	`{"metadata":{"deletionTimestamp":"0001-01-01T00:00:00Z"}}`,
	`{"metadata":{"managedFields":[{"fieldsV1":"str","time":null},{"fieldsV1":null},{"fieldsV1":5}]}}`,
	`{"metadata":{"generation":1e30}}`,
	`{"metadata":"x"}`,
	`{"metadata":[1]}`,
	`{"metadata":5}`,
	`{"metadata":{"name":"n","labels":[]}}`,
	`{"metadata":{"ownerReferences":{"a":1}}}`,
	`{"metadata":{"uid":5}}`,
	`{"metadata":{"labels":{"a":5}}}`,
	`{"metadata":{"annotations":"x"}}`,
	`{"metadata":{"finalizers":[1]}}`,
	`{"metadata":{"deletionGracePeriodSeconds":"5"}}`,
	`{"metadata":{"ownerReferences":[{"uid":5}]}}`,
	`{"metadata":{"ownerReferences":[{"controller":"yes"}]}}`,
	`{"metadata":{"ownerReferences":[5]}}`,
	`{"metadata":{"managedFields":[{"operation":5}]}}`,
	`{"metadata":{"managedFields":[{"time":5}]}}`,
	`{"metadata":{"managedFields":[{"time":"x"}]}}`,
	`{"metadata":{"creationTimestamp":5}}`,
	`{"metadata":{"generation":"1"}}`,
	`{"metadata":{"generation":9223372036854775808}}`,
	`{"metadata":{"name":"a","name2":{"x":[1,2]}}}`,
}

func TestDiffGetSetObjectMeta(t *testing.T) {
	for _, js := range metaObjects {
		for _, drop := range []bool{false, true} {
			uo, oo := decode(t, js), decode(t, js)
			um, ufound, uerr := upobjectmeta.GetObjectMeta(uo, drop)
			om, ofound, oerr := objectmeta.GetObjectMeta(oo, drop)
			if ufound != ofound || fmt.Sprint(uerr) != fmt.Sprint(oerr) {
				t.Errorf("%s drop=%v: upstream found=%v err=%v, ours found=%v err=%v", js, drop, ufound, uerr, ofound, oerr)
				continue
			}
			if uerr != nil || !ufound {
				continue
			}
			if err := upobjectmeta.SetObjectMeta(uo, um); err != nil {
				t.Fatal(err)
			}
			_ = objectmeta.SetObjectMeta(oo, om)
			if !reflect.DeepEqual(uo, oo) {
				t.Errorf("%s drop=%v:\nupstream: %#v\nours:     %#v", js, drop, uo, oo)
			}
		}
		// unknown paths
		uo, oo := decode(t, js), decode(t, js)
		_, _, up, uerr := upobjectmeta.GetObjectMetaWithOptions(uo, upobjectmeta.ObjectMetaOptions{DropMalformedFields: true, ReturnUnknownFieldPaths: true, ParentPath: upfield.NewPath("spec")})
		_, _, op, oerr := objectmeta.GetObjectMetaWithOptions(oo, objectmeta.ObjectMetaOptions{DropMalformedFields: true, ReturnUnknownFieldPaths: true, ParentPath: field.NewPath("spec")})
		if fmt.Sprint(uerr) != fmt.Sprint(oerr) || !reflect.DeepEqual(sorted(up), sorted(op)) {
			t.Errorf("%s unknown paths: upstream %q %v, ours %q %v", js, up, uerr, op, oerr)
		}
	}
}

func TestDiffCoerceAndValidate(t *testing.T) {
	ups, _ := upStructural(t, embeddedSchema)
	ours, _ := ourStructural(t, embeddedSchema)
	objs := []string{
		`{"spec":{"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","foo":"bar","creationTimestamp":null}},"plain":{"metadata":{"foo":1}}}}`,
		`{"spec":{"list":[{"metadata":{"a":1}},{"metadata":{"b":1}}],"byName":{"k":{"metadata":{"c":1,"labels":{"x":"y"}}}}}}`,
		`{"spec":{"template":{"kind":1}}}`,
		`{"spec":{"template":{"kind":1}}}`,
		`{"spec":{"template":{"apiVersion":true}}}`,
		`{"spec":{"template":{"metadata":{"name":1}}}}`,
		`{"spec":{"template":{"metadata":{"name":1,"namespace":"n"}}}}`,
		`{"spec":{"template":{"metadata":"x"}}}`,
		`{"apiVersion":"v1","kind":"X","metadata":{"name":"a","zzz":1}}`,
		`{"spec":{"template":{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"x","namespace":"ns"}}}}`,
		`{"spec":{"list":[{"metadata":{}}]}}`,
		`{"spec":{"template":{"apiVersion":"a/b/c","kind":"my_Kind"},"byName":{"x":{"apiVersion":"","kind":""}},"list":[{"apiVersion":1,"kind":true}]}}`,
		`{"spec":{"template":{"apiVersion":"v1","kind":"K","metadata":{"name":"a/b","generateName":"x%","namespace":"Bad","labels":{"-x":"y"},"annotations":{"A B":"x"},"finalizers":["orphan","foregroundDeletion","bad name"],"generation":-1,"ownerReferences":[{},{"apiVersion":"v1","kind":"Event","name":"e","uid":"u","controller":true},{"apiVersion":"x/y/z","kind":"K","name":"n","uid":"u","controller":true}],"managedFields":[{},{"operation":"Patch","fieldsType":"x","manager":"a\u0007"}]}}}}`,
		`{"metadata":{"name":".."}}`,
		`{"metadata":{"name":"ok","namespace":"a.b"}}`,
	}
	for _, js := range objs {
		for _, root := range []bool{false, true} {
			for _, drop := range []bool{false, true} {
				uo, oo := decode(t, js), decode(t, js)
				uerr, upaths := upobjectmeta.CoerceWithOptions(nil, uo, ups, root, upobjectmeta.CoerceOptions{DropInvalidFields: drop, ReturnUnknownFieldPaths: true})
				oerr, opaths := objectmeta.CoerceWithOptions(nil, oo, ours, root, objectmeta.CoerceOptions{DropInvalidFields: drop, ReturnUnknownFieldPaths: true})
				us, os := "<nil>", "<nil>"
				if uerr != nil {
					us = uerr.Error()
				}
				if oerr != nil {
					os = oerr.Error()
				}
				if us != os {
					// Upstream walks the object's keys in Go's random map
					// order and returns the first bad one: accept ours if
					// upstream also gives it in one of a few more runs.
					seen := false
					for i := 0; i < 50 && !seen; i++ {
						if e, _ := upobjectmeta.CoerceWithOptions(nil, decode(t, js), ups, root, upobjectmeta.CoerceOptions{DropInvalidFields: drop, ReturnUnknownFieldPaths: true}); e != nil && e.Error() == os {
							seen = true
						}
					}
					if !seen {
						t.Errorf("coerce %s root=%v drop=%v: upstream %s, ours %s", js, root, drop, us, os)
					}
				}
				if uerr == nil && (!reflect.DeepEqual(uo, oo) || !reflect.DeepEqual(upaths, opaths)) {
					t.Errorf("coerce %s root=%v drop=%v:\nupstream %#v %q\nours     %#v %q", js, root, drop, uo, upaths, oo, opaths)
				}
			}
			u := sorted(upStrings(upobjectmeta.Validate(nil, nil, decode(t, js), ups, root)))
			o := sorted(ourStrings(objectmeta.Validate(nil, decode(t, js), ours, root)))
			if !reflect.DeepEqual(u, o) {
				t.Errorf("validate %s root=%v:\nupstream: %s\nours:     %s", js, root, strings.Join(u, "\n          "), strings.Join(o, "\n          "))
			}
		}
	}
}
