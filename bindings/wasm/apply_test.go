package wasm

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crdlab/crdlab/apply"
	"github.com/crdlab/crdlab/engine"
)

// TestParityApply: CRD.Apply answers, byte for byte, the native
// apply.Run report's Wire() for the examples of docs/apply.md (a create,
// applies on a stored object, at a given time).
func TestParityApply(t *testing.T) {
	ctx := context.Background()
	r := newRuntime(t, Options{})
	dir := filepath.Join(repoRoot, "examples", "apply")
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tt := range []struct {
		name, crd, steps, stored string
		time                     time.Time
	}{
		{"two managers", "crd.yaml", "steps.yaml", "", time.Time{}},
		{"before the upgrade", "upgrade/crd-v1-atomic.yaml", "upgrade/before.yaml", "", time.Date(2027, 5, 1, 10, 0, 0, 0, time.UTC)},
		{"after the upgrade", "upgrade/crd-v2-map.yaml", "upgrade/after.yaml", "upgrade/stored.json", time.Time{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			crdBytes := read(tt.crd)
			c, err := engine.Compile(crdBytes)
			if err != nil {
				t.Fatal(err)
			}
			steps, err := apply.ParseSteps(read(tt.steps))
			if err != nil {
				t.Fatal(err)
			}
			var stored []byte
			if tt.stored != "" {
				stored = read(tt.stored)
			}
			rep, err := apply.Run(c, stored, steps, apply.Options{Time: tt.time})
			if err != nil {
				t.Fatal(err)
			}
			w, err := rep.Wire()
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(w)
			wc, err := r.Compile(ctx, crdBytes)
			if err != nil {
				t.Fatal(err)
			}
			got, err := wc.ApplyRaw(ctx, read(tt.steps), ApplyOptions{Stored: stored, Time: tt.time})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("module:\n%s\nnative:\n%s", got, want)
			}
			res, err := wc.Apply(ctx, read(tt.steps), ApplyOptions{Stored: stored, Time: tt.time})
			if err != nil || len(res.Steps) != len(steps) {
				t.Fatalf("Apply: %v %+v", err, res)
			}
		})
	}
	c, err := r.Compile(ctx, read("crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Apply(ctx, []byte("- operation: Patch\n"), ApplyOptions{}); err == nil {
		t.Error("a bad steps file is not an error")
	} else if e, ok := err.(*Error); !ok || e.Code != "BadRequest" {
		t.Errorf("a bad steps file: %v", err)
	}
}
