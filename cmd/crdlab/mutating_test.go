package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/wire"
)

const capReplicasPolicy = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: cap}
spec:
  reinvocationPolicy: Never
  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: ["*"], operations: [CREATE], resources: [crontabs]}
  matchConditions:
  - {name: too-many, expression: "has(object.spec.replicas) && object.spec.replicas > 5"}
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration: {expression: "Object{spec: Object.spec{replicas: 5}}"}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: cap-binding}
spec: {policyName: cap}
`

func TestValidateMutatingPolicyRunsBeforeValidatingAdmission(t *testing.T) {
	// big asks for 9 replicas: the mutating policy lowers it to 5 before
	// the validating policy (at most 5) sees it, as in the API server.
	dir := writeFiles(t, map[string]string{"crd.yaml": admissionCRD, "vap.yaml": admissionPolicy, "map.yaml": capReplicasPolicy, "objs.yaml": admissionObjects})
	var stdout, stderr bytes.Buffer
	code := run([]string{"validate", "-o", "json", "--crd", filepath.Join(dir, "crd.yaml"), "--policy", filepath.Join(dir, "vap.yaml"),
		"--policy", filepath.Join(dir, "map.yaml"), filepath.Join(dir, "objs.yaml")}, strings.NewReader(""), &stdout, &stderr)
	if code != exitValid {
		t.Fatalf("exit %d, stderr:\n%s\nstdout:\n%s", code, stderr.String(), stdout.String())
	}
	var rep wire.RunReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range rep.Results {
		spec, _ := e.Result.(map[string]interface{})["spec"].(map[string]interface{})
		line := e.Name + " replicas=" + jsonString(spec["replicas"])
		if e.Mutation != nil {
			line += " mutation=" + jsonString(e.Mutation.Mutations) + " object.replicas=" + jsonString(e.Mutation.Object["spec"].(map[string]interface{})["replicas"])
		}
		got = append(got, line)
	}
	want := []string{
		"ok replicas=3",
		`big replicas=5 mutation=[{"policy":"cap","binding":"cap-binding","mutation":0,"patchType":"ApplyConfiguration","changed":["/spec/replicas"]}] object.replicas=5`,
		"defaulted replicas=1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func jsonString(v interface{}) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestValidateMutatingPolicyErrorRefusesTheObject(t *testing.T) {
	// A JSONPatch that cannot apply fails the request (failurePolicy
	// Fail): the object is refused with the API server's message and not
	// validated.
	policy := strings.Replace(capReplicasPolicy, `  - patchType: ApplyConfiguration
    applyConfiguration: {expression: "Object{spec: Object.spec{replicas: 5}}"}`, `  - patchType: JSONPatch
    jsonPatch: {expression: '[JSONPatch{op: "remove", path: "/spec/missing"}]'}`, 1)
	dir := writeFiles(t, map[string]string{"all.yaml": admissionCRD + "---\n" + policy + "---\n" + admissionObjects})
	var stdout, stderr bytes.Buffer
	code := run([]string{"validate", "-o", "json", filepath.Join(dir, "all.yaml")}, strings.NewReader(""), &stdout, &stderr)
	if code != exitInvalid {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	var rep wire.RunReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range rep.Results {
		if e.Kind != "CronTab" {
			continue
		}
		line := e.Name + " " + string(e.Status)
		for _, er := range e.Errors {
			line += " | " + er.Type + ": " + er.Message
		}
		if m := e.Mutation; m != nil {
			line += " | " + m.Reason + " " + jsonString(m.Code)
		}
		got = append(got, line)
	}
	want := []string{
		"ok valid",
		`big invalid | AdmissionDenied: policy 'cap' with binding 'cap-binding' denied request: JSON Patch: error in remove for path: '/spec/missing': Unable to remove nonexistent key: missing: missing value | Invalid 403`,
		"defaulted valid",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestValidateMutatingPolicyOnAnUpdateSeesTheDefaultedOldObject(t *testing.T) {
	// The stored object has no replicas: the API server reads it with the
	// schema's default (1), which the policy adds 10 to.
	policy := strings.NewReplacer("operations: [CREATE]", "operations: [UPDATE]",
		`  matchConditions:
  - {name: too-many, expression: "has(object.spec.replicas) && object.spec.replicas > 5"}
`, "",
		"Object{spec: Object.spec{replicas: 5}}", "Object{spec: Object.spec{replicas: oldObject.spec.replicas + 10}}").Replace(capReplicasPolicy)
	dir := writeFiles(t, map[string]string{"crd.yaml": admissionCRD, "map.yaml": policy,
		"old.yaml": "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c, namespace: prod}\nspec: {}\n",
		"new.yaml": "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: c, namespace: prod}\nspec: {replicas: 2}\n"})
	var stdout, stderr bytes.Buffer
	code := run([]string{"validate", "-o", "json", "--crd", filepath.Join(dir, "crd.yaml"), "--policy", filepath.Join(dir, "map.yaml"),
		"--old", filepath.Join(dir, "old.yaml"), filepath.Join(dir, "new.yaml")}, strings.NewReader(""), &stdout, &stderr)
	if code != exitValid {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	var rep wire.RunReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || rep.Results[0].Mutation == nil {
		t.Fatalf("results %s", stdout.String())
	}
	spec := rep.Results[0].Result.(map[string]interface{})["spec"].(map[string]interface{})
	if got := jsonString(spec["replicas"]); got != "11" {
		t.Errorf("replicas %s, want 11", got)
	}
}
