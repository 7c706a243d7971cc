package admission

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/ssa"
)

func widgetConverter(t *testing.T) *ssa.TypeConverter {
	t.Helper()
	data, err := os.ReadFile("testdata/mutating-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	def, err := crd.DecodeOne(data, "mutating-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tc, err := ssa.NewTypeConverter(def)
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

func mutate(t *testing.T, docs string, obj string) *MutationResult {
	t.Helper()
	in, err := DecodeFile([]byte(docs), "policies.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMutator(MutatingConfig{Policies: in.MutatingPolicies, Bindings: in.MutatingBindings, Objects: in.Objects})
	if err != nil {
		t.Fatal(err)
	}
	o, err := DecodeObject([]byte(obj))
	if err != nil {
		t.Fatal(err)
	}
	req := &Request{Operation: "CREATE", Kind: GVK{"example.com", "v1", "Widget"}, Resource: GVR{"example.com", "v1", "widgets"},
		Namespace: "default", Name: metaString(o, "name"), Object: o}
	return m.Mutate(req, MutationTarget{TypeConverter: widgetConverter(t)})
}

func toJSON(v interface{}) string {
	b, _ := json.Marshal(v)
	return string(b)
}

const widgetRules = `
  matchConstraints:
    resourceRules:
    - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}
`

const widget = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default"},"spec":{"replicas":2,"tags":["a"],"ports":[{"name":"grpc","port":90}]}}`

func TestDecodeMutatingPolicyAppliesTheAPIServersDefaults(t *testing.T) {
	in, err := DecodeFile([]byte(`apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: p}
spec:`+widgetRules+`  mutations:
  - patchType: JSONPatch
    jsonPatch: {expression: "[]"}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: b}
spec:
  policyName: p
  matchResources: {}
`), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(in.MutatingPolicies) != 1 || len(in.MutatingBindings) != 1 || len(in.Policies) != 0 {
		t.Fatalf("decoded %d mutating policies, %d bindings, %d validating policies", len(in.MutatingPolicies), len(in.MutatingBindings), len(in.Policies))
	}
	got := toJSON(in.MutatingPolicies[0].Spec) + "\n" + toJSON(in.MutatingBindings[0].Spec)
	want := `{"matchConstraints":{"namespaceSelector":{},"objectSelector":{},"resourceRules":[{"operations":["CREATE"],"apiGroups":["example.com"],"apiVersions":["v1"],"resources":["widgets"],"scope":"*"}],"matchPolicy":"Equivalent"},"mutations":[{"patchType":"JSONPatch","jsonPatch":{"expression":"[]"}}],"failurePolicy":"Fail"}
{"policyName":"p","matchResources":{"namespaceSelector":{},"objectSelector":{},"matchPolicy":"Equivalent"}}`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestDecodeMutatingPolicyRefusesUnknownFieldsAtTheirLine(t *testing.T) {
	_, err := DecodeFile([]byte(`apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: p}
spec:
  mutations:
  - patchType: JSONPatch
    jsonPatch: {expresion: "[]"}
`), "p.yaml")
	want := `p.yaml:7:17: unknown field "spec.mutations[0].jsonPatch.expresion"`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

func mapYAML(name, extra, mutation string) string {
	return `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: ` + name + `}
spec:` + widgetRules + extra + `  mutations:
` + mutation + `---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: ` + name + `}
spec: {policyName: ` + name + `}
---
`
}

func TestMutateReinvokesIfNeededPoliciesAfterALaterChange(t *testing.T) {
	// a (IfNeeded) copies replicas into a label; b, after it, changes
	// replicas: a runs again in the reinvocation pass and sees 9.
	docs := mapYAML("a", "  reinvocationPolicy: IfNeeded\n", `  - patchType: ApplyConfiguration
    applyConfiguration: {expression: 'Object{metadata: Object.metadata{labels: {"replicas": string(object.spec.replicas)}}}'}
`) + mapYAML("b", "", `  - patchType: ApplyConfiguration
    applyConfiguration: {expression: 'Object{spec: Object.spec{replicas: 9}}'}
`)
	r := mutate(t, docs, widget)
	if r.Denied != nil {
		t.Fatal(r.Denied.Message)
	}
	got := toJSON(r.Object["metadata"]) + " " + toJSON(r.Mutations)
	want := `{"labels":{"replicas":"9"},"name":"w","namespace":"default"} [{"policy":"a","binding":"a","mutation":0,"patchType":"ApplyConfiguration","changed":["/metadata/labels"]},{"policy":"b","binding":"b","mutation":0,"patchType":"ApplyConfiguration","changed":["/spec/replicas"]},{"policy":"a","binding":"a","mutation":0,"patchType":"ApplyConfiguration","reinvocation":true,"changed":["/metadata/labels/replicas"]}]`
	if got != want || !r.Reinvoked {
		t.Errorf("got (reinvoked %v):\n%s\nwant:\n%s", r.Reinvoked, got, want)
	}
	// With reinvocationPolicy Never, the label keeps the first value.
	r = mutate(t, strings.Replace(docs, "  reinvocationPolicy: IfNeeded\n", "", 1), widget)
	if l := toJSON(r.Object["metadata"].(map[string]interface{})["labels"]); l != `{"replicas":"2"}` {
		t.Errorf("Never: labels %s", l)
	}
}

func TestMutateFailurePolicyDecidesOnErrors(t *testing.T) {
	atomic := `  - patchType: ApplyConfiguration
    applyConfiguration: {expression: 'Object{spec: Object.spec{tags: ["b"]}}'}
  - patchType: ApplyConfiguration
    applyConfiguration: {expression: 'Object{spec: Object.spec{replicas: 4}}'}
`
	for _, tt := range []struct {
		name, extra, want string
	}{
		{"Fail", "", `denied 403 Invalid: policy 'p' with binding 'p' denied request: error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.tags`},
		{"Ignore", "  failurePolicy: Ignore\n", `replicas 4`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := mutate(t, mapYAML("p", tt.extra, atomic), widget)
			got := ""
			if r.Denied != nil {
				got = "denied " + toJSON(r.Denied.Code) + " " + r.Denied.Reason + ": " + r.Denied.Message
			} else {
				got = "replicas " + toJSON(r.Object["spec"].(map[string]interface{})["replicas"])
			}
			if got != tt.want {
				t.Errorf("got %s\nwant %s", got, tt.want)
			}
			// The failed mutation is recorded with its error either way.
			if len(r.Mutations) != 2 || r.Mutations[0].Error == "" || r.Mutations[1].Error != "" {
				t.Errorf("mutations %s", toJSON(r.Mutations))
			}
		})
	}
}

func TestMutateWithoutASchemaIsServiceUnavailable(t *testing.T) {
	in, err := DecodeFile([]byte(mapYAML("p", "", `  - patchType: JSONPatch
    jsonPatch: {expression: '[JSONPatch{op: "add", path: "/spec/x", value: 1}]'}
`)), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMutator(MutatingConfig{Policies: in.MutatingPolicies, Bindings: in.MutatingBindings})
	if err != nil {
		t.Fatal(err)
	}
	o, _ := DecodeObject([]byte(widget))
	r := m.Mutate(&Request{Operation: "CREATE", Kind: GVK{"example.com", "v1", "Widget"}, Resource: GVR{"example.com", "v1", "widgets"}, Namespace: "default", Object: o}, MutationTarget{})
	if r.Denied == nil || r.Denied.Code != 503 || !strings.HasPrefix(r.Denied.Message, "Resource kind example.com/v1, Kind=Widget not found.") {
		t.Errorf("got %s", toJSON(r.Denied))
	}
}

func TestMutateLeavesTheRequestObjectAlone(t *testing.T) {
	o, _ := DecodeObject([]byte(widget))
	before := toJSON(o)
	in, _ := DecodeFile([]byte(mapYAML("p", "", `  - patchType: JSONPatch
    jsonPatch: {expression: '[JSONPatch{op: "replace", path: "/spec/replicas", value: 7}]'}
`)), "p.yaml")
	m, _ := NewMutator(MutatingConfig{Policies: in.MutatingPolicies, Bindings: in.MutatingBindings})
	r := m.Mutate(&Request{Operation: "CREATE", Kind: GVK{"example.com", "v1", "Widget"}, Resource: GVR{"example.com", "v1", "widgets"}, Namespace: "default", Object: o},
		MutationTarget{TypeConverter: widgetConverter(t)})
	if toJSON(o) != before {
		t.Errorf("request object changed: %s", toJSON(o))
	}
	if got := toJSON(r.Object["spec"]); got != `{"ports":[{"name":"grpc","port":90}],"replicas":7,"tags":["a"]}` {
		t.Errorf("mutated spec %s", got)
	}
}

func TestDiffPathsNamesEachChangedField(t *testing.T) {
	a := map[string]interface{}{"a": int64(1), "b": map[string]interface{}{"c/d": "x"}, "l": []interface{}{int64(1), int64(2)}, "gone": true}
	b := map[string]interface{}{"a": int64(2), "b": map[string]interface{}{"c/d": "y", "new": "z"}, "l": []interface{}{int64(1), int64(3)}}
	got := strings.Join(diffPaths(a, b), " ")
	if want := "/a /b/c~1d /b/new /gone /l/1"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if d := diffPaths(a, a); len(d) != 0 {
		t.Errorf("no change: %v", d)
	}
}

func TestEscapeJSONPointerKeyEscapesTildeThenSlash(t *testing.T) {
	for in, want := range map[string]string{"a/b": "a~1b", "a~b": "a~0b", "~/": "~0~1", "plain": "plain"} {
		if got := escapeJSONPointerKey(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

// FuzzDecodeAndMutate decodes arbitrary policy files and, when they
// decode, runs their mutating policies on a Widget: errors, never panics.
func FuzzDecodeAndMutate(f *testing.F) {
	f.Add([]byte(mapYAML("p", "  reinvocationPolicy: IfNeeded\n", `  - patchType: ApplyConfiguration
    applyConfiguration: {expression: 'Object{spec: Object.spec{free: Object.spec.free{x: [[1], [2]], y: {"a": [{"b": 1}]}}}}'}
`)))
	f.Add([]byte(mapYAML("p", "", `  - patchType: JSONPatch
    jsonPatch: {expression: '[JSONPatch{op: "move", from: "/spec", path: "/spec/x"}, JSONPatch{op: "add", path: "", value: 1}]'}
`)))
	f.Add([]byte(mapYAML("p", "", `  - patchType: JSONPatch
    jsonPatch: {expression: '[JSONPatch{op: "replace", path: "/metadata", value: Object.metadata{labels: {"a": "b"}}}]'}
`)))
	tc, err := func() (*ssa.TypeConverter, error) {
		data, err := os.ReadFile("testdata/mutating-crd.yaml")
		if err != nil {
			return nil, err
		}
		def, err := crd.DecodeOne(data, "mutating-crd.yaml")
		if err != nil {
			return nil, err
		}
		return ssa.NewTypeConverter(def)
	}()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := DecodeFile(data, "fuzz.yaml")
		if err != nil {
			return
		}
		m, err := NewMutator(MutatingConfig{Policies: in.MutatingPolicies, Bindings: in.MutatingBindings, Objects: in.Objects})
		if err != nil {
			return
		}
		o, _ := DecodeObject([]byte(widget))
		m.Mutate(&Request{Operation: "CREATE", Kind: GVK{"example.com", "v1", "Widget"}, Resource: GVR{"example.com", "v1", "widgets"},
			Namespace: "default", Object: o}, MutationTarget{TypeConverter: tc})
	})
}

func TestMutateIsSafeForConcurrentUse(t *testing.T) {
	in, err := DecodeFile([]byte(mapYAML("p", "  reinvocationPolicy: IfNeeded\n  variables:\n  - {name: r, expression: 'object.spec.replicas + 1'}\n", `  - patchType: ApplyConfiguration
    applyConfiguration: {expression: 'Object{spec: Object.spec{replicas: variables.r}}'}
  - patchType: JSONPatch
    jsonPatch: {expression: '[JSONPatch{op: "add", path: "/spec/tags/-", value: string(variables.r)}]'}
`)), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMutator(MutatingConfig{Policies: in.MutatingPolicies, Bindings: in.MutatingBindings})
	if err != nil {
		t.Fatal(err)
	}
	target := MutationTarget{TypeConverter: widgetConverter(t)}
	results := make(chan string, 8)
	for i := 0; i < 8; i++ {
		go func() {
			o, _ := DecodeObject([]byte(widget))
			r := m.Mutate(&Request{Operation: "CREATE", Kind: GVK{"example.com", "v1", "Widget"}, Resource: GVR{"example.com", "v1", "widgets"},
				Namespace: "default", Object: o}, target)
			results <- toJSON(r.Object["spec"])
		}()
	}
	// Variables are evaluated again for each mutation: the first pass
	// makes replicas 3 then appends "4"; the reinvocation pass makes
	// replicas 4 and appends "5".
	want := `{"ports":[{"name":"grpc","port":90}],"replicas":4,"tags":["a","4","5"]}`
	for i := 0; i < 8; i++ {
		if got := <-results; got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
}
