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

// TestDRAMatchCLI runs `crdlab dra match` and compares exit status, stdout
// and stderr with testdata/dra/<name>.golden (-update rewrites them).
func TestDRAMatchCLI(t *testing.T) {
	const ex = "../../examples/dra/"
	slices := []string{"--slices", ex + "slices"}
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"example-runtime-error-with-guidance", append(slices, ex+"class.yaml", ex+"claim.yaml"), 1},
		{"example-at-1.36-no-guidance", append([]string{"--kube-version", "1.36"}, append(slices, ex+"class.yaml", ex+"claim.yaml")...), 1},
		{"class-alone-matches-all", append(slices, ex+"class.yaml"), 0},
		{"class-not-given-noted", append(slices, "testdata/dra/first-available.yaml"), 0},
		{"first-available-with-class", append(slices, ex+"class.yaml", "testdata/dra/first-available.yaml"), 0},
		{"input-malformed-selector", append(slices, "testdata/dra/bad-selector.yaml"), 2},
		{"input-unknown-version", append(slices, "testdata/dra/unknown-version.yaml"), 2},
		{"input-not-a-slice", []string{"--slices", "testdata/dra/configmap.yaml", ex + "class.yaml"}, 2},
		{"input-v1-not-served-at-1.33", append([]string{"--kube-version", "1.33"}, append(slices, ex+"class.yaml")...), 2},
		{"allow-multiple-allocations-read-at-1.37", []string{"--slices", "testdata/dra/shared", "testdata/dra/shared-class.yaml"}, 0},
		{"allow-multiple-allocations-false-at-1.35", []string{"--kube-version", "1.35", "--slices", "testdata/dra/shared", "testdata/dra/shared-class.yaml"}, 1},
		{"usage-no-subcommand", append(slices, ex+"class.yaml"), 2},
		{"usage-no-slices", []string{"match", ex + "class.yaml"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if tt.name != "usage-no-subcommand" && args[0] != "match" {
				args = append([]string{"match"}, args...)
			}
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"dra"}, args...), strings.NewReader(""), &stdout, &stderr)
			if code != tt.exit {
				t.Errorf("exit status %d, want %d\nstderr: %s", code, tt.exit, stderr.String())
			}
			got := fmt.Sprintf("exit: %d\n--- stdout\n%s--- stderr\n%s", code, stdout.String(), stderr.String())
			golden := filepath.Join("testdata", "dra", tt.name+".golden")
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

// TestDRAMatchJSONCountsMatchingDevices pins -o json's shape: per request,
// the matching count and per device its verdict and the selectors run.
func TestDRAMatchJSONCountsMatchingDevices(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"dra", "match", "-o", "json", "--slices", "../../examples/dra/slices", "../../examples/dra/class.yaml", "../../examples/dra/claim.yaml"}, nil, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var rep struct {
		KubeVersion string `json:"kubeVersion"`
		Requests    []struct {
			Request   string `json:"request"`
			Matching  int    `json:"matching"`
			Selectors []struct {
				Owner         string  `json:"owner"`
				Expression    string  `json:"expression"`
				EstimatedCost *uint64 `json:"estimatedCost"`
				Limit         uint64  `json:"limit"`
			} `json:"selectors"`
			Devices []struct {
				Device    string `json:"device"`
				Matches   bool   `json:"matches"`
				Reason    string `json:"reason"`
				Selectors []struct {
					Owner  string  `json:"owner"`
					Result *bool   `json:"result"`
					Error  string  `json:"error"`
					Cost   *uint64 `json:"cost"`
				} `json:"selectors"`
			} `json:"devices"`
		} `json:"requests"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, r := range rep.Requests {
		got[r.Request] = r.Matching
		if len(r.Selectors) == 0 || r.Selectors[0].Owner != "class gpu.example.com" {
			t.Errorf("%s: selectors %+v do not start with the class's", r.Request, r.Selectors)
		}
		for _, s := range r.Selectors {
			if s.EstimatedCost == nil || *s.EstimatedCost == 0 || s.Limit != 1000000 {
				t.Errorf("%s: selector %q has no estimated cost or limit", r.Request, s.Expression)
			}
		}
		for _, d := range r.Devices {
			for _, s := range d.Selectors {
				if s.Cost == nil || (s.Result == nil) == (s.Error == "") {
					t.Errorf("%s %s: selector %+v has no cost or not exactly one of result and error", r.Request, d.Device, s)
				}
			}
		}
	}
	want := map[string]int{"": 4, "large": 2, "whole": 1, "whole-safe": 1}
	if fmt.Sprint(got) != fmt.Sprint(want) || rep.KubeVersion != "1.37" {
		t.Errorf("matching = %v at %s, want %v at 1.37", got, rep.KubeVersion, want)
	}
}

// TestValidateChecksDRASelectors: validate rejects a DeviceClass whose
// selectors the API server refuses, at each selector's line, and reports
// the ones whose selectors pass as partial, saying what was validated.
func TestValidateChecksDRASelectors(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"validate", "testdata/dra/bad-class.yaml", "../../examples/dra/class.yaml", "../../examples/dra/claim.yaml"}, nil, &stdout, &stderr)
	if code != exitInvalid {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{
		`testdata/dra/bad-class.yaml:8:7: spec.selectors[0].cel.expression: Invalid value: "device.driver ==": compilation failed: ERROR: <input>:1:17: Syntax error`,
		`testdata/dra/bad-class.yaml:10:7: spec.selectors[1].cel.expression: Invalid value: "device.driver": must evaluate to bool or the unknown type, not string`,
		`testdata/dra/bad-class.yaml:12:7: spec.selectors[2].cel.expression: Forbidden: too complex, exceeds cost limit`,
		`deviceclass.resource.k8s.io/gpu.example.com not validated natively: decoded by Kubernetes 1.37's OpenAPI schema (fields and types); native validation of resource.k8s.io/v1 DeviceClass is not modelled beyond the CEL device selectors (compile, type and cost errors), which pass (docs/dra.md)`,
		`resourceclaim.resource.k8s.io/training not validated natively: decoded by Kubernetes 1.37's OpenAPI schema (fields and types); native validation of resource.k8s.io/v1 ResourceClaim is not modelled beyond the CEL device selectors`,
	} {
		if !strings.Contains(stdout.String()+stderr.String(), want) {
			t.Errorf("output lacks %q:\n%s%s", want, stdout.String(), stderr.String())
		}
	}
	if strings.Contains(stdout.String()+stderr.String(), "selectors[3]") {
		t.Errorf("the valid fourth selector is reported:\n%s%s", stdout.String(), stderr.String())
	}
}
