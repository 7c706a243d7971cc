package wasm

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/crdlab/crdlab/wire"
)

// The module's reports carry the source positions of errors and warnings
// (the engine's, passed through).
func TestReportsCarryPositions(t *testing.T) {
	ctx := context.Background()
	r := newRuntime(t, Options{})
	c, err := r.Compile(ctx, readFile(t, filepath.Join(repoRoot, "examples", "crontab-crd.yaml")))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := c.Validate(ctx, readFile(t, filepath.Join(repoRoot, "examples", "invalid.yaml")), ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]wire.Position{"spec.cronSpec": {Line: 8, Column: 3}, "spec.replicas": {Line: 10, Column: 3}}
	if len(rep.Object.Errors) != len(want) {
		t.Fatalf("errors %+v, want fields %v", rep.Object.Errors, want)
	}
	for _, e := range rep.Object.Errors {
		if e.Position == nil || *e.Position != want[e.Field] {
			t.Errorf("%s: position %v, want %v", e.Field, e.Position, want[e.Field])
		}
	}
	rep, err = c.Validate(ctx, readFile(t, filepath.Join(repoRoot, "examples", "unknown-field.yaml")), ValidateOptions{FieldValidation: Warn})
	if err != nil {
		t.Fatal(err)
	}
	if ps := rep.Object.WarningPositions; len(ps) != 1 || ps[0] == nil || *ps[0] != (wire.Position{Line: 11, Column: 3}) {
		t.Errorf("warning positions %v, want [{11 3}]", ps)
	}
}
