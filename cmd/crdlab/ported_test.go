package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPortedCLI covers the conventions of the commands ported from the
// standard flag package (cost, bench, schema, upgrade, lint --old,
// validate --old-crd): help on stdout with exit 0, flags anywhere and
// case-insensitive enums, -o yaml, --crd and -R, --timeout, --runtime wasm
// where the ABI lacks the op, and the usage and input errors (exit 2).
// Outputs are compared with testdata/ported/<name>.golden (-update
// rewrites them).
func TestPortedCLI(t *testing.T) {
	const (
		crd     = "../../examples/crontab-crd.yaml"
		project = "testdata/project/"
		bounded = "../../cost/testdata/docs-bounded.yaml"
		up      = "../../examples/upgrade/"
		upd     = "../../examples/crd-update/"
		badObj  = "testdata/ported/bad-object.yaml"
		badCRD  = "testdata/bad-crd.yaml"
	)
	fast := []string{"--duration", "1ms", "--samples", "1"}
	tests := []struct {
		name  string
		args  []string
		stdin string
		exit  int
	}{
		{"help-cost", []string{"help", "cost"}, "", 0},
		{"help-bench", []string{"bench", "--help"}, "", 0},
		{"help-schema", []string{"schema", "-h"}, "", 0},
		{"help-upgrade", []string{"help", "upgrade"}, "", 0},

		{"cost-flags-after-args-any-case", []string{"cost", bounded, "--sort=ESTIMATE", "--top=1", "-o", "JSON"}, "", 0},
		{"cost-yaml", []string{"cost", "-o", "yaml", bounded}, "", 0},
		{"cost-crd-flag-and-recursive", []string{"cost", "--crd", project + "crds.yaml", "-R", project}, "", 1},
		{"cost-crd-flag-without-crd", []string{"cost", "--crd", project + "objects.yaml", bounded}, "", 2},
		{"cost-unparseable-object", []string{"cost", bounded, badObj}, "", 2},
		{"cost-undecodable-crd", []string{"cost", badCRD}, "", 2},
		{"cost-stdin-crd-and-object", []string{"cost", "--crd", "-", "-"}, "", 2},
		{"cost-timeout", []string{"cost", "--timeout", "1ns", bounded}, "", 1},
		{"cost-negative-timeout", []string{"cost", "--timeout=-1s", bounded}, "", 2},
		{"cost-bad-runtime", []string{"cost", "--runtime", "js", bounded}, "", 2},
		{"cost-bad-runtime-older-spelling", []string{"cost", "--engine", "js", bounded}, "", 2},
		{"cost-unknown-flag", []string{"cost", "--frob", bounded}, "", 2},

		{"bench-timeout", append(append([]string{"bench"}, fast...), "--timeout", "1ns", project), "", 1},
		{"bench-bad-duration", []string{"bench", "--duration", "0s", project}, "", 2},
		{"bench-unparseable-object", append(append([]string{"bench"}, fast...), project, badObj), "", 2},

		{"schema-crd-flag-strict-after", []string{"schema", "--crd", crd, "--strict", "--draft=07"}, "", 0},
		{"schema-bad-layout", []string{"schema", "-o", "x", "--layout", "flat", crd}, "", 2},
		{"schema-undecodable-crd", []string{"schema", badCRD}, "", 2},
		{"schema-no-crds", []string{"schema"}, "", 2},
		{"schema-o-format-not-dir", []string{"schema", "-o", "json", crd}, "", 2},
		{"schema-stdin-twice", []string{"schema", "--crd", "-", "-"}, "", 2},

		{"upgrade-yaml-flags-after-args", []string{"upgrade", up + "old.yaml", up + "new-drop-v1.yaml", "-o", "yaml", "--stored-versions", "v2"}, "", 0},
		{"upgrade-stdin-twice", []string{"upgrade", "-", "-"}, "", 2},
		{"upgrade-unparseable-object", []string{"upgrade", up + "old.yaml", up + "new.yaml", badObj}, "", 2},
		{"upgrade-undecodable-crd", []string{"upgrade", badCRD, up + "new.yaml"}, "", 2},

		{"lint-old-yaml", []string{"lint", upd + "new-v1.yaml", "--old", upd + "old.yaml", "-o", "yaml"}, "", 0},
		{"lint-old-stdin-twice", []string{"lint", "--old", "-", "-"}, "", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if code != tt.exit {
				t.Errorf("exit status %d, want %d\nstderr: %s", code, tt.exit, stderr.String())
			}
			got := fmt.Sprintf("exit: %d\n--- stdout\n%s--- stderr\n%s", code, stdout.String(), stderr.String())
			golden := filepath.Join("testdata", "ported", tt.name+".golden")
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
