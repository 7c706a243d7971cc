package cost_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/wire"
)

// nameRuleCRD has a rule over metadata.name: before 1.37 the name is an
// unbounded string for CEL cost estimation (MetadataNameSizeCap), so the
// rule is over the per-expression budget and the CRD is rejected.
const nameRuleCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - rule: "self.metadata.name.split('-').all(p, p.size() > 0)"
        properties:
          spec: {type: object}
`

func TestAnalyzeWithOptionsFollowsTheRelease(t *testing.T) {
	defs, err := crd.Decode([]byte(nameRuleCRD), "")
	if err != nil {
		t.Fatal(err)
	}
	obj := []byte(`{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"a-b"},"spec":{}}`)
	tests := []struct {
		kubeVersion string
		accepted    bool
		overBudget  bool
	}{
		{"1.35", false, true},
		{"1.36", false, true},
		{"1.37", true, false},
		{"", true, false},
	}
	for _, tt := range tests {
		t.Run("release "+tt.kubeVersion, func(t *testing.T) {
			rep, err := cost.AnalyzeWithOptions(defs[0], cost.AnalyzeOptions{KubeVersion: tt.kubeVersion}, obj)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Accepted != tt.accepted {
				t.Errorf("Accepted = %v, want %v (errors %v)", rep.Accepted, tt.accepted, rep.Errors)
			}
			if len(rep.Rules) != 1 || rep.Rules[0].OverBudget != tt.overBudget {
				t.Fatalf("rules %+v, want one, over budget %v", rep.Rules, tt.overBudget)
			}
			if len(rep.Objects) != 1 || rep.Objects[0].Error != "" || len(rep.Objects[0].Errors) != 0 {
				t.Errorf("objects %+v, want one evaluated without errors", rep.Objects)
			}
		})
	}
	if _, err := cost.AnalyzeWithOptions(defs[0], cost.AnalyzeOptions{KubeVersion: "1.30"}); err == nil || !strings.Contains(err.Error(), "supported: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37") {
		t.Errorf("an unsupported release: error %v, want one naming the supported releases", err)
	}
}

// A rule over metadata.name is within budget from 1.37 only (the name's
// size cap).
func ExampleAnalyzeWithOptions() {
	defs, err := crd.Decode([]byte(nameRuleCRD), "")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, kv := range []string{"1.36", "1.37"} {
		rep, err := cost.AnalyzeWithOptions(defs[0], cost.AnalyzeOptions{KubeVersion: kv})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: accepted %v, over budget %v\n", kv, rep.Accepted, rep.Rules[0].OverBudget)
	}
	// Output:
	// 1.36: accepted false, over budget true
	// 1.37: accepted true, over budget false
}

// TestTextVerdictNamesTheReleaseWhenGiven: Text's verdict line names
// Report.KubeVersion (crdlab cost sets it), and nothing when unset; the
// JSON report never carries it.
func TestTextVerdictNamesTheReleaseWhenGiven(t *testing.T) {
	for _, tt := range []struct {
		rep  cost.Report
		want string
	}{
		{cost.Report{Accepted: true, KubeVersion: "1.36"}, "verdict: accepted at Kubernetes 1.36\n"},
		{cost.Report{Accepted: true}, "verdict: accepted\n"},
		{cost.Report{KubeVersion: "1.38", CostErrors: []wire.ErrorReport{{Message: "x"}}}, "verdict: rejected at Kubernetes 1.38 (0 error(s), 1 about cost)\n"},
	} {
		if got := tt.rep.Text(); !strings.Contains(got, tt.want) {
			t.Errorf("Text() = %q, want it to contain %q", got, tt.want)
		}
		b, err := json.Marshal(tt.rep)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "1.3") {
			t.Errorf("the JSON report carries the release: %s", b)
		}
	}
}
