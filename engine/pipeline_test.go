package engine

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// widgetCRD has two served versions (v1beta1 deprecated), the status and
// scale subresources, defaults and a list-type set.
const widgetCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, default: 1}
              size: {type: string, enum: [S, M, L]}
              tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
          status:
            type: object
            properties:
              replicas: {type: integer, minimum: 0}
  - name: v1beta1
    served: true
    storage: false
    deprecated: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
`

func compileT(t *testing.T, src string) *CRD {
	t.Helper()
	c, err := Compile([]byte(src))
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	if errs := c.Errors(); len(errs) > 0 {
		t.Fatalf("CRD errors: %v", errs.ToAggregate())
	}
	return c
}

func messages(r *Result) []string {
	out := []string{}
	for _, e := range r.Errors {
		out = append(out, e.Error())
	}
	return out
}

func jsonOf(t *testing.T, v interface{}) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestValidatePipeline(t *testing.T) {
	c := compileT(t, widgetCRD)
	tests := []struct {
		name        string
		object      string
		opts        ValidateOptions
		wantObject  string // JSON; "" = do not check
		wantPruned  []string
		wantDecode  string
		wantErrors  []string
		wantWarning []string
	}{
		{
			name:       "create applies defaults, generation 1, default namespace and drops status",
			object:     `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{},"status":{"replicas":3}}`,
			wantObject: `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":1,"name":"w","namespace":"default"},"spec":{"replicas":1}}`,
			wantPruned: []string{}, wantErrors: []string{}, wantWarning: []string{},
		},
		{
			name:       "strict unknown and duplicate fields fail decoding in document order",
			object:     `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":"S","size":"M","foo":1}}`,
			wantDecode: `Widget in version "v1" cannot be handled as a Widget: strict decoding error: duplicate field "spec.size", unknown field "spec.foo"`,
			wantPruned: []string{"spec.foo"}, wantErrors: []string{}, wantWarning: []string{},
		},
		{
			name:        "warn turns strict errors into warnings and prunes",
			object:      `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"foo":1,"replicas":2}}`,
			opts:        ValidateOptions{FieldValidation: Warn},
			wantObject:  `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":1,"name":"w","namespace":"default"},"spec":{"replicas":2}}`,
			wantPruned:  []string{"spec.foo"},
			wantErrors:  []string{},
			wantWarning: []string{`unknown field "spec.foo"`},
		},
		{
			name:        "ignore prunes silently and keeps the last duplicate",
			object:      `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"foo":1,"replicas":2,"replicas":4}}`,
			opts:        ValidateOptions{FieldValidation: Ignore},
			wantObject:  `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":1,"name":"w","namespace":"default"},"spec":{"replicas":4}}`,
			wantPruned:  []string{"spec.foo"},
			wantErrors:  []string{},
			wantWarning: []string{},
		},
		{
			name:        "duplicate fields inside lists carry the index",
			object:      `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"tags":["a"]},"x":[{"a":1,"a":2}]}`,
			opts:        ValidateOptions{FieldValidation: Warn},
			wantPruned:  []string{"x"},
			wantErrors:  []string{},
			wantWarning: []string{`duplicate field "x[0].a"`, `unknown field "x"`},
		},
		{
			name:       "malformed JSON is reported as the API server's meta decoding error",
			object:     `{"apiVersion":"example.com/v1","kind":]}`,
			wantDecode: `the object provided is unrecognized (must be of type Widget): couldn't get version/kind; json parse error: invalid character ']' looking for beginning of value ({"apiVersion":"example.com/v1" ...)`,
			wantPruned: []string{}, wantErrors: []string{}, wantWarning: []string{},
		},
		{
			name:       "missing kind",
			object:     `{"apiVersion":"example.com/v1","metadata":{"name":"w"}}`,
			wantDecode: `the object provided is unrecognized (must be of type Widget): Object 'Kind' is missing in '{"apiVersion":"example.com/v1","metadata":{"name":"w"}}' ({"apiVersion":"example.com/v1" ...)`,
			wantPruned: []string{}, wantErrors: []string{}, wantWarning: []string{},
		},
		{
			name:       "a flow-style YAML document is converted, not rejected as JSON",
			object:     `{apiVersion: example.com/v1, kind: Widget, metadata: {name: w}}`,
			wantObject: `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":1,"name":"w","namespace":"default"}}`,
			wantPruned: []string{}, wantErrors: []string{}, wantWarning: []string{},
		},
		{
			name:       "missing kind with Ignore is reported with the endpoint's kind",
			object:     `{"apiVersion":"example.com/v1","metadata":{"name":"w"}}`,
			opts:       ValidateOptions{FieldValidation: Ignore},
			wantDecode: `Widget in version "v1" cannot be handled as a Widget: Object 'Kind' is missing in '{"apiVersion":"example.com/v1","metadata":{"name":"w"}}'`,
			wantPruned: []string{}, wantErrors: []string{}, wantWarning: []string{},
		},
		{
			name:       "apiVersion of another group does not match the endpoint",
			object:     `{"apiVersion":"other.com/v1","kind":"Widget","metadata":{"name":"w"}}`,
			opts:       ValidateOptions{Version: "v1"},
			wantDecode: `the API version in the data (other.com/v1) does not match the expected API version (example.com/v1)`,
			wantPruned: []string{}, wantErrors: []string{}, wantWarning: []string{},
		},
		{
			name:        "wrong kind is a kind error from ValidateTypeMeta",
			object:      `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"w"}}`,
			wantPruned:  []string{},
			wantErrors:  []string{`kind: Invalid value: "Gadget": must be Widget`},
			wantWarning: []string{},
		},
		{
			name:        "deprecated version warns first, preserve-unknown-fields keeps everything",
			object:      "apiVersion: example.com/v1beta1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  anything: [1, 2.5]\n",
			wantObject:  `{"apiVersion":"example.com/v1beta1","kind":"Widget","metadata":{"generation":1,"name":"w","namespace":"default"},"spec":{"anything":[1,2.5]}}`,
			wantPruned:  []string{},
			wantErrors:  []string{},
			wantWarning: []string{"example.com/v1beta1 Widget is deprecated; use example.com/v1 Widget"},
		},
		{
			name:        "scale replicas must be an integer",
			object:      `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":-1}}`,
			wantPruned:  []string{},
			wantErrors:  []string{`.spec.replicas: Invalid value: -1: should be a non-negative integer`},
			wantWarning: []string{},
		},
		{
			name:        "finalizer warnings are sorted",
			object:      `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","finalizers":["b.example.com","a"]}}`,
			wantPruned:  []string{},
			wantErrors:  []string{},
			wantWarning: []string{`metadata.finalizers: "a": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`, `metadata.finalizers: "b.example.com": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`},
		},
		{
			name:        "identical owner references are deduplicated with a warning",
			object:      `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"u1"},{"apiVersion":"v1","kind":"Pod","name":"p","uid":"u1"},{"apiVersion":"v1","kind":"Pod","name":"q","uid":"u1"}]}}`,
			wantObject:  `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":1,"name":"w","namespace":"default","ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"u1"},{"apiVersion":"v1","kind":"Pod","name":"q","uid":"u1"}]}}`,
			wantPruned:  []string{},
			wantErrors:  []string{},
			wantWarning: []string{".metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: u1"},
		},
		{
			name:       "generateName gets the fixed suffix, an absent spec is not defaulted",
			object:     `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generateName":"w-"}}`,
			wantObject: `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generateName":"w-","generation":1,"name":"w-xxxxx","namespace":"default"}}`,
			wantPruned: []string{}, wantErrors: []string{}, wantWarning: []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := c.Validate([]byte(tt.object), tt.opts)
			if err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if res.DecodeError != tt.wantDecode {
				t.Errorf("DecodeError:\n got %q\nwant %q", res.DecodeError, tt.wantDecode)
			}
			if got := messages(res); !reflect.DeepEqual(got, tt.wantErrors) {
				t.Errorf("Errors:\n got %q\nwant %q", got, tt.wantErrors)
			}
			if !reflect.DeepEqual(res.Warnings, tt.wantWarning) {
				t.Errorf("Warnings:\n got %q\nwant %q", res.Warnings, tt.wantWarning)
			}
			if !reflect.DeepEqual(res.Pruned, tt.wantPruned) {
				t.Errorf("Pruned:\n got %q\nwant %q", res.Pruned, tt.wantPruned)
			}
			if tt.wantDecode != "" && res.Object != nil {
				t.Errorf("Object = %v, want nil after a decoding failure", res.Object)
			}
			if tt.wantObject != "" {
				if got := jsonOf(t, res.Object); got != tt.wantObject {
					t.Errorf("Object:\n got %s\nwant %s", got, tt.wantObject)
				}
			}
		})
	}
}

