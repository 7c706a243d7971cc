package builtin

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/schema"
)

// schemaKinds lists the "group/version/Kind" keys a release has schemas
// for, sorted.
func schemaKinds(rel kubeversion.Release) ([]string, error) {
	t, err := tableFor(rel)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(t.kinds))
	for k := range t.kinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out, nil
}

// TestEveryServedKindHasASchemaAtEveryRelease: the schemas cover exactly
// the kinds surface.tsv says each release serves.
func TestEveryServedKindHasASchemaAtEveryRelease(t *testing.T) {
	for _, rel := range kubeversion.Supported() {
		var served []string
		for k := range load().byRelease[rel.Minor()] {
			g := k.group
			if g == "" {
				g = "core"
			}
			served = append(served, g+"/"+k.version+"/"+k.kind)
		}
		sort.Strings(served)
		got, err := schemaKinds(rel)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if strings.Join(got, " ") != strings.Join(served, " ") {
			t.Errorf("%s: schemas for %v, surface serves %v", rel, got, served)
		}
		for _, k := range got {
			parts := strings.SplitN(k, "/", 3)
			s, err := SchemaFor(rel, parts[0], parts[1], parts[2])
			if err != nil {
				t.Errorf("%s %s: %v", rel, k, err)
				continue
			}
			if !strings.HasSuffix(s.Definition, "."+parts[2]) || s.Structural.Type != "object" {
				t.Errorf("%s %s: definition %s of type %q", rel, k, s.Definition, s.Structural.Type)
			}
			if _, ok := s.Structural.Properties["metadata"]; !ok {
				t.Errorf("%s %s: no metadata property", rel, k)
			}
		}
	}
}

// at follows a path of property names ("[]" for items, "{}" for
// additional properties) down a structural schema.
func at(s *schema.Structural, path string) *schema.Structural {
	for _, p := range strings.Split(path, ".") {
		if s == nil {
			return nil
		}
		switch p {
		case "[]":
			s = s.Items
		case "{}":
			if s.AdditionalProperties == nil {
				return nil
			}
			s = s.AdditionalProperties.Structural
		default:
			c, ok := s.Properties[p]
			if !ok {
				return nil
			}
			s = &c
		}
	}
	return s
}

