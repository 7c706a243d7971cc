package schemadiff

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	upcr "k8s.io/apimachinery/pkg/api/validation"
	uppath "k8s.io/apimachinery/pkg/api/validation/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	upvalidation "k8s.io/apimachinery/pkg/util/validation"
	upfield "k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

var metas = []string{
	`{"name":"a","namespace":"ns"}`,
	`{}`,
	`{"name":"A","generateName":"Bc-"}`,
	`{"name":"a","generateName":"B-"}`,
	`{"name":"a%b/c","generateName":"x/%"}`,
	`{"name":".."}`,
	`{"name":"."}`,
	`{"name":"` + strings.Repeat("a", 254) + `"}`,
	`{"name":"a","namespace":"a.b"}`,
	`{"name":"a","namespace":"Bad_NS"}`,
	`{"name":"a","generation":-1}`,
	`{"name":"a","labels":{"/x":"-bad"}}`,
	`{"name":"a","labels":{"a/b/c":"v"}}`,
	`{"name":"a","labels":{"z_":"ok"}}`,
	`{"name":"a","labels":{"k":"` + strings.Repeat("v", 64) + `"}}`,
	`{"name":"a","labels":{"Example.com/` + strings.Repeat("k", 64) + `":""}}`,
	`{"name":"a","labels":{"` + strings.Repeat("a", 254) + `/x":""}}`,
	`{"name":"a","annotations":{"Bad Key":""}}`,
	`{"name":"a","annotations":{"k":"` + strings.Repeat("v", 256*1024) + `"}}`,
	`{"name":"a","ownerReferences":[{},{"apiVersion":"a/b/c","kind":"K","name":"n","uid":"u","controller":true},{"apiVersion":"v1","kind":"Event","name":"e","uid":"u2","controller":true},{"apiVersion":"g/","kind":"K","name":"m","uid":"u3","controller":false,"blockOwnerDeletion":true}]}`,
	`{"name":"a","finalizers":["orphan","foregroundDeletion","bad name","example.com/ok","a/b/c"]}`,
	`{"name":"a","managedFields":[{},{"operation":"Patch","fieldsType":"FieldsV2","manager":"bad\u0007\u00a0x","subresource":"` + strings.Repeat("s", 257) + `"},{"operation":"Update","manager":"` + strings.Repeat("m", 129) + `"}]}`,
}

func upMeta(t *testing.T, js string) *metav1.ObjectMeta {
	var m metav1.ObjectMeta
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	return &m
}

