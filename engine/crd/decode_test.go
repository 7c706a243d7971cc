package crd

import (
	"errors"
	"strings"
	"testing"
)

const validCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names:
    plural: widgets
    kind: Widget
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
`

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{
			name: "unknown field names file, line, column and path",
			in:   strings.Replace(validCRD, "    schema:\n", "    shema: {}\n    schema:\n", 1),
			want: `crd.yaml:15:5: unknown field "spec.versions[0].shema"`,
		},
		{
			name: "unknown field deep in a schema uses map-key paths",
			in:   strings.Replace(validCRD, "        type: object\n", "        type: object\n        properties:\n          a: {tpye: string}\n", 1),
			want: `crd.yaml:19:15: unknown field "spec.versions[0].schema.openAPIV3Schema.properties[a].tpye"`,
		},
		{
			name: "duplicate field",
			in:   strings.Replace(validCRD, "  scope: Namespaced\n", "  scope: Namespaced\n  scope: Cluster\n", 1),
			want: `crd.yaml:11:3: duplicate field "spec.scope"`,
		},
		{
			name: "wrong type says what was expected",
			in:   strings.Replace(validCRD, "served: true", `served: "yes"`, 1),
			want: `crd.yaml:13:13: spec.versions[0].served: expected boolean, got string "yes"`,
		},
		{
			name: "number where a string is expected",
			in:   strings.Replace(validCRD, "kind: Widget", "kind: 5", 1),
			want: `crd.yaml:9:11: spec.names.kind: expected string, got number 5`,
		},
		{
			name: "int32 overflow",
			in:   strings.Replace(validCRD, "    storage: true\n", "    storage: true\n    additionalPrinterColumns:\n    - {name: a, type: string, jsonPath: .a, priority: 4294967296}\n", 1),
			want: `crd.yaml:16:55: spec.versions[0].additionalPrinterColumns[0].priority: expected 32-bit integer, got number 4294967296`,
		},
		{
			name: "object where an array is expected",
			in:   strings.Replace(validCRD, "  versions:\n", "  versions: {}\n  x:\n", 1),
			want: `crd.yaml:11:13: spec.versions: expected array, got object`,
		},
		{
			name: "wrong apiVersion",
			in:   strings.Replace(validCRD, "apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1", 1),
			want: `crd.yaml:1:13: apiVersion: unsupported apiVersion "apiextensions.k8s.io/v1beta1" (expected "apiextensions.k8s.io/v1")`,
		},
		{
			name: "wrong kind",
			in:   strings.Replace(validCRD, "kind: CustomResourceDefinition", "kind: Deployment", 1),
			want: `crd.yaml:2:7: kind: unsupported kind "Deployment" (expected "CustomResourceDefinition")`,
		},
		{
			name: "syntax error keeps the line of the second document",
			in:   validCRD + "---\nfoo: [\n",
			want: `crd.yaml:19: yaml: did not find expected node content`,
		},
		{
			// engine/crd used to cut here and drop "foo: 1"; kubectl's
			// YAMLReader rejects the line.
			name: "separator followed by content, as kubectl",
			in:   validCRD + "--- foo: 1\n" + validCRD,
			want: `crd.yaml:18: invalid Yaml document separator: foo: 1`,
		},
		{
			name: "error in the second item of a List",
			in:   "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(strings.TrimSuffix(validCRD, "\n"), "\n", "\n  ") + "\n- " + strings.ReplaceAll(strings.Replace(validCRD, "scope:", "scop:", 1), "\n", "\n  "),
			want: `crd.yaml:30:5: unknown field "items[1].spec.scop"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.in), "crd.yaml")
			if err == nil {
				t.Fatalf("want error %q, got none", tt.want)
			}
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("want *DecodeError, got %T", err)
			}
			if err.Error() != tt.want {
				t.Errorf("got  %s\nwant %s", err.Error(), tt.want)
			}
		})
	}
}

func TestDecodeYAML11ScalarsAsKubectl(t *testing.T) {
	// sigs.k8s.io/yaml (what kubectl uses) reads YAML 1.1: yes/no/on/off
	// are booleans, so the API server sees served: true.
	in := strings.Replace(validCRD, "served: true", "served: yes", 1)
	in = strings.Replace(in, "storage: true", "storage: on", 1)
	c, err := DecodeOne([]byte(in), "crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !c.Spec.Versions[0].Served || !c.Spec.Versions[0].Storage {
		t.Errorf("want served and storage true, got %+v", c.Spec.Versions[0])
	}
}