func TestValidateUpdate(t *testing.T) {
	c := compileT(t, widgetCRD)
	old := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default","generation":4,"resourceVersion":"7","uid":"u-1"},"spec":{"replicas":2},"status":{"replicas":2}}`
	tests := []struct {
		name       string
		object     string
		sub        string
		wantObject string
		wantErrors []string
	}{
		{
			name:       "spec change bumps generation and keeps the old status",
			object:     `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"replicas":3},"status":{"replicas":9}}`,
			wantObject: `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":5,"name":"w","namespace":"default","resourceVersion":"7","uid":"u-1"},"spec":{"replicas":3},"status":{"replicas":2}}`,
			wantErrors: []string{},
		},
		{
			name:       "metadata-only change keeps the generation",
			object:     `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","labels":{"a":"b"}},"spec":{"replicas":2}}`,
			wantObject: `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":4,"labels":{"a":"b"},"name":"w","namespace":"default","resourceVersion":"7","uid":"u-1"},"spec":{"replicas":2},"status":{"replicas":2}}`,
			wantErrors: []string{},
		},
		{
			name:       "status update keeps everything but the status",
			object:     `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","labels":{"x":"y"}},"spec":{"replicas":9},"status":{"replicas":5}}`,
			sub:        "status",
			wantObject: `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":4,"name":"w","namespace":"default","resourceVersion":"7","uid":"u-1"},"spec":{"replicas":2},"status":{"replicas":5}}`,
			wantErrors: []string{},
		},
		{
			name:   "status update validates the status with the status schema",
			object: `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"status":{"replicas":-5}}`,
			sub:    "status",
			wantErrors: []string{
				`status.replicas: Invalid value: -5: replicas in body should be greater than or equal to 0`,
				`.status.replicas: Invalid value: -5: should be a non-negative integer`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := c.Validate([]byte(tt.object), ValidateOptions{Old: []byte(old), Subresource: tt.sub})
			if err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if res.DecodeError != "" {
				t.Fatalf("DecodeError: %s", res.DecodeError)
			}
			if got := messages(res); !reflect.DeepEqual(got, tt.wantErrors) {
				t.Errorf("Errors:\n got %q\nwant %q", got, tt.wantErrors)
			}
			if tt.wantObject != "" {
				if got := jsonOf(t, res.Object); got != tt.wantObject {
					t.Errorf("Object:\n got %s\nwant %s", got, tt.wantObject)
				}
			}
		})
	}
}

