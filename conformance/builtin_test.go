package conformance

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/internal/builtin"
)

// The built-in kinds crdlab validates natively (internal/builtin's
// strategies: ConfigMap, Secret, Namespace, ServiceAccount, PriorityClass,
// IngressClass, the four RBAC kinds, Lease, PodDisruptionBudget,
// StorageClass, NetworkPolicy) against kube-apiserver 1.37's own
// decoding, defaulting and registry strategies (upstream.ValidateBuiltin):
// the same decode error, the same Invalid message (errors in order), the
// same warnings and the same object, for the cases of
// testdata/builtins/*.yaml.

// builtinCase is one case of testdata/builtins: the request body as YAML
// (object, converted as kubectl does) or as raw JSON (json, to keep
// duplicate fields), the stored object of an update (old), the
// fieldValidation directive, and whether the errors may come in any order
// (upstream ranges over Go maps: labels, annotations, data keys).
type builtinCase struct {
	Name            string `json:"name"`
	Object          string `json:"object"`
	JSON            string `json:"json"`
	Old             string `json:"old"`
	FieldValidation string `json:"fieldValidation"`
	Unordered       bool   `json:"unordered"`
}

func loadBuiltinCases(t *testing.T) (ids []string, cases []builtinCase) {
	t.Helper()
	files, err := filepath.Glob("testdata/builtins/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var file struct {
			Cases []builtinCase `json:"cases"`
		}
		if err := yaml.UnmarshalStrict(data, &file); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range file.Cases {
			ids = append(ids, strings.TrimSuffix(filepath.Base(f), ".yaml")+"/"+c.Name)
			cases = append(cases, c)
		}
	}
	return ids, cases
}

