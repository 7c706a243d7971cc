package upstream

import (
	"strings"
	"testing"
)

const widgetCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {a: {type: string, default: x}}}
          status: {type: object, properties: {phase: {type: string, enum: [Ready]}}}
`

// TestRunPinsTheHandlerGlue pins the parts of the serving path that the
// oracle reimplements (customresource_handler.go's unexported glue).
func TestRunPinsTheHandlerGlue(t *testing.T) {
	tests := []struct {
		name string
		req  Request
		want []string // substrings of the JSON report
		err  string
	}{
		{
			name: "create defaults, sets generation and the request namespace",
			req:  Request{Object: []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{}}`)},
			want: []string{`"a":"x"`, `"generation":1`, `"namespace":"default"`, `"errors":[]`},
		},
		{
			name: "strict unknown field is a decode error with the tracked path",
			req:  Request{Object: []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"b":1}}`)},
			want: []string{`strict decoding error: unknown field \"spec.b\"`, `"pruned":["spec.b"]`, `"result":null`},
		},
		{
			name: "warn turns the unknown field into a warning",
			req:  Request{FieldValidation: "Warn", Object: []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"b":1}}`)},
			want: []string{`"warnings":["unknown field \"spec.b\""]`},
		},
		{
			name: "duplicate JSON fields are seen because JSON bodies are sent as is",
			req:  Request{Object: []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"a":"1","a":"2"}}`)},
			want: []string{`duplicate field \"spec.a\"`},
		},
		{
			name: "create drops status with a status subresource",
			req:  Request{Object: []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"status":{"phase":"Nope"}}`)},
			want: []string{`"errors":[]`},
		},
		{
			name: "status update validates status only, with status paths",
			req: Request{Subresource: "status",
				Old:    []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default"}}`),
				Object: []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default"},"status":{"phase":"Nope"}}`)},
			want: []string{`"field":"status.phase"`, `"resourceVersion":"1"`},
		},
		{
			name: "resourceVersion mismatch is a conflict",
			req: Request{
				Old:    []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default","resourceVersion":"2"}}`),
				Object: []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default","resourceVersion":"3"}}`)},
			want: []string{`Operation cannot be fulfilled on widgets.example.com \"w\"`},
		},
		{
			name: "apiVersion of another version is rejected before validation",
			req:  Request{Version: "v1", Object: []byte(`{"apiVersion":"example.com/v2","kind":"Widget","metadata":{"name":"w"}}`)},
			want: []string{`the API version in the data (example.com/v2) does not match the expected API version (example.com/v1)`},
		},
		{
			name: "status update without old object is a misuse",
			req:  Request{Subresource: "status", Object: []byte(`{}`)},
			err:  "needs the old object",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.CRD = []byte(widgetCRD)
			rep, err := Run(tt.req)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("want error %q, got %v", tt.err, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			js := marshal(t, rep)
			for _, w := range tt.want {
				if !strings.Contains(js, w) {
					t.Errorf("report lacks %s:\n%s", w, js)
				}
			}
		})
	}
}

func TestCRDDecodeErrors(t *testing.T) {
	for _, tt := range []struct{ name, crd, want string }{
		{"not yaml", "a: [", "yaml"},
		{"wrong kind", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n", "ConfigMap"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Run(Request{CRD: []byte(tt.crd)})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("want error containing %q, got %v", tt.want, err)
			}
		})
	}
}

// TestCRDUnknownFieldRejected: with Strict (the default) an unknown field
// fails the create with the handler's message; Warn makes it a warning.
func TestCRDUnknownFieldRejected(t *testing.T) {
	crd := []byte(strings.Replace(widgetCRD, "scope: Namespaced", "scope: Namespaced\n  colour: blue", 1))
	rep, err := Run(Request{CRD: crd})
	if err != nil {
		t.Fatal(err)
	}
	want := `CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec.colour"`
	if rep.CRD.DecodeError != want {
		t.Errorf("decodeError = %q, want %q", rep.CRD.DecodeError, want)
	}
	rep, err = Run(Request{CRD: crd, CRDFieldValidation: "Warn"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.CRD.DecodeError != "" || len(rep.CRD.Warnings) == 0 || rep.CRD.Warnings[0] != `unknown field "spec.colour"` {
		t.Errorf("Warn: got %+v", rep.CRD)
	}
}

func marshal(t *testing.T, v interface{}) string {
	t.Helper()
	n, err := Normalize(v)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	enc := newEncoder(&b)
	if err := enc.Encode(n); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
