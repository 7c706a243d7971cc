package conformance

import (
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	upconversion "k8s.io/apiextensions-apiserver/pkg/apiserver/conversion"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/conversion"
)

// TestWebhookListConversionMatchesUpstream converts a list of stored
// objects with upstream's webhook converter (crConverter.ConvertToVersion
// on an UnstructuredList, as the response encoding of a list does) and
// compares crdlab's list-mode verdict on the request upstream sent and the
// recorded answer.
func TestWebhookListConversionMatchesUpstream(t *testing.T) {
	srv := &webhookServer{}
	ts := httptest.NewTLSServer(srv)
	defer ts.Close()
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw})
	crdYAML := strings.NewReplacer("REVIEWS", "[v1]", "URL", ts.URL, "CABUNDLE", base64.StdEncoding.EncodeToString(ca)).Replace(webhookCRD)
	v1, err := upstream.DecodeCRD([]byte(crdYAML))
	if err != nil {
		t.Fatal(err)
	}
	factory, err := upconversion.NewCRConverterFactory(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, unsafe, err := factory.NewConverter(v1)
	if err != nil {
		t.Fatal(err)
	}
	item := func(name string) string {
		return `{"apiVersion":"example.com/v1alpha1","kind":"Widget","metadata":{"name":"` + name + `","namespace":"ns","uid":"uid-` + name + `","labels":{"app":"a"}},"spec":{"size":1}}`
	}
	out := func(name, meta string) string {
		return converted(`"name":"`+name+`","namespace":"ns","uid":"uid-`+name+`"`+meta, `{"replicas":1}`)
	}
	ok := func(objs ...string) string {
		return review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+strings.Join(objs, ",")+`]}`)
	}
	items := []string{item("a"), item("b")}
	cases := []struct {
		name, answer string
		items        []string
	}{
		{"valid", ok(out("a", `,"labels":{"app":"a"}`), out("b", `,"labels":{"x":"y"},"annotations":{"k":"v"}`)), items},
		{"one item sent as a list", ok(out("a", "")), items[:1]},
		{"wrong count", ok(out("a", "")), items},
		{"wrong apiVersion at index 1", ok(out("a", ""), strings.Replace(out("b", ""), "example.com/v1", "example.com/v2", 1)), items},
		{"changed kind at index 0", ok(strings.Replace(out("a", ""), `"Widget"`, `"Thing"`, 1), out("b", "")), items},
		{"swapped objects", ok(out("b", ""), out("a", "")), items},
		{"invalid label at index 1", ok(out("a", ""), out("b", `,"labels":{"a/b/c":"x"}`)), items},
		{"null object at index 1", ok(out("a", ""), `null`), items},
		{"no metadata at index 0", ok(`{"apiVersion":"example.com/v1","kind":"Widget","spec":{}}`, out("b", "")), items},
		{"items already at v1 are not sent", ok(strings.Replace(out("b", ""), `"Widget"`, `"Thing"`, 1)), []string{strings.Replace(item("a"), "v1alpha1", "v1", 1), item("b")}},
		{"wrong uid", review("v1", `{"uid":"x","result":{"status":"Success"},"convertedObjects":[]}`), items},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			list := &unstructured.UnstructuredList{}
			list.SetAPIVersion("example.com/v1alpha1")
			list.SetKind("WidgetList")
			for _, it := range tc.items {
				u := unstructured.Unstructured{}
				if err := u.UnmarshalJSON([]byte(it)); err != nil {
					t.Fatal(err)
				}
				list.Items = append(list.Items, u)
			}
			srv.mu.Lock()
			srv.answer, srv.request = tc.answer, nil
			srv.mu.Unlock()
			res, upErr := unsafe.ConvertToVersion(list, schema.GroupVersion{Group: "example.com", Version: "v1"})
			srv.mu.Lock()
			request := srv.request
			srv.mu.Unlock()
			if request == nil {
				t.Fatal("upstream did not call the webhook")
			}
			response := strings.ReplaceAll(tc.answer, "UID", uidOf(t, request))
			got, err := conversion.Check([]byte(crdYAML), request, []byte(response), conversion.Options{List: true})
			if err != nil {
				t.Fatalf("crdlab: %v", err)
			}
			want := ""
			if upErr != nil {
				want = upErr.Error()
			}
			t.Logf("verdict: %q", want)
			if got.Error != want {
				t.Fatalf("error:\ncrdlab   %q\nupstream %q", got.Error, want)
			}
			if want != "" {
				return
			}
			wl := res.(*unstructured.UnstructuredList)
			if len(got.Objects) != len(wl.Items) {
				t.Fatalf("crdlab returned %d objects, upstream %d", len(got.Objects), len(wl.Items))
			}
			for i := range wl.Items {
				g, _ := upstream.Normalize(got.Objects[i].Object)
				w, _ := upstream.Normalize(wl.Items[i].Object)
				if !reflect.DeepEqual(g, w) {
					gj, _ := json.Marshal(g)
					wj, _ := json.Marshal(w)
					t.Errorf("object %d:\ncrdlab   %s\nupstream %s", i, gj, wj)
				}
			}
		})
	}
}
