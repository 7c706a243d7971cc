package objectmeta

import (
	"encoding/json"
	"github.com/crdlab/crdlab/internal/unstructured"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/schema"
)

// obj decodes JSON as unstructured does (integers int64).
func obj(t *testing.T, js string) map[string]interface{} {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(js))
	dec.UseNumber()
	var v interface{}
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return unstructured.ConvertNumbers(v).(map[string]interface{})
}

func mustSchema(t *testing.T, js string) *schema.Structural {
	t.Helper()
	var p crd.JSONSchemaProps
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatal(err)
	}
	s, err := schema.NewStructural(&p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func render(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func diff(t *testing.T, got, want []string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestGetSetObjectMetaRoundTrip(t *testing.T) {
	tests := []struct {
		name, in, want string
		drop           bool
		wantErr        string
	}{
		{name: "full metadata keeps its shape",
			in:   `{"metadata":{"name":"a","generateName":"g-","namespace":"ns","selfLink":"/x","uid":"u","resourceVersion":"7","generation":3,"creationTimestamp":"2024-01-02T03:04:05Z","deletionTimestamp":"2024-01-02T03:04:06Z","deletionGracePeriodSeconds":30,"labels":{"a":"b"},"annotations":{"c":"d"},"ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"x","controller":true}],"finalizers":["f"],"managedFields":[{"manager":"m","operation":"Apply","apiVersion":"v1","time":"2024-01-02T03:04:05Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{}}}]}}`,
			want: `{"metadata":{"name":"a","generateName":"g-","namespace":"ns","selfLink":"/x","uid":"u","resourceVersion":"7","generation":3,"creationTimestamp":"2024-01-02T03:04:05Z","deletionTimestamp":"2024-01-02T03:04:06Z","deletionGracePeriodSeconds":30,"labels":{"a":"b"},"annotations":{"c":"d"},"ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"x","controller":true}],"finalizers":["f"],"managedFields":[{"manager":"m","operation":"Apply","apiVersion":"v1","time":"2024-01-02T03:04:05Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{}}}]}}`},
		{name: "unknown and wrongly cased fields are pruned",
			in:   `{"metadata":{"name":"a","Name":"B","foo":1,"ownerReferences":[{"Kind":"x","kind":"K","extra":1}]}}`,
			want: `{"metadata":{"name":"a","ownerReferences":[{"apiVersion":"","kind":"K","name":"","uid":""}]}}`},
		{name: "timestamps are normalised to UTC seconds",
			in:   `{"metadata":{"creationTimestamp":"2024-01-02T05:04:05.999+02:00"}}`,
			want: `{"metadata":{"creationTimestamp":"2024-01-02T03:04:05Z"}}`},
		{name: "zero and null values are omitted",
			in:   `{"metadata":{"name":"","generation":0,"labels":{},"finalizers":[],"creationTimestamp":null,"annotations":null,"uid":null}}`,
			want: `{"metadata":{}}`},
		{name: "null map values and list items become empty strings",
			in:   `{"metadata":{"labels":{"a":null},"finalizers":[null,"x"]}}`,
			want: `{"metadata":{"labels":{"a":""},"finalizers":["","x"]}}`},
		{name: "integral floats decode into integers",
			in:   `{"metadata":{"generation":2.0}}`,
			want: `{"metadata":{"generation":2}}`},
		{name: "null metadata becomes empty", in: `{"metadata":null}`, want: `{"metadata":{}}`},
		{name: "malformed fields are dropped one by one",
			in: `{"metadata":{"name":1,"namespace":"ns","labels":{"a":1,"b":"c"},"generation":1.5,"creationTimestamp":"yesterday","finalizers":["a",2]}}`, drop: true,
			want: `{"metadata":{"namespace":"ns"}}`},
		{name: "malformed fields fail without dropping",
			in: `{"metadata":{"name":1}}`, wantErr: "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"},
		{name: "bad timestamp fails without dropping",
			in: `{"metadata":{"creationTimestamp":"yesterday"}}`, wantErr: `parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`},
		{name: "metadata that is not an object, dropping", in: `{"metadata":"x"}`, drop: true, wantErr: "invalid metadata: expected object, got string"},
		{name: "metadata that is a list, dropping", in: `{"metadata":[1]}`, drop: true, wantErr: "invalid metadata: expected object, got []interface {}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := obj(t, tt.in)
			meta, found, err := GetObjectMeta(o, tt.drop)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("got error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !found {
				t.Fatalf("unexpected %v, found=%v", err, found)
			}
			if err := SetObjectMeta(o, meta); err != nil {
				t.Fatal(err)
			}
			if want := obj(t, tt.want); !reflect.DeepEqual(o, want) {
				t.Errorf("got %#v\nwant %#v", o, want)
			}
		})
	}
}

func TestGetObjectMetaNotFound(t *testing.T) {
	meta, found, err := GetObjectMeta(map[string]interface{}{"kind": "X"}, true)
	if meta != nil || found || err != nil {
		t.Errorf("got %v %v %v", meta, found, err)
	}
}

func TestGetObjectMetaUnknownFieldPaths(t *testing.T) {
	o := obj(t, `{"metadata":{"name":"a","foo":1,"Labels":{},"ownerReferences":[{"bar":1,"kind":"x"}],"managedFields":[{},{"baz":2}]}}`)
	_, _, paths, err := GetObjectMetaWithOptions(o, ObjectMetaOptions{ReturnUnknownFieldPaths: true, ParentPath: field.NewPath("spec", "template")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"spec.template.metadata.Labels", "spec.template.metadata.foo", "spec.template.metadata.managedFields[1].baz", "spec.template.metadata.ownerReferences[0].bar"}
	diff(t, paths, want)
}

func TestSetObjectMetaNilRemoves(t *testing.T) {
	o := map[string]interface{}{"metadata": map[string]interface{}{}}
	if err := SetObjectMeta(o, nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := o["metadata"]; ok {
		t.Errorf("metadata not removed")
	}
}

const embeddedSchema = `{"type":"object","properties":{
	"spec":{"type":"object","properties":{
		"template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
		"list":{"type":"array","items":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}},
		"byName":{"type":"object","additionalProperties":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}},
		"plain":{"type":"object","x-kubernetes-preserve-unknown-fields":true}
	}}}}`

func TestCoerce(t *testing.T) {
	tests := []struct {
		name, in, want string
		root, drop     bool
		wantErr        string
		wantUnknown    []string
	}{
		{name: "embedded metadata is round-tripped, creationTimestamp dropped when zero",
			in:          `{"spec":{"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","foo":"bar","creationTimestamp":null}},"plain":{"metadata":{"foo":1}}}}`,
			want:        `{"spec":{"template":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"}},"plain":{"metadata":{"foo":1}}}}`,
			wantUnknown: []string{"spec.template.metadata.foo"}},
		{name: "items and additionalProperties",
			in:          `{"spec":{"list":[{"metadata":{"a":1}},{"metadata":{"b":1}}],"byName":{"k":{"metadata":{"c":1,"labels":{"x":"y"}}}}}}`,
			want:        `{"spec":{"list":[{"metadata":{}},{"metadata":{}}],"byName":{"k":{"metadata":{"labels":{"x":"y"}}}}}}`,
			wantUnknown: []string{"spec.byName[k].metadata.c", "spec.list[0].metadata.a", "spec.list[1].metadata.b"}},
		{name: "kind that is not a string is an error",
			in: `{"spec":{"template":{"kind":1}}}`, wantErr: "spec.template.kind: Invalid value: 1: must be a string"},
		{name: "kind that is not a string is dropped",
			in: `{"spec":{"template":{"kind":1,"apiVersion":true}}}`, drop: true, want: `{"spec":{"template":{}}}`},
		{name: "malformed metadata is an error",
			in: `{"spec":{"template":{"metadata":{"name":1}}}}`, wantErr: `spec.template.metadata: Invalid value: {"name":1}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`},
		{name: "malformed metadata fields are dropped",
			in: `{"spec":{"template":{"metadata":{"name":1,"namespace":"n"}}}}`, drop: true, want: `{"spec":{"template":{"metadata":{"namespace":"n"}}}}`},
		{name: "metadata that is not an object passes through when dropping",
			in: `{"spec":{"template":{"metadata":"x"}}}`, drop: true, want: `{"spec":{"template":{"metadata":"x"}}}`},
		{name: "root is coerced when it is the resource root",
			in: `{"apiVersion":"v1","kind":"X","metadata":{"name":"a","zzz":1}}`, root: true, want: `{"apiVersion":"v1","kind":"X","metadata":{"name":"a"}}`,
			wantUnknown: []string{"metadata.zzz"}},
		{name: "root is not coerced otherwise",
			in: `{"apiVersion":"v1","kind":"X","metadata":{"name":"a","zzz":1}}`, want: `{"apiVersion":"v1","kind":"X","metadata":{"name":"a","zzz":1}}`},
	}
	s := mustSchema(t, embeddedSchema)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := obj(t, tt.in)
			err, unknown := CoerceWithOptions(nil, o, s, tt.root, CoerceOptions{DropInvalidFields: tt.drop, ReturnUnknownFieldPaths: true})
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("got error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if want := obj(t, tt.want); !reflect.DeepEqual(o, want) {
				t.Errorf("got %#v\nwant %#v", o, want)
			}
			diff(t, unknown, tt.wantUnknown)
		})
	}
}

func TestCoerceNilSchemaDoesNothing(t *testing.T) {
	o := map[string]interface{}{"metadata": "x"}
	if err := Coerce(nil, o, nil, false, false); err != nil {
		t.Errorf("got %v", err)
	}
}

func TestValidateEmbedded(t *testing.T) {
	tests := []struct {
		name, in string
		root     bool
		want     []string
	}{
		{name: "valid embedded resources", in: `{"spec":{"template":{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"x","namespace":"ns"}}}}`},
		{name: "apiVersion and kind are required", in: `{"spec":{"list":[{"metadata":{}}]}}`,
			want: []string{"spec.list[0].apiVersion: Required value", "spec.list[0].kind: Required value"}},
		{name: "apiVersion and kind values", in: `{"spec":{"template":{"apiVersion":"a/b/c","kind":"my_Kind"},"byName":{"x":{"apiVersion":"","kind":""}},"list":[{"apiVersion":1,"kind":true}]}}`,
			want: []string{
				`spec.byName[x].apiVersion: Invalid value: "": must not be empty`,
				`spec.byName[x].kind: Invalid value: "": must not be empty`,
				"spec.list[0].apiVersion: Invalid value: 1: must be a string",
				"spec.list[0].kind: Invalid value: true: must be a string",
				`spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`,
				`spec.template.kind: Invalid value: "my_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
			}},
		{name: "embedded metadata uses path-segment names and an optional namespace", in: `{"spec":{"template":{"apiVersion":"v1","kind":"K","metadata":{"name":"a/b","namespace":"Bad","labels":{"-x":"y"}}}}}`,
			want: []string{
				`spec.template.metadata.name: Invalid value: "a/b": may not contain '/'`,
				`spec.template.metadata.namespace: Invalid value: "Bad": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
				`spec.template.metadata.labels: Invalid value: "-x": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			}},
		{name: "root when it is the resource root", in: `{"metadata":{"name":".."}}`, root: true,
			want: []string{"apiVersion: Required value", "kind: Required value", `metadata.name: Invalid value: "..": may not be '..'`}},
		{name: "root is not validated otherwise", in: `{"metadata":{"name":".."}}`},
	}
	s := mustSchema(t, embeddedSchema)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diff(t, render(Validate(nil, obj(t, tt.in), s, tt.root)), tt.want)
		})
	}
}

func TestRegexErrorExamplesFormat(t *testing.T) {
	// upstream's RegexError puts ", " after every example and " or "
	// before all but the first: the double space is upstream's
	got := names.RegexError("msg", "re", "a", "b")
	if got != "msg (e.g. 'a',  or 'b', regex used for validation is 're')" {
		t.Errorf("got %q", got)
	}
}
