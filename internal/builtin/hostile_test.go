package builtin

import (
	"fmt"
	"strings"
	"testing"
)

// TestHostileBuiltinObjects: built-in objects join the hostile inputs —
// bodies at and over the 3 MiB limit, huge label and key sets, deep
// nesting, bad UTF-8, numbers out of range: each gets an answer (a clear
// decode error, the API server's field errors, or valid), never a panic.
func TestHostileBuiltinObjects(t *testing.T) {
	labels := func(n int, key func(i int) string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf(`%q:"v"`, key(i))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	tests := []struct {
		name, body string
		want       string // in the decode error or the first error; "" for valid
		errors     int    // the number of field errors, when want is one
	}{
		{"configmap over 3 MiB", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"` + strings.Repeat("x", 3<<20) + `"}}`, "Request entity too large: limit is 3145728", 0},
		{"deployment over 3 MiB", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"},"spec":{"k":"` + strings.Repeat("x", 3<<20) + `"}}`, "Request entity too large", 0},
		{"configmap just under 3 MiB", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"` + strings.Repeat("x", 3<<20-100) + `"}}`, "[]: Too long: may not be more than 1048576 bytes", 1},
		{"secret of 100k keys", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"a"},"stringData":` + labels(100000, func(i int) string { return fmt.Sprintf("k%d", i) }) + `}`, "", 0},
		{"configmap of 50k bad keys", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":` + labels(50000, func(i int) string { return fmt.Sprintf("k/%d", i) }) + `}`, "data[k/0]: Invalid value", 50000},
		{"100k labels", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":` + labels(100000, func(i int) string { return fmt.Sprintf("l%d", i) }) + `}}`, "", 0},
		{"annotations over 256 KiB", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","annotations":{"a":"` + strings.Repeat("x", 300000) + `"}}}`, "metadata.annotations: Too long", 1},
		{"deep nesting in data", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`, "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character '[' exceeded max depth ({\"apiVersion\":\"v1\",\"kind\":\"Con ...)", 0},
		{"bad UTF-8", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"\xff\xfe\"}}", "", 0},
		{"generation out of range", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","generation":1e40}}`, "cannot unmarshal number 1e40 into Go struct field ObjectMeta.metadata.generation of type int64", 0},
		{"deployment of 10k containers", deploymentWith(containers(10000, func(i int) string { return fmt.Sprintf(`{"name":"c%d","image":"i"}`, i) })), "", 0},
		{"deployment of 5k same-named containers", deploymentWith(containers(5000, func(int) string { return `{"name":"c","image":"i"}` })), "spec.template.spec.containers[1].name: Duplicate value", 4999},
		{"deployment of 5k bad ports", deploymentWith(`[{"name":"c","image":"i","ports":` + containers(5000, func(int) string { return `{"containerPort":70000}` }) + `}]`), "ports[0].containerPort: Invalid value: 70000", 5000},
		{"deep nesting in a pod template", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"},"spec":{"template":{"spec":{"containers":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}}}`, "exceeded max depth", 0},
		{"null everywhere", `{"apiVersion":"v1","kind":"Namespace","metadata":null,"spec":null,"status":null}`, "metadata.name: Required value", 1},
		// Deployments (validated natively) and kinds decoded by their schema only
		{"deployment with args nested 9000 deep", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"},"spec":{"template":{"spec":{"containers":[{"name":"c","args":` + strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + `}]}}}}`, "json: cannot unmarshal array into Go struct field Container.spec.template.spec.containers.args of type string", 0},
		{"deployment of 100k labels", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a","labels":` + labels(100000, func(i int) string { return fmt.Sprintf("l%d", i) }) + `}}`, "spec.selector: Required value", 0},
		{"deployment replicas 1e40", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"},"spec":{"replicas":1e40}}`, "cannot unmarshal number 1e40 into Go struct field DeploymentSpec.spec.replicas of type int32", 0},
		{"pod of 20k containers with unknown fields", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"containers":[` + strings.TrimSuffix(strings.Repeat(`{"name":"c","x":1},`, 20000), ",") + `]}}`, `strict decoding error: unknown field "spec.containers[0].x"`, 0},
		{"service bad UTF-8", "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"a\"},\"spec\":{\"type\":\"\xff\xfe\"}}", "", 0},
		{"deployment quantity of 1 MiB", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"},"spec":{"template":{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"` + strings.Repeat("9", 1<<20) + `"}}}]}}}}`, "spec.selector: Required value", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := Serve(Request{Body: []byte(tt.body), APIVersion: "v1", Kind: "ConfigMap"})
			if err != nil {
				t.Fatal(err)
			}
			got := o.DecodeError
			if len(o.Errors) > 0 {
				got += o.Errors[0].Error()
			}
			if tt.want == "" {
				if !o.Valid() {
					t.Fatalf("invalid: %.300s", got)
				}
				return
			}
			if !strings.Contains(got, tt.want) {
				t.Fatalf("got %.300q, want %q", got, tt.want)
			}
			if tt.errors > 0 && len(o.Errors) != tt.errors {
				t.Fatalf("%d errors, want %d", len(o.Errors), tt.errors)
			}
		})
	}
}

// containers is a JSON list of n items.
func containers(n int, item func(i int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = item(i)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// deploymentWith is a Deployment whose pod template has the containers.
func deploymentWith(containers string) string {
	return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"a"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":` + containers + `}}}}`
}
