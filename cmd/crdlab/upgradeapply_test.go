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

// TestUpgradeApplyBehaviour runs `crdlab upgrade` on the worked example of
// docs/apply.md (examples/apply/upgrade) and on its reverse, and compares
// the output, with its "Apply behaviour" section, with
// testdata/upgrade-apply-<name>.golden.
func TestUpgradeApplyBehaviour(t *testing.T) {
	const dir = "../../examples/apply/upgrade/"
	tests := []struct {
		name string
		args []string
		want string // a line the section must hold
	}{
		{"atomic-to-map-text", []string{dir + "crd-v1-atomic.yaml", dir + "crd-v2-map.yaml", dir + "stored.json"},
			`    orphaned (owned before, by no manager now): .spec.ports[name="http"].name, .spec.ports[name="http"].port`},
		{"atomic-to-map-no-objects-text", []string{dir + "crd-v1-atomic.yaml", dir + "crd-v2-map.yaml"},
			`  v1 .spec.ports: atomic list -> map list keyed by name`},
		{"atomic-to-map-json", []string{"-o", "json", dir + "crd-v1-atomic.yaml", dir + "crd-v2-map.yaml", dir + "stored.json"},
			`    "mergeTypeChanges": [`},
		{"map-to-atomic-shared-text", []string{dir + "crd-v2-map.yaml", dir + "crd-v1-atomic.yaml", "testdata/apply/upgrade-shared-ports.json"},
			`        new conflicts: .spec.ports: conflict with "metrics-controller"`},
		{"unchanged-no-section-text", []string{dir + "crd-v1-atomic.yaml", dir + "crd-v1-atomic.yaml", dir + "stored.json"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"upgrade"}, tt.args...), strings.NewReader(""), &stdout, &stderr)
			if code != 0 {
				t.Errorf("exit status %d\nstderr: %s", code, stderr.String())
			}
			out := stdout.String()
			switch {
			case tt.want == "" && strings.Contains(out, "Apply behaviour"):
				t.Errorf("an apply behaviour section when no merge type changes:\n%s", out)
			case tt.want != "" && !strings.Contains(out, tt.want+"\n"):
				t.Errorf("no line %q in:\n%s", tt.want, out)
			}
			got := fmt.Sprintf("exit: %d\n--- stdout\n%s--- stderr\n%s", code, out, stderr.String())
			golden := filepath.Join("testdata", "upgrade-apply-"+tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/crdlab -run %s -update)", err, t.Name())
			}
			if got != string(want) {
				t.Errorf("output differs from %s (go test ./cmd/crdlab -run %s -update rewrites it)\n--- got\n%s\n--- want\n%s", golden, t.Name(), got, want)
			}
		})
	}
}

// TestUpgradeApplyBehaviourJSONField: -o json carries the section as
// applyBehaviour, absent when the CRD update is rejected.
func TestUpgradeApplyBehaviourJSONField(t *testing.T) {
	const dir = "../../examples/apply/upgrade/"
	var stdout, stderr bytes.Buffer
	run([]string{"upgrade", "-o", "json", dir + "crd-v1-atomic.yaml", dir + "crd-v2-map.yaml", dir + "stored.json"}, strings.NewReader(""), &stdout, &stderr)
	var rep struct {
		ApplyBehaviour *struct {
			MergeTypeChanges []struct{ Path, Old, New string }
			Objects          []struct{ Orphaned []string }
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.ApplyBehaviour == nil || len(rep.ApplyBehaviour.MergeTypeChanges) != 1 || rep.ApplyBehaviour.MergeTypeChanges[0].Path != ".spec.ports" || len(rep.ApplyBehaviour.Objects[0].Orphaned) != 2 {
		t.Errorf("applyBehaviour: %s", stdout.String())
	}
	// a rejected update (the scope changes): no section
	stdout.Reset()
	bad := filepath.Join(t.TempDir(), "cluster.yaml")
	src, err := os.ReadFile(dir + "crd-v2-map.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, bytes.Replace(src, []byte("scope: Namespaced"), []byte("scope: Cluster"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	run([]string{"upgrade", "-o", "json", dir + "crd-v1-atomic.yaml", bad, dir + "stored.json"}, strings.NewReader(""), &stdout, &stderr)
	if strings.Contains(stdout.String(), "applyBehaviour") {
		t.Errorf("applyBehaviour for a rejected update: %s", stdout.String())
	}
}