func TestDecodeAppliesV1Defaults(t *testing.T) {
	in := strings.Replace(validCRD, "  scope: Namespaced\n", "  scope: Namespaced\n  conversion:\n    strategy: Webhook\n    webhook:\n      conversionReviewVersions: [v1]\n      clientConfig:\n        service: {name: a, namespace: b}\n", 1)
	c, err := DecodeOne([]byte(in), "crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Spec.Names.Singular != "widget" {
		t.Errorf("singular = %q, want widget", c.Spec.Names.Singular)
	}
	if c.Spec.Names.ListKind != "WidgetList" {
		t.Errorf("listKind = %q, want WidgetList", c.Spec.Names.ListKind)
	}
	if p := c.Spec.Conversion.Webhook.ClientConfig.Service.Port; p == nil || *p != 443 {
		t.Errorf("service port = %v, want 443", p)
	}
	if got := c.Status.StoredVersions; len(got) != 1 || got[0] != "v1" {
		t.Errorf("storedVersions = %v, want [v1]", got)
	}

	c, err = DecodeOne([]byte(validCRD), "crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Spec.Conversion == nil || c.Spec.Conversion.Strategy != NoneConverter {
		t.Errorf("conversion = %+v, want strategy None", c.Spec.Conversion)
	}
}

func TestDecodeStreams(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		names []string
	}{
		{"single YAML document", validCRD, []string{"widgets.example.com"}},
		{"separators followed by comments", validCRD + "--- # next\n" + strings.ReplaceAll(validCRD, "widget", "gadget") + "---# last\n", []string{"widgets.example.com", "gadgets.example.com"}},
		{"multi-document stream with empty and comment-only documents", "---\n# comment\n---\n" + validCRD + "---\n" + strings.ReplaceAll(validCRD, "widget", "gadget") + "---\n", []string{"widgets.example.com", "gadgets.example.com"}},
		{"JSON object", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a.b.c"},"spec":{"group":"b.c","names":{"plural":"a","kind":"A"},"scope":"Cluster","versions":[]}}`, []string{"a.b.c"}},
		{"CustomResourceDefinitionList", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinitionList\nitems:\n- " + strings.ReplaceAll(validCRD, "\n", "\n  "), []string{"widgets.example.com"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			crds, err := Decode([]byte(tt.in), "in")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range crds {
				got = append(got, c.Metadata.Name)
			}
			if strings.Join(got, ",") != strings.Join(tt.names, ",") {
				t.Errorf("got %v, want %v", got, tt.names)
			}
		})
	}
}

func TestDecodeOneRejectsStreamsOfTwo(t *testing.T) {
	_, err := DecodeOne([]byte(validCRD+"---\n"+validCRD), "two.yaml")
	if err == nil || err.Error() != "two.yaml: expected exactly one CustomResourceDefinition, found 2" {
		t.Errorf("got %v", err)
	}
}

func TestDecodeKeepsDefaultValuesRawAndIntegersInt64(t *testing.T) {
	in := strings.Replace(validCRD, "        type: object\n", "        type: object\n        properties:\n          num: {type: integer, default: 5}\n          f: {type: number, default: 1.5}\n", 1)
	c, err := DecodeOne([]byte(in), "crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	props := c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties
	n, _ := props["num"].Default.Value()
	f, _ := props["f"].Default.Value()
	if _, ok := n.(int64); !ok {
		t.Errorf("default 5 decoded as %T, want int64", n)
	}
	if _, ok := f.(float64); !ok {
		t.Errorf("default 1.5 decoded as %T, want float64", f)
	}
}

func TestDecodeYAML11KeysBecomeStrings(t *testing.T) {
	// kubectl's YAMLToJSON resolves the plain key n as the boolean false and
	// writes it as "false": the API server sees a property named "false".
	in := strings.Replace(validCRD, "        type: object\n", "        type: object\n        properties:\n          n: {type: string}\n", 1)
	c, err := DecodeOne([]byte(in), "crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	props := c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties
	if _, ok := props["false"]; !ok || len(props) != 1 {
		t.Errorf("want a single property named \"false\", got %v", props)
	}
}

func TestDecodeNumbersAsKubectlSendsThem(t *testing.T) {
	// kubectl decodes JSON and YAML input into values and re-encodes them:
	// 1.0 reaches the API server as 1, an integer.
	in := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a.b.c"},"spec":{"group":"b.c","names":{"plural":"a","kind":"A"},"scope":"Cluster","versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"number","default":1.0}}}]}}`
	y := strings.Replace(validCRD, "        type: object\n", "        type: number\n        default: 1.0\n", 1)
	for name, data := range map[string]string{"a.json": in, "a.yaml": y} {
		c, err := DecodeOne([]byte(data), name)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := c.Spec.Versions[0].Schema.OpenAPIV3Schema.Default.Value()
		if _, ok := v.(int64); !ok {
			t.Errorf("%s: default 1.0 decoded as %T, want int64", name, v)
		}
	}
}
