package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCostCLI runs `crdlab cost` and compares exit status, stdout and stderr
// with testdata/cost/<name>.golden (-update rewrites them).
func TestCostCLI(t *testing.T) {
	const td = "../../cost/testdata/"
	tests := []struct {
		name  string
		args  []string
		stdin string
		exit  int
	}{
		{"docs-unbounded-rejected-text", []string{td + "docs-unbounded.yaml"}, "", 1},
		{"docs-unbounded-rejected-json", []string{td + "docs-unbounded.yaml", "-o", "json"}, "", 1},
		{"docs-bounded-accepted-text", []string{td + "docs-bounded.yaml"}, "", 0},
		{"docs-nested-list-rejected-text", []string{"-o", "text", td + "docs-nested-list.yaml"}, "", 1},
		{"total-over-limit-text", []string{td + "total-over-limit.yaml"}, "", 1},
		{"mixed-with-object-text", []string{td + "mixed.yaml", td + "mixed-object.yaml"}, "", 1},
		{"mixed-with-object-json", []string{"-o", "json", td + "mixed.yaml", td + "mixed-object.yaml"}, "", 1},
		{"bounded-with-object-from-stdin", []string{td + "docs-bounded.yaml", "-"}, boundedObject, 0},
		{"project-dir-text", []string{"testdata/project"}, "", 1},
		{"project-dir-json", []string{"-o", "json", "testdata/project"}, "", 1},
		{"project-sort-runtime-top-2", []string{"testdata/project", "--sort", "runtime", "--top", "2"}, "", 1},
		{"project-over-1-percent-json", []string{"--over", "1", "-o", "json", "testdata/project"}, "", 1},
		{"other-kind-skipped", []string{td + "docs-bounded.yaml", "testdata/project/objects.yaml"}, "", 0},
		{"usage-bad-sort", []string{"--sort", "time", "testdata/project"}, "", 2},
		{"usage-negative-top", []string{"--top", "-1", "testdata/project"}, "", 2},
		{"usage-no-crd-in-inputs", []string{"testdata/project/widget-bad.json"}, "", 2},
		{"usage-no-crd", nil, "", 2},
		{"usage-bad-output", []string{"-o", "xml", td + "docs-bounded.yaml"}, "", 2},
		{"usage-stdin-twice", []string{"-", "-"}, "", 2},
		{"io-missing-crd", []string{"testdata/cost/does-not-exist.yaml"}, "", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"cost"}, tt.args...), strings.NewReader(tt.stdin), &stdout, &stderr)
			if code != tt.exit {
				t.Errorf("exit status %d, want %d\nstderr: %s", code, tt.exit, stderr.String())
			}
			got := fmt.Sprintf("exit: %d\n--- stdout\n%s--- stderr\n%s", code, stdout.String(), stderr.String())
			golden := filepath.Join("testdata", "cost", tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (-update to rewrite)\ngot:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
}

// TestCostCLIJSONShape pins the documented keys of -o json.
func TestCostCLIJSONShape(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"cost", "-o", "json", "../../cost/testdata/docs-unbounded.yaml"}, nil, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var doc struct {
		Rules []struct {
			Path          string `json:"path"`
			Index         *int   `json:"index"`
			Expression    string `json:"expression"`
			Field         string `json:"field"`
			Cardinality   uint64 `json:"cardinality"`
			Estimate      struct{ Min, Max *uint64 }
			EstimatedCost uint64   `json:"estimatedCost"`
			RuntimeCost   []uint64 `json:"runtimeCost"`
		} `json:"rules"`
		TotalEstimatedCost uint64 `json:"totalEstimatedCost"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Rules) != 1 {
		t.Fatalf("%d rules, want 1", len(doc.Rules))
	}
	r := doc.Rules[0]
	if r.Path != "spec.validation.openAPIV3Schema.properties[foo]" || r.Index == nil || *r.Index != 0 || r.Field != "rule" ||
		r.Expression != "self.all(x, x.contains('a string'))" || r.Estimate.Min == nil || r.Estimate.Max == nil ||
		r.EstimatedCost != *r.Estimate.Max*r.Cardinality || doc.TotalEstimatedCost != r.EstimatedCost {
		t.Errorf("unexpected JSON document: %s", stdout.String())
	}
}

const boundedObject = `apiVersion: example.com/v1
kind: Widget
metadata:
  name: ok
foo: ["a string", "xa string"]
`