func ourMeta(t *testing.T, js string) *objectmeta.ObjectMeta {
	m, _, err := objectmeta.GetObjectMeta(map[string]interface{}{"metadata": decode(t, js)}, false)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestDiffValidateObjectMeta(t *testing.T) {
	for _, js := range metas {
		for _, ns := range []bool{false, true} {
			u := upStrings(upcr.ValidateObjectMeta(upMeta(t, js), ns, upcr.NameIsDNSSubdomain, upfield.NewPath("metadata")))
			o := ourStrings(objectmeta.ValidateCustomResourceCreate(ourMeta(t, js), ns))
			if !reflect.DeepEqual(sorted(u), sorted(o)) {
				t.Errorf("create %.200s ns=%v:\nupstream: %.3000q\nours:     %.3000q", js, ns, u, o)
			}
			u = upStrings(upcr.ValidateObjectMetaAccessor(upMeta(t, js), ns, uppath.ValidatePathSegmentName, upfield.NewPath("metadata")))
			o = ourStrings(objectmeta.ValidateRegistryCreate(ourMeta(t, js), ns))
			if !reflect.DeepEqual(sorted(u), sorted(o)) {
				t.Errorf("registry create %.200s ns=%v:\nupstream: %.3000q\nours:     %.3000q", js, ns, u, o)
			}
		}
	}
}

var updates = [][2]string{
	{`{"name":"a","resourceVersion":"1"}`, `{"name":"a","resourceVersion":"1"}`},
	{`{"name":"a"}`, `{"name":"a"}`},
	{`{"name":"a","resourceVersion":"1","generation":1}`, `{"name":"a","generation":2}`},
	{`{"name":"b","namespace":"x","uid":"u2","resourceVersion":"1","creationTimestamp":"2024-01-02T00:00:00Z","deletionTimestamp":"2024-01-03T00:00:00Z","deletionGracePeriodSeconds":30}`, `{"name":"a","namespace":"y","uid":"u1","creationTimestamp":"2024-01-01T00:00:00Z"}`},
	{`{"name":"a","resourceVersion":"1","creationTimestamp":"2024-01-01T02:00:00+02:00"}`, `{"name":"a","creationTimestamp":"2024-01-01T00:00:00Z"}`},
	{`{"name":"a","resourceVersion":"1"}`, `{"name":"a","deletionTimestamp":"2024-01-03T00:00:00Z","deletionGracePeriodSeconds":0,"finalizers":["x"]}`},
	{`{"name":"a","resourceVersion":"1","deletionTimestamp":"2024-01-03T00:00:00Z","finalizers":["z","x","b","z"]}`, `{"name":"a","deletionTimestamp":"2024-01-03T00:00:00Z","finalizers":["x"]}`},
	{`{"name":"a%","resourceVersion":"1","labels":{"k":"-"},"finalizers":["bad name"],"namespace":"ns"}`, `{"name":"a%"}`},
}

func TestDiffValidateObjectMetaUpdate(t *testing.T) {
	for _, pair := range updates {
		u := upStrings(upcr.ValidateObjectMetaUpdate(upMeta(t, pair[0]), upMeta(t, pair[1]), upfield.NewPath("metadata")))
		o := ourStrings(objectmeta.ValidateCustomResourceUpdate(ourMeta(t, pair[0]), ourMeta(t, pair[1])))
		if !reflect.DeepEqual(u, o) {
			t.Errorf("update %s <- %s:\nupstream: %q\nours:     %q", pair[0], pair[1], u, o)
		}
		for _, ns := range []bool{false, true} {
			un, uo := upMeta(t, pair[0]), upMeta(t, pair[1])
			u = upStrings(append(upcr.ValidateObjectMetaAccessor(un, ns, uppath.ValidatePathSegmentName, upfield.NewPath("metadata")),
				upcr.ValidateObjectMetaAccessorUpdate(un, uo, upfield.NewPath("metadata"))...))
			o = ourStrings(objectmeta.ValidateRegistryUpdate(ourMeta(t, pair[0]), ourMeta(t, pair[1]), ns))
			if !reflect.DeepEqual(u, o) {
				t.Errorf("registry update %s <- %s:\nupstream: %q\nours:     %q", pair[0], pair[1], u, o)
			}
		}
	}
}

var nameInputs = []string{"", "a", "A", "a.b", "a-", "-a", "a_b", "1abc", "abc1", strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a.", 127), strings.Repeat("a", 254),
	"example.com/x", "/x", "x/", "a/b/c", "Example.COM/Name", "My.Name", "a..b", "..", ".", "a%b", "a/b", "ok_val", "_x", "x_", "a b"}

func TestDiffNames(t *testing.T) {
	pairs := []struct {
		name string
		up   func(string) []string
		our  func(string) []string
	}{
		{"IsDNS1123Label", upvalidation.IsDNS1123Label, names.IsDNS1123Label},
		{"IsDNS1123Subdomain", upvalidation.IsDNS1123Subdomain, names.IsDNS1123Subdomain},
		{"IsDNS1035Label", upvalidation.IsDNS1035Label, names.IsDNS1035Label},
		{"IsQualifiedName", upvalidation.IsQualifiedName, names.IsQualifiedName},
		{"IsValidLabelValue", upvalidation.IsValidLabelValue, names.IsValidLabelValue},
		{"IsValidPathSegmentName", uppath.IsValidPathSegmentName, names.IsPathSegmentName},
		{"IsValidPathSegmentPrefix", uppath.IsValidPathSegmentPrefix, names.IsPathSegmentPrefix},
		{"NameIsDNSSubdomain prefix", func(s string) []string { return upcr.NameIsDNSSubdomain(s, true) }, func(s string) []string { return names.NameIsDNSSubdomain(s, true) }},
		{"NameIsDNSLabel prefix", func(s string) []string { return upcr.NameIsDNSLabel(s, true) }, func(s string) []string { return names.NameIsDNSLabel(s, true) }},
		{"NameIsDNS1035Label prefix", func(s string) []string { return upcr.NameIsDNS1035Label(s, true) }, func(s string) []string { return names.NameIsDNS1035Label(s, true) }},
	}
	for _, p := range pairs {
		for _, in := range nameInputs {
			if u, o := p.up(in), p.our(in); !reflect.DeepEqual(u, o) {
				t.Errorf("%s(%q): upstream %q, ours %q", p.name, in, u, o)
			}
		}
	}
}
