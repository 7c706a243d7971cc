package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRegeneratingGivesTheCommittedPodTypes runs the generator beside a
// copy of internal/builtin/corev1's hand-written files (the types it must
// not generate again) and fails when its pod.go differs from the committed
// one: the generated types are k8s.io/api's, not edited by hand.
func TestRegeneratingGivesTheCommittedPodTypes(t *testing.T) {
	src := filepath.Join("..", "..", "internal", "builtin", "corev1")
	files, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no files in %s: %v", src, err)
	}
	dir := t.TempDir()
	for _, f := range files {
		if filepath.Base(f) == "pod.go" || strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "pod.go")
	cmd := exec.Command("go", "run", ".", "-o", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run . -o %s: %v\n%s", out, err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(src, "pod.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("internal/builtin/corev1/pod.go is not what tools/builtintypes generates: run\n\tgo -C tools run ./builtintypes -o ../internal/builtin/corev1/pod.go")
	}
}
