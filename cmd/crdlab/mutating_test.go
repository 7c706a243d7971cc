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
