package conformance

import (
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/conversion"
)

// webhookCRD has a conversion webhook at URL (an httptest TLS server whose
// certificate is CABUNDLE) speaking the REVIEWS ConversionReview versions;
// objects are stored at v1alpha1 and read at v1.
const webhookCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: REVIEWS
      clientConfig:
        url: URL
        caBundle: CABUNDLE
  versions:
  - name: v1alpha1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
  - name: v1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, maximum: 10}
              mode: {type: string, default: fast}
`

// webhookServer answers every ConversionReview with its current answer,
// the placeholder UID replaced by the request's uid; it records the last
// request.
type webhookServer struct {
	mu      sync.Mutex
	answer  string
	request []byte
}

func (s *webhookServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var review struct {
		Request struct {
			UID string `json:"uid"`
		} `json:"request"`
	}
	_ = json.Unmarshal(body, &review)
	s.mu.Lock()
	s.request = body
	answer := strings.ReplaceAll(s.answer, "UID", review.Request.UID)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, answer)
}

// converted renders a v1 Widget answer object with the metadata given
// (a JSON object's members) and spec.
func converted(meta, spec string) string {
	return `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{` + meta + `},"spec":` + spec + `}`
}

func review(version, response string) string {
	return `{"apiVersion":"apiextensions.k8s.io/` + version + `","kind":"ConversionReview","response":` + response + `}`
}

const okMeta = `"name":"w","namespace":"ns","uid":"u-1"`

// TestWebhookConversionMatchesUpstream drives upstream's real webhook
// converter (conversion.NewCRConverterFactory, strategy Webhook, inside the
// storage codec of a read at v1) against a TLS server replying with a
// recorded answer, and checks crdlab's verdict on the request upstream
// sent and that answer: the same error, or the same object and pruned
// fields.
func TestWebhookConversionMatchesUpstream(t *testing.T) {
	srv := &webhookServer{}
	ts := httptest.NewTLSServer(srv)
	defer ts.Close()
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw})

	stored := `{"apiVersion":"example.com/v1alpha1","kind":"Widget","metadata":{"name":"w","namespace":"ns","uid":"u-1","resourceVersion":"5","generation":1,"labels":{"app":"a"},"annotations":{"note":"n"}},"spec":{"size":3}}`
	okSpec := `{"replicas":3}`
	cases := []struct {
		name, reviews, answer string
	}{
		{"valid v1", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+converted(okMeta+`,"labels":{"app":"a"}`, okSpec)+`]}`)},
		{"valid v1beta1", "[v1beta1, v1]", review("v1beta1", `{"uid":"whatever","result":{"status":"Success"},"convertedObjects":[`+converted(okMeta, okSpec)+`]}`)},
		{"v1beta1 review without uid", "[v1beta1]", review("v1beta1", `{"result":{"status":"Success"},"convertedObjects":[`+converted(okMeta, okSpec)+`]}`)},
		{"wrong uid", "[v1]", review("v1", `{"uid":"not-the-request","result":{"status":"Success"},"convertedObjects":[`+converted(okMeta, okSpec)+`]}`)},
		{"failed result with message", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Failure","message":"cannot convert size 3"}}`)},
		{"failed result without message", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Failure"}}`)},
		{"no result", "[v1]", review("v1", `{"uid":"UID","convertedObjects":[]}`)},
		{"no response", "[v1]", review("v1", `null`)},
		{"wrong count", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[]}`)},
		{"two objects", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+converted(okMeta, okSpec)+`,`+converted(okMeta, okSpec)+`]}`)},
		{"wrong apiVersion", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+strings.Replace(converted(okMeta, okSpec), "example.com/v1", "example.com/v1alpha1", 1)+`]}`)},
		{"core apiVersion", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+strings.Replace(converted(okMeta, okSpec), "example.com/v1", "v1", 1)+`]}`)},
		{"changed kind", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+strings.Replace(converted(okMeta, okSpec), `"Widget"`, `"Gadget"`, 1)+`]}`)},
		{"no kind", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[{"apiVersion":"example.com/v1","metadata":{`+okMeta+`}}]}`)},
		{"null object", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[null]}`)},
		{"string object", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":["x"]}`)},
		{"changed name", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+converted(`"name":"other","namespace":"ns","uid":"u-1"`, okSpec)+`]}`)},
		{"changed namespace", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+converted(`"name":"w","namespace":"other","uid":"u-1"`, okSpec)+`]}`)},
		{"changed uid", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+converted(`"name":"w","namespace":"ns","uid":"u-2"`, okSpec)+`]}`)},
		{"metadata dropped", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[{"apiVersion":"example.com/v1","kind":"Widget","spec":{}}]}`)},
		{"added label and annotation", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+converted(okMeta+`,"labels":{"app":"a","tier":"web"},"annotations":{"converted-from":"v1alpha1"},"resourceVersion":"99","generation":7`, okSpec)+`]}`)},
		{"invalid label", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+converted(okMeta+`,"labels":{"app":"a","bad key!":"x y"}`, okSpec)+`]}`)},
		{"invalid annotation", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+converted(okMeta+`,"annotations":{"-bad":"x"}`, okSpec)+`]}`)},
		{"non-string label", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+converted(okMeta+`,"labels":{"n":1}`, okSpec)+`]}`)},
		{"labels not a map", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+converted(okMeta+`,"labels":"x"`, okSpec)+`]}`)},
		{"pruned and defaults not applied", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+converted(okMeta, `{"replicas":3,"size":3,"extra":{"a":1}}`)+`]}`)},
		{"v1beta1 answer to a v1 request", "[v1]", review("v1beta1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+converted(okMeta, okSpec)+`]}`)},
		{"v1 answer to a v1beta1 request", "[v1beta1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+converted(okMeta, okSpec)+`]}`)},
		{"answer without apiVersion and kind", "[v1]", `{"response":{"uid":"UID","result":{"status":"Success"},"convertedObjects":[` + converted(okMeta, okSpec) + `]}}`},
		{"v1beta1 answer without apiVersion and kind", "[v1beta1]", `{"response":{"uid":"UID","result":{"status":"Success"},"convertedObjects":[` + converted(okMeta, okSpec) + `]}}`},
		{"Status answer", "[v1]", `{"apiVersion":"v1","kind":"Status","status":"Failure","message":"boom"}`},
		{"unknown kind answer", "[v1]", `{"apiVersion":"example.com/v1","kind":"Nope"}`},
		{"invalid apiVersion answer", "[v1]", `{"apiVersion":"a/b/c","kind":"ConversionReview"}`},
		{"not JSON", "[v1]", `this is not json`},
		{"empty answer", "[v1]", ``},
		{"blank answer", "[v1]", " \n"},
		{"YAML answer", "[v1]", "apiVersion: apiextensions.k8s.io/v1\nkind: ConversionReview\nresponse:\n  uid: UID\n  result: {status: Success}\n  convertedObjects:\n  - " + converted(okMeta, okSpec) + "\n"},
		{"array answer", "[v1]", `[1,2]`},
		{"uid not a string", "[v1]", review("v1", `{"uid":5,"result":{"status":"Success"},"convertedObjects":[]}`)},
		{"code not an int32", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Failure","code":1.5}}`)},
		{"convertedObjects not a list", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":{}}`)},
		{"response not an object", "[v1]", review("v1", `"yes"`)},
		{"keys matched case-sensitively", "[v1]", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","Response":{"uid":"UID"}}`},
		{"kind key of another case", "[v1]", `{"apiVersion":"apiextensions.k8s.io/v1","Kind":"ConversionReview","response":{"uid":"UID"}}`},
		{"labels and annotations removed", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+converted(okMeta+`,"labels":null`, okSpec)+`]}`)},
		{"annotations too large", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+converted(okMeta+`,"annotations":{"big":"`+strings.Repeat("x", 262144)+`"}`, okSpec)+`]}`)},
		{"success with a message", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success","message":"fine"},"convertedObjects":[`+converted(okMeta, okSpec)+`]}`)},
		{"status lower case", "[v1]", review("v1", `{"uid":"UID","result":{"status":"success"},"convertedObjects":[`+converted(okMeta, okSpec)+`]}`)},
		{"no kind, keys unsorted and spaced", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[ {"metadata": {"name":"w"}, "apiVersion" : "example.com/v1"} ]}`)},
		{"object with invalid apiVersion", "[v1]", review("v1", `{"uid":"UID","result":{"status":"Success"},"convertedObjects":[`+strings.Replace(converted(okMeta, okSpec), "example.com/v1", "a/b/c", 1)+`]}`)},
		{"unknown fields ignored", "[v1]", review("v1", `{"uid":"UID","Uid":"x","result":{"status":"Success","extra":1},"convertedObjects":[`+converted(okMeta, okSpec)+`]}`)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			crdYAML := strings.NewReplacer("REVIEWS", tc.reviews, "URL", ts.URL, "CABUNDLE", base64.StdEncoding.EncodeToString(ca)).Replace(webhookCRD)
			v1, err := upstream.DecodeCRD([]byte(crdYAML))
			if err != nil {
				t.Fatal(err)
			}
			compiled, err := upstream.CreateCRD(v1)
			if err != nil || len(compiled.Errors) > 0 {
				t.Fatalf("upstream CRD: %v %v", err, compiled.Errors)
			}
			served, err := upstream.Serve(compiled)
			if err != nil {
				t.Fatal(err)
			}
			srv.mu.Lock()
			srv.answer, srv.request = tc.answer, nil
			srv.mu.Unlock()
			want, err := served.ReadStored([]byte(stored), "v1")
			if err != nil {
				t.Fatal(err)
			}
			srv.mu.Lock()
			request := srv.request
			srv.mu.Unlock()
			if request == nil {
				t.Fatalf("upstream did not call the webhook: %+v", want)
			}
			response := strings.ReplaceAll(tc.answer, "UID", uidOf(t, request))
			got, err := conversion.Check([]byte(crdYAML), request, []byte(response), conversion.Options{})
			if err != nil {
				t.Fatalf("crdlab: %v", err)
			}
			if got.Error != want.Error {
				t.Fatalf("error:\ncrdlab   %q\nupstream %q", got.Error, want.Error)
			}
			t.Logf("verdict: %q", want.Error)
			if want.Error != "" {
				return
			}
			if len(got.Objects) != 1 {
				t.Fatalf("crdlab returned %d objects", len(got.Objects))
			}
			g, _ := upstream.Normalize(got.Objects[0].Object)
			w, _ := upstream.Normalize(want.Object)
			if !reflect.DeepEqual(g, w) {
				t.Errorf("object:\ncrdlab   %v\nupstream %v", g, w)
			}
			if fmt.Sprint(got.Objects[0].Pruned) != fmt.Sprint(want.Pruned) {
				t.Errorf("pruned: crdlab %q, upstream %q", got.Objects[0].Pruned, want.Pruned)
			}
		})
	}
}

func uidOf(t *testing.T, request []byte) string {
	var r struct {
		Request struct {
			UID string `json:"uid"`
		} `json:"request"`
	}
	if err := json.Unmarshal(request, &r); err != nil || r.Request.UID == "" {
		t.Fatalf("request without uid: %s", request)
	}
	return r.Request.UID
}
