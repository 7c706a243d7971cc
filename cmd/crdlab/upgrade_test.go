package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/wire"
)

// TestUpgradeCLI runs `crdlab upgrade` on examples/upgrade and compares exit
// status, stdout and stderr with testdata/upgrade-<name>.golden.
func TestUpgradeCLI(t *testing.T) {
	const dir = "../../examples/upgrade/"
	tests := []struct {
		name string
		args []string
		exit int
	}{
		{"field-removed-text", []string{dir + "old.yaml", dir + "new.yaml", dir + "small.yaml", dir + "big.yaml"}, 1},
		{"compatible-text", []string{dir + "old.yaml", dir + "old.yaml", dir + "small.yaml"}, 0},
		{"version-dropped-text", []string{dir + "old.yaml", dir + "new-drop-v1.yaml", dir + "small.yaml"}, 1},
		{"stored-versions-migrated-json", []string{"-o", "json", "--stored-versions", "v2", dir + "old.yaml", dir + "new-drop-v1.yaml"}, 0},
		{"fail-on-breaking", []string{"--fail-on-breaking", "--stored-versions", "v2", dir + "old.yaml", dir + "new-drop-v1.yaml"}, 1},
		{"usage-one-crd", []string{dir + "old.yaml"}, 2},
		{"usage-bad-output", []string{"-o", "xml", dir + "old.yaml", dir + "new.yaml"}, 2},
		{"io-missing-object", []string{dir + "old.yaml", dir + "new.yaml", "testdata/does-not-exist.yaml"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"upgrade"}, tt.args...), strings.NewReader(""), &stdout, &stderr)
			if code != tt.exit {
				t.Errorf("exit status %d, want %d\nstdout: %s\nstderr: %s", code, tt.exit, stdout.String(), stderr.String())
			}
			got := fmt.Sprintf("exit: %d\n--- stdout\n%s--- stderr\n%s", code, stdout.String(), stderr.String())
			golden := filepath.Join("testdata", "upgrade-"+tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/crdlab -update)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (go test ./cmd/crdlab -update rewrites it)\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}

// TestUpgradeJSONIsAReport checks that -o json decodes as wire.UpgradeReport
// with the stored object's findings.
func TestUpgradeJSONIsAReport(t *testing.T) {
	const dir = "../../examples/upgrade/"
	var stdout, stderr bytes.Buffer
	code := run([]string{"upgrade", "-o", "json", dir + "old.yaml", dir + "new.yaml", dir + "small.yaml"}, strings.NewReader(""), &stdout, &stderr)
	if code != exitInvalid {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var rep wire.UpgradeReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Safe || len(rep.Objects) != 1 || len(rep.Objects[0].Reads) != 2 {
		t.Fatalf("report: %+v", rep)
	}
	if got := rep.Objects[0].Reads[0].Pruned; len(got) != 1 || got[0] != "spec.legacy" {
		t.Errorf("pruned at v1: %v", got)
	}
}
