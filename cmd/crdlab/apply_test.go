package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestApplyCLI runs crdlab apply on the examples and compares exit status,
// stdout and stderr with testdata/apply-*.golden (-update rewrites them).
func TestApplyCLI(t *testing.T) {
	const crd = "../../examples/apply/crd.yaml"
	const steps = "../../examples/apply/steps.yaml"
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"apply-steps-text", []string{"apply", "--crd", crd, steps}, 1},
		{"apply-steps-json", []string{"apply", "--crd", crd, "-o", "json", steps}, 1},
		{"apply-steps-yaml", []string{"apply", "--crd", crd, "-o", "yaml", steps}, 1},
		{"apply-single-conflict", []string{"apply", "--crd", crd, "--stored", "testdata/apply/live.yaml", "--manager", "controller", "testdata/apply/obj.yaml"}, 1},
		{"apply-single-force", []string{"apply", "--crd", crd, "--stored", "testdata/apply/live.yaml", "--manager", "controller", "--force", "testdata/apply/obj.yaml"}, 0},
		{"apply-single-status", []string{"apply", "--crd", crd, "--stored", "testdata/apply/live.yaml", "--manager", "operator", "--subresource", "status", "-o", "json", "testdata/apply/status.yaml"}, 0},
		{"apply-single-create", []string{"apply", "--crd", crd, "--manager", "alice", "--time", "2030-02-03T04:05:06Z", "testdata/apply/obj.yaml"}, 0},
		{"apply-invalid-results", []string{"apply", "--crd", crd, "testdata/apply/invalid-steps.yaml"}, 1},
		{"apply-bad-steps", []string{"apply", "--crd", crd, "testdata/apply/bad-steps.yaml"}, 2},
		{"apply-usage-no-crd", []string{"apply", steps}, 2},
		{"apply-usage-force-without-manager", []string{"apply", "--crd", crd, "--force", steps}, 2},
		{"apply-io-missing-stored", []string{"apply", "--crd", crd, "--stored", "testdata/apply/nope.yaml", steps}, 2},
		{"apply-help", []string{"apply", "--help"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, strings.NewReader(""), &stdout, &stderr)
			if code != tt.exit {
				t.Errorf("exit status %d, want %d\nstderr: %s", code, tt.exit, stderr.String())
			}
			got := fmt.Sprintf("exit: %d\n--- stdout\n%s--- stderr\n%s", code, stdout.String(), stderr.String())
			golden := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/crdlab -run TestApplyCLI -update)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (go test ./cmd/crdlab -update rewrites it)\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}