func TestValidateMisuse(t *testing.T) {
	c := compileT(t, widgetCRD)
	obj := []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"}}`)
	tests := []struct {
		name string
		opts ValidateOptions
		want string
	}{
		{"unknown version", ValidateOptions{Version: "v9"}, `version "v9" is not served`},
		{"status without old", ValidateOptions{Subresource: "status"}, "needs the old object"},
		{"unknown subresource", ValidateOptions{Subresource: "scale"}, `unsupported subresource "scale"`},
		{"bad field validation", ValidateOptions{FieldValidation: "strict"}, `invalid fieldValidation "strict"`},
		{"undecodable old object", ValidateOptions{Old: []byte("{")}, "old object:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Validate(obj, tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestVersionSelection(t *testing.T) {
	c := compileT(t, widgetCRD)
	tests := []struct {
		name, object, version, wantDecode string
	}{
		{"object apiVersion picks a served version", `{"apiVersion":"example.com/v1beta1","kind":"Widget","metadata":{"name":"w"}}`, "", ""},
		{"unknown version falls back to the storage version", `{"apiVersion":"example.com/v7","kind":"Widget","metadata":{"name":"w"}}`, "",
			"the API version in the data (example.com/v7) does not match the expected API version (example.com/v1)"},
		{"explicit version wins", `{"apiVersion":"example.com/v1beta1","kind":"Widget","metadata":{"name":"w"}}`, "v1",
			"the API version in the data (example.com/v1beta1) does not match the expected API version (example.com/v1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := c.Validate([]byte(tt.object), ValidateOptions{Version: tt.version})
			if err != nil {
				t.Fatal(err)
			}
			if res.DecodeError != tt.wantDecode {
				t.Fatalf("DecodeError:\n got %q\nwant %q", res.DecodeError, tt.wantDecode)
			}
		})
	}
}

func TestHasBlockingErr(t *testing.T) {
	c := compileT(t, widgetCRD)
	if e := hasBlockingErr(nil); e != nil {
		t.Fatalf("no errors: got %v", e)
	}
	res, _ := c.Validate([]byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":"XL"}}`), ValidateOptions{})
	if e := hasBlockingErr(res.Errors); e == nil || !strings.HasSuffix(e.Error(), "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation") {
		t.Fatalf("NotSupported must block CEL; got %v", e)
	}
}

func TestCompareKubeAwareVersionStrings(t *testing.T) {
	ordered := []string{"v2", "v1", "v1beta2", "v1beta1", "v1alpha1", "foo1", "foo10"}
	for i := 0; i+1 < len(ordered); i++ {
		if compareKubeAwareVersionStrings(ordered[i], ordered[i+1]) <= 0 {
			t.Errorf("%s should sort after %s", ordered[i], ordered[i+1])
		}
	}
}