func builtinJSON(t *testing.T, doc string) []byte {
	t.Helper()
	js, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// builtinAnswer is one side's answer, rendered for comparison.
type builtinAnswer struct {
	DecodeError string
	Invalid     string
	Warnings    []string
	Object      map[string]interface{}
}

// invalidMessage renders errors.NewInvalid's message from crdlab's outcome.
func invalidMessage(o *builtin.Outcome) string {
	if len(o.Errors) == 0 {
		return ""
	}
	kind := o.Resource.Kind
	if o.Resource.Group != "" {
		kind += "." + o.Resource.Group
	}
	return fmt.Sprintf("%s %q is invalid: %v", kind, o.Name, o.Errors.ToAggregate())
}

// sortedAggregate sorts the errors of an Invalid message "K "n" is invalid:
// [a, b]" (for unordered cases).
func sortedAggregate(msg string) string {
	head, list, ok := strings.Cut(msg, " is invalid: [")
	if !ok {
		return msg
	}
	items := strings.Split(strings.TrimSuffix(list, "]"), ", ")
	sort.Strings(items)
	return head + " is invalid: [" + strings.Join(items, ", ") + "]"
}

func TestBuiltinKindsMatchKubeAPIServer(t *testing.T) {
	ids, cases := loadBuiltinCases(t)
	// verdicts counts kube-apiserver's answers: the cases must exercise
	// every outcome, or agreeing would prove little.
	verdicts := map[string]int{}
	defer func() {
		t.Logf("kube-apiserver verdicts: %v", verdicts)
		for v, least := range map[string]int{"valid": 10, "invalid": 10, "decode error": 10, "warning": 5} {
			if verdicts[v] < least {
				t.Errorf("only %d cases end with %s", verdicts[v], v)
			}
		}
	}()
	for i, c := range cases {
		t.Run(ids[i], func(t *testing.T) {
			body := []byte(c.JSON)
			if c.JSON == "" {
				body = builtinJSON(t, c.Object)
			}
			var old []byte
			if c.Old != "" {
				old = builtinJSON(t, c.Old)
			}
			up, err := upstream.ValidateBuiltin(upstream.BuiltinRequest{Object: body, Old: old, FieldValidation: c.FieldValidation})
			if err != nil {
				t.Fatalf("upstream: %v", err)
			}
			if up.UID != "" {
				up.Invalid = strings.ReplaceAll(up.Invalid, up.UID, builtin.GeneratedJobUID)
			}
			want := builtinAnswer{DecodeError: up.DecodeError, Invalid: up.Invalid, Warnings: up.Warnings, Object: withUID(up.Object, up.UID, builtin.GeneratedJobUID)}
			switch {
			case up.DecodeError != "":
				verdicts["decode error"]++
			case up.Invalid != "":
				verdicts["invalid"]++
			default:
				verdicts["valid"]++
			}
			if len(up.Warnings) > 0 {
				verdicts["warning"]++
			}
			o, err := builtin.Serve(builtin.Request{Body: body, Old: old, FieldValidation: c.FieldValidation})
			if err != nil {
				t.Fatalf("crdlab: %v", err)
			}
			if !o.Modelled {
				t.Fatalf("crdlab: %s is not modelled", o.Resource.Kind)
			}
			got := builtinAnswer{DecodeError: o.DecodeError, Invalid: invalidMessage(o), Warnings: o.Warnings, Object: o.Object}
			if len(got.Warnings) == 0 {
				got.Warnings = nil
			}
			if got.Invalid != "" || got.DecodeError != "" {
				got.Object = nil
			}
			if c.Unordered {
				want.Invalid, got.Invalid = sortedAggregate(want.Invalid), sortedAggregate(got.Invalid)
			}
			// Compare the objects as JSON (numbers alike on both sides).
			normalize := func(m map[string]interface{}) interface{} {
				if m == nil {
					return nil
				}
				b, _ := json.Marshal(m)
				var v interface{}
				_ = json.Unmarshal(b, &v)
				return v
			}
			if d := cmp.Diff(want.DecodeError, got.DecodeError); d != "" {
				t.Errorf("decode error (-kube-apiserver +crdlab):\n%s", d)
			}
			if d := cmp.Diff(want.Invalid, got.Invalid); d != "" {
				t.Errorf("invalid (-kube-apiserver +crdlab):\n%s", d)
			}
			if d := cmp.Diff(want.Warnings, got.Warnings); d != "" {
				t.Errorf("warnings (-kube-apiserver +crdlab):\n%s", d)
			}
			if d := cmp.Diff(normalize(want.Object), normalize(got.Object)); d != "" {
				t.Errorf("object (-kube-apiserver +crdlab):\n%s", d)
			}
		})
	}
}

// TestBuiltinLargeObjectsMatchKubeAPIServer: the 1 MiB bound on a
// ConfigMap's data and binaryData together and on a Secret's data, and a
// large label set, with bodies too large for a case file.
func TestBuiltinLargeObjectsMatchKubeAPIServer(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	labels := make([]string, 0, 3000)
	for i := 0; i < 3000; i++ {
		labels = append(labels, fmt.Sprintf(`"k%d":"v"`, i))
	}
	bodies := map[string]string{
		"configmap at the bound":         `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"` + big + `"}}`,
		"configmap over the bound":       `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"` + big + `x"}}`,
		"configmap data and binaryData":  `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"` + big[:1<<19] + `"},"binaryData":{"b":"` + base64Of(1<<19+3) + `"}}`,
		"secret over the bound":          `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"a"},"stringData":{"k":"` + big + `x"}}`,
		"secret over the bound, bad key": `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"a"},"stringData":{"k/":"` + big + `x"}}`,
		"3000 labels":                    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{` + strings.Join(labels, ",") + `}}}`,
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			up, err := upstream.ValidateBuiltin(upstream.BuiltinRequest{Object: []byte(body)})
			if err != nil {
				t.Fatal(err)
			}
			o, err := builtin.Serve(builtin.Request{Body: []byte(body)})
			if err != nil {
				t.Fatal(err)
			}
			if o.DecodeError != up.DecodeError || invalidMessage(o) != up.Invalid {
				t.Fatalf("kube-apiserver: %q %q\ncrdlab:         %q %q", up.DecodeError, up.Invalid, o.DecodeError, invalidMessage(o))
			}
		})
	}
}

// base64Of is the base64 text of n zero bytes.
func base64Of(n int) string {
	return base64.StdEncoding.EncodeToString(make([]byte, n))
}

// withUID replaces the uid a create generated (random) by the one crdlab
// assumes, where the object carries it (a Job's selector and labels).
func withUID(obj map[string]interface{}, generated, assumed string) map[string]interface{} {
	if obj == nil || generated == "" {
		return obj
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return obj
	}
	var out map[string]interface{}
	if err := json.Unmarshal([]byte(strings.ReplaceAll(string(b), generated, assumed)), &out); err != nil {
		return obj
	}
	return out
}
