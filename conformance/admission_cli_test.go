package conformance

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authentication/user"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/conformance/upstream"
)

// TestCLIAdmissionStatusSubresource runs status updates through the crdlab
// command (`validate --old OLD --subresource status --policy`, and the same
// request given as an AdmissionReview with subResource: status) and the
// same request through k8s.io/apiserver's validating policy dispatcher
// (upstream.Admit, with the object and stored object the command
// validated): a rule naming widgets/status must match the status update,
// and the verdict, status message and warnings must be the API server's.
// A rule naming widgets (no subresource) must not match it.
func TestCLIAdmissionStatusSubresource(t *testing.T) {
	bin := buildCLI(t)
	const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
          status: {type: object, properties: {ready: {type: boolean}}}
`
	policy := func(resource, action string) string {
		return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: status-guard}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [example.com], apiVersions: ["*"], operations: [UPDATE], resources: [` + resource + `]}
  validations:
  - expression: "object.status.ready == false"
    messageExpression: "'ready may not be set (' + request.subResource + '/' + request.requestSubResource + ')'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: status-guard}
spec: {policyName: status-guard, validationActions: [` + action + `]}
`
	}
	widget := func(ready bool) string {
		return "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1, namespace: default}\nspec: {size: 1}\nstatus: {ready: " + strconv.FormatBool(ready) + "}\n"
	}
	dir := t.TempDir()
	files := map[string]string{
		"crd.yaml": crd, "old.yaml": widget(false), "new.yaml": widget(true),
		"review.yaml": "apiVersion: admission.k8s.io/v1\nkind: AdmissionReview\nrequest: {operation: UPDATE, subResource: status}\n",
	}
	for _, res := range []string{"widgets/status", "widgets/*", "widgets"} {
		for _, action := range []string{"Deny", "Warn"} {
			files[policyFile(res, action)] = policy(res, action)
		}
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	widgetsV1 := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	widgetV1 := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	for _, res := range []string{"widgets/status", "widgets/*", "widgets"} {
		for _, action := range []string{"Deny", "Warn"} {
			for _, form := range []struct {
				name string
				args []string
			}{
				{"--subresource", []string{"--subresource", "status"}},
				{"--request", []string{"--request", filepath.Join(dir, "review.yaml")}},
			} {
				t.Run(res+"/"+action+"/"+form.name, func(t *testing.T) {
					args := append([]string{"validate", "-o", "json", "--crd", filepath.Join(dir, "crd.yaml"), "--old", filepath.Join(dir, "old.yaml"),
						"--policy", filepath.Join(dir, policyFile(res, action))}, form.args...)
					cmd := exec.Command(bin, append(args, filepath.Join(dir, "new.yaml"))...)
					var stdout, stderr bytes.Buffer
					cmd.Stdout, cmd.Stderr = &stdout, &stderr
					err := cmd.Run()
					if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
						t.Fatalf("crdlab %v: %v\n%s", args, err, stderr.String())
					}
					var rep struct {
						Results []struct {
							Result    map[string]interface{} `json:"result"`
							OldResult map[string]interface{} `json:"oldResult"`
							Warnings  []string               `json:"warnings"`
							Admission *struct {
								Allowed bool   `json:"allowed"`
								Message string `json:"message"`
								Reason  string `json:"reason"`
								Code    int    `json:"code"`
							} `json:"admission"`
						} `json:"results"`
					}
					if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || len(rep.Results) != 1 || rep.Results[0].Result == nil {
						t.Fatalf("crdlab -o json: %v\n%s\n%s", err, stdout.String(), stderr.String())
					}
					r := rep.Results[0]
					obj, err := admission.ObjectOf(r.Result)
					if err != nil {
						t.Fatal(err)
					}
					old, err := admission.ObjectOf(r.OldResult)
					if err != nil {
						t.Fatal(err)
					}
					pols, binds := policyAndBindingJSON(t, files[policyFile(res, action)])
					up, err := upstream.Admit(&upstream.AdmissionInput{
						Policies: pols, Bindings: binds, Objects: []map[string]interface{}{admission.DefaultNamespace("default")}, ParamNamespaced: true,
						Equivalents: map[schema.GroupVersionResource]schema.GroupVersionKind{widgetsV1: widgetV1},
						Operation:   "UPDATE", Kind: widgetV1, Resource: widgetsV1, SubResource: "status", Name: "w1", Namespace: "default",
						Object: obj, OldObject: old,
						User:    &user.DefaultInfo{Name: "kubernetes-admin", Groups: []string{"system:masters", "system:authenticated"}},
						Options: upstreamOptions("UPDATE"),
					})
					if err != nil {
						t.Fatalf("upstream: %v", err)
					}
					type outcome struct {
						Denied   bool
						Message  string
						Code     int
						Warnings []string
					}
					got := outcome{Warnings: r.Warnings}
					if r.Admission != nil && !r.Admission.Allowed {
						got.Denied, got.Message, got.Code = true, r.Admission.Message, r.Admission.Code
					}
					if len(got.Warnings) == 0 {
						got.Warnings = nil
					}
					want := outcome{Denied: up.Denied, Message: up.Message, Code: up.Code, Warnings: up.Warnings}
					if len(want.Warnings) == 0 {
						want.Warnings = nil
					}
					if !reflect.DeepEqual(got, want) {
						t.Errorf("crdlab:   %+v\nupstream: %+v\n(crdlab's stderr: %s)", got, want, stderr.String())
					}
				})
			}
		}
	}
}

func policyFile(resource, action string) string {
	return "policy-" + strings.NewReplacer("/", "-", "*", "any").Replace(resource) + "-" + action + ".yaml"
}

// policyAndBindingJSON decodes a scenario's policies and bindings as
// upstream.Admit takes them.
func policyAndBindingJSON(t *testing.T, y string) (pols, binds [][]byte) {
	t.Helper()
	in, err := admission.DecodeFile([]byte(y), "policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range in.Policies {
		b, _ := json.Marshal(p)
		pols = append(pols, b)
	}
	for _, b := range in.Bindings {
		bb, _ := json.Marshal(b)
		binds = append(binds, bb)
	}
	return pols, binds
}