func describe(s *schema.Structural) string {
	if s == nil {
		return "<none>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "type=%s", s.Type)
	if s.ValueValidation != nil {
		if s.ValueValidation.Format != "" {
			fmt.Fprintf(&b, " format=%s", s.ValueValidation.Format)
		}
		if len(s.ValueValidation.Required) > 0 {
			fmt.Fprintf(&b, " required=%s", strings.Join(s.ValueValidation.Required, ","))
		}
	}
	if s.XIntOrString {
		b.WriteString(" int-or-string")
	}
	if s.XListType != nil {
		fmt.Fprintf(&b, " list-type=%s", *s.XListType)
	}
	if len(s.XListMapKeys) > 0 {
		fmt.Fprintf(&b, " list-map-keys=%s", strings.Join(s.XListMapKeys, ","))
	}
	if s.XMapType != nil {
		fmt.Fprintf(&b, " map-type=%s", *s.XMapType)
	}
	if s.XPreserveUnknownFields {
		b.WriteString(" preserve-unknown-fields")
	}
	if s.XEmbeddedResource {
		b.WriteString(" embedded-resource")
	}
	return b.String()
}

// TestSchemaForCarriesUpstreamsTypesFormatsAndExtensions pins nodes of
// the generated schemas against k8s.io/kubernetes's openapi-spec/v3.
func TestSchemaForCarriesUpstreamsTypesFormatsAndExtensions(t *testing.T) {
	tests := []struct {
		minor                int
		group, version, kind string
		path, want           string
	}{
		{37, "apps", "v1", "Deployment", "spec", "type=object required=selector,template"},
		{37, "apps", "v1", "Deployment", "spec.replicas", "type=integer format=int32"},
		{37, "apps", "v1", "Deployment", "spec.strategy", "type=object patch-strategy=retainKeys"},
		{37, "apps", "v1", "Deployment", "spec.strategy.rollingUpdate.maxSurge", "type= int-or-string"},
		{37, "apps", "v1", "Deployment", "spec.template.spec.containers", "type=array list-type=map list-map-keys=name patch-merge-key=name patch-strategy=merge"},
		{37, "apps", "v1", "Deployment", "spec.template.spec.containers.[].resources.limits.{}", "type="},
		{37, "apps", "v1", "Deployment", "metadata.creationTimestamp", "type=string format=date-time"},
		{37, "apps", "v1", "Deployment", "metadata.labels", "type=object"},
		{37, "apps", "v1", "Deployment", "metadata.managedFields.[].fieldsV1", "type=object"},
		{37, "apps", "v1", "Deployment", "spec.selector", "type=object map-type=atomic"},
		{37, "", "v1", "ConfigMap", "binaryData.{}", "type=string format=byte"},
		{37, "", "v1", "Pod", "spec.containers.[].ports", "type=array list-type=map list-map-keys=containerPort,protocol patch-merge-key=containerPort patch-strategy=merge"},
		{37, "", "v1", "Service", "spec.ports.[].targetPort", "type= int-or-string"},
		{37, "batch", "v1", "Job", "spec.backoffLimit", "type=integer format=int32"},
		{37, "coordination.k8s.io", "v1", "Lease", "spec.renewTime", "type=string format=date-time"},
		{37, "apps", "v1", "ControllerRevision", "data", "type=object"},
		{31, "flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema", "spec.matchingPrecedence", "type=integer format=int32"},
		{37, "apiextensions.k8s.io", "v1", "CustomResourceDefinition", "spec.versions.[].schema.openAPIV3Schema.properties.{}", "type=object preserve-unknown-fields"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("1.%d %s %s", tt.minor, tt.kind, tt.path), func(t *testing.T) {
			s, err := SchemaFor(kubeversion.Of(tt.minor), tt.group, tt.version, tt.kind)
			if err != nil {
				t.Fatal(err)
			}
			got := describe(at(s.Structural, tt.path))
			if p, ok := s.Patches[tt.path]; ok {
				if p.MergeKey != "" {
					got += " patch-merge-key=" + p.MergeKey
				}
				if p.Strategy != "" {
					got += " patch-strategy=" + p.Strategy
				}
			}
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestSchemaForNamesEachDefinitionsGoType: the json decoder's type names.
func TestSchemaForNamesEachDefinitionsGoType(t *testing.T) {
	s, err := SchemaFor(kubeversion.Of(37), "apps", "v1", "Deployment")
	if err != nil {
		t.Fatal(err)
	}
	for def, want := range map[string]string{
		"io.k8s.api.apps.v1.Deployment":                   "v1.Deployment",
		"io.k8s.api.apps.v1.DeploymentSpec":               "v1.DeploymentSpec",
		"io.k8s.api.core.v1.Container":                    "v1.Container",
		"io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": "v1.ObjectMeta",
		"io.k8s.apimachinery.pkg.api.resource.Quantity":   "resource.Quantity",
		"io.k8s.apimachinery.pkg.util.intstr.IntOrString": "intstr.IntOrString",
		"io.k8s.apimachinery.pkg.apis.meta.v1.Time":       "v1.Time",
		"io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1":   "v1.FieldsV1",
	} {
		if got := s.GoTypes[def]; got != want {
			t.Errorf("%s: Go type %q, want %q", def, got, want)
		}
	}
	if s.Definition != "io.k8s.api.apps.v1.Deployment" {
		t.Errorf("definition %s", s.Definition)
	}
}

// TestSchemaForRefusesWhatTheReleaseDoesNotServe: removed versions, betas
// off by default, and an unknown release.
func TestSchemaForRefusesWhatTheReleaseDoesNotServe(t *testing.T) {
	tests := []struct {
		minor                int
		group, version, kind string
		want                 string
	}{
		{37, "extensions", "v1beta1", "Ingress", "Kubernetes 1.37 serves no extensions/v1beta1 Ingress"},
		{37, "flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema", "Kubernetes 1.37 serves no flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema"},
		{37, "core", "v1", "Widget", "Kubernetes 1.37 serves no v1 Widget"},
		{30, "", "v1", "Pod", "no built-in schemas for Kubernetes 1.30"},
	}
	for _, tt := range tests {
		_, err := SchemaFor(kubeversion.Of(tt.minor), tt.group, tt.version, tt.kind)
		if err == nil || err.Error() != tt.want {
			t.Errorf("1.%d %s/%s %s: error %v, want %q", tt.minor, tt.group, tt.version, tt.kind, err, tt.want)
		}
	}
}

// TestSchemaForGivesEachCallerItsOwnSchema: a caller may modify it.
func TestSchemaForGivesEachCallerItsOwnSchema(t *testing.T) {
	a, err := SchemaFor(kubeversion.Of(37), "", "v1", "Service")
	if err != nil {
		t.Fatal(err)
	}
	delete(a.Structural.Properties, "spec")
	b, err := SchemaFor(kubeversion.Of(37), "", "v1", "Service")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b.Structural.Properties["spec"]; !ok {
		t.Error("a second call sees the first caller's change")
	}
}

// TestServeDecodesPartialKindsByTheirSchema pins the schema decoder's
// texts (conformance/builtin_schema_test.go compares them with
// kube-apiserver's decoder).
func TestServeDecodesPartialKindsByTheirSchema(t *testing.T) {
	dep := func(spec string) string {
		return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":` + spec + `}`
	}
	const prefix = `Deployment in version "v1" cannot be handled as a Deployment: `
	tests := []struct {
		name, body, fv, wantErr string
		wantWarnings            []string
	}{
		{"valid", dep(`{"replicas":2,"template":{"spec":{"containers":[{"name":"a","image":"x","resources":{"limits":{"cpu":0.5,"memory":"1Gi"}}}]}}}`), "", "", nil},
		{"int32 from a string", dep(`{"replicas":"2"}`), "", prefix + "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32", nil},
		{"int32 overflow", dep(`{"replicas":2147483648}`), "", prefix + "json: cannot unmarshal number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32", nil},
		{"struct from a string", dep(`"x"`), "", prefix + "json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec", nil},
		{"inline TypeMeta in the path", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{},"status":{"replicas":true}}`, "", prefix + "json: cannot unmarshal bool into Go struct field DeploymentStatus.status.replicas of type int32", nil},
		{"named string type", dep(`{"template":{"spec":{"restartPolicy":1}}}`), "", prefix + "json: cannot unmarshal number into Go struct field PodSpec.spec.template.spec.restartPolicy of type v1.RestartPolicy", nil},
		{"map value keeps its struct", dep(`{"template":{"metadata":{"labels":{"a":1}}}}`), "", prefix + "json: cannot unmarshal number into Go struct field ObjectMeta.spec.template.metadata.labels of type string", nil},
		{"slice from an object", dep(`{"template":{"spec":{"containers":{}}}}`), "", prefix + "json: cannot unmarshal object into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container", nil},
		{"int-or-string from a bool", dep(`{"strategy":{"rollingUpdate":{"maxSurge":true}}}`), "", prefix + "json: cannot unmarshal bool into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32", nil},
		{"quantity", dep(`{"template":{"spec":{"containers":[{"resources":{"limits":{"cpu":"1 core"}}}]}}}`), "", prefix + "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'", nil},
		{"time", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","creationTimestamp":"2024-13-01T00:00:00Z"}}`, "", prefix + `parsing time "2024-13-01T00:00:00Z": month out of range`, nil},
		{"unknown and duplicate in document order", dep(`{"replica":1,"paused":true,"paused":false,"template":{"spec":{"containers":[{"name":"a","nam":"b"}]}}}`), "", prefix + `strict decoding error: unknown field "spec.replica", duplicate field "spec.paused", unknown field "spec.template.spec.containers[0].nam"`, nil},
		{"no unknown fields below an unknown one", dep(`{"extra":{"deeper":1}}`), "", prefix + `strict decoding error: unknown field "spec.extra"`, nil},
		{"warn", dep(`{"replica":1}`), Warn, "", []string{`unknown field "spec.replica"`}},
		{"ignore", dep(`{"replica":1,"replica":2}`), Ignore, "", nil},
		{"type error beats strict errors", dep(`{"replica":1,"paused":1}`), "", prefix + "json: cannot unmarshal number into Go struct field DeploymentSpec.spec.paused of type bool", nil},
		{"base64", `{"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest","metadata":{"name":"c"},"spec":{"request":"a!"}}`, "", `CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: illegal base64 data at input byte 1`, nil},
		{"raw extension takes anything", `{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"r"},"revision":1,"data":{"any":[1,{"x":null}]}}`, "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The schema decoder itself (Serve takes it for kinds without
			// a Strategy; Deployments now have one)...
			o := decodeBySchema(t, tt.body, tt.fv, kubeversion.Of(37))
			// ...and the typed decoder of a kind with a Strategy must say
			// the same.
			served, err := Serve(Request{Body: []byte(tt.body), FieldValidation: tt.fv, Release: kubeversion.Of(37)})
			if err != nil {
				t.Fatal(err)
			}
			if served.DecodeError != tt.wantErr {
				t.Errorf("Serve's decode error (Modelled %v):\ngot  %s\nwant %s", served.Modelled, served.DecodeError, tt.wantErr)
			}
			if o.DecodeError != tt.wantErr {
				t.Errorf("decode error:\ngot  %s\nwant %s", o.DecodeError, tt.wantErr)
			}
			if strings.Join(o.Warnings, "\n") != strings.Join(tt.wantWarnings, "\n") {
				t.Errorf("warnings %q, want %q", o.Warnings, tt.wantWarnings)
			}
		})
	}
}

// TestSchemaDecoderSurvivesDeepAndWideBodies: hostile shapes end in an
// answer, not a panic or a hang.
func TestSchemaDecoderSurvivesDeepAndWideBodies(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000)
	wide := `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s","labels":{` + strings.Repeat(`"k":"v",`, 20000) + `"z":"v"}},"spec":{"ports":[` + strings.Repeat(`{"port":1},`, 20000) + `{"port":1}]}}`
	var fields []string
	for i := 0; i < 150; i++ {
		fields = append(fields, fmt.Sprintf(`"x%d":1,"x%d":2`, i, i))
	}
	unknown := `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{` + strings.Join(fields, ",") + `}}`
	for name, body := range map[string]string{
		"deep unknown":  `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":` + deep + `}`,
		"wide":          wide,
		"many unknowns": unknown,
		"deep in a map": `{"apiVersion":"v1","kind":"Service","metadata":{"name":"s","labels":` + deep + `}}`,
	} {
		o, err := Serve(Request{Body: []byte(body), Release: kubeversion.Of(37)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if name == "wide" && !strings.Contains(o.DecodeError, `duplicate field "metadata.labels.k"`) {
			t.Errorf("%s: %.200s", name, o.DecodeError)
		}
		if name == "many unknowns" && strings.Count(o.DecodeError, "unknown field") != 100 {
			// each distinct error once, at most 100
			t.Errorf("%s: %.300s", name, o.DecodeError)
		}
	}
}

// BenchmarkServeDecodesADeploymentBySchema: a partial kind's request, the
// schema decoder's cost (the table built before the timer).
func BenchmarkServeDecodesADeploymentBySchema(b *testing.B) {
	body := []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27","ports":[{"containerPort":80}],"resources":{"limits":{"cpu":"500m","memory":"128Mi"}}}]}}}}`)
	req := Request{Body: body, Release: kubeversion.Of(37)}
	if _, err := Serve(req); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Serve(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSchemaForPod: building a Pod's structural schema (a new one
// per call).
func BenchmarkSchemaForPod(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SchemaFor(kubeversion.Of(37), "", "v1", "Pod"); err != nil {
			b.Fatal(err)
		}
	}
}

// decodeBySchema runs the schema decoder on a body, whatever Serve would
// take for its kind.
func decodeBySchema(t *testing.T, body string, fv string, rel kubeversion.Release) *Outcome {
	t.Helper()
	var tm typeMeta
	if err := json.Unmarshal([]byte(body), &tm); err != nil {
		t.Fatal(err)
	}
	r := Lookup(rel, tm.APIVersion, tm.Kind)
	if r == nil {
		t.Fatalf("%s %s not served", tm.APIVersion, tm.Kind)
	}
	tab, err := tableFor(rel)
	if err != nil {
		t.Fatal(err)
	}
	if fv == "" {
		fv = Strict
	}
	out := &Outcome{Resource: r, Errors: field.ErrorList{}, Warnings: []string{}}
	msg, err := schemaCheck(r, tab, []byte(body), fv, out)
	if err != nil {
		t.Fatal(err)
	}
	out.DecodeError = msg
	return out
}
