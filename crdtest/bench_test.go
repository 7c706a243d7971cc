package crdtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkSuite1000 runs a generated suite of 1,000 cases (onCreate with
// expected objects and expected errors, onUpdate with status) against the
// widgets CRD; it reports cases/s.
func BenchmarkSuite1000(b *testing.B) {
	dir := b.TempDir()
	crd, err := os.ReadFile("testdata/widgets/widgets-crd.yaml")
	if err != nil {
		b.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "widgets-crd.yaml"), crd, 0o644)
	var s strings.Builder
	s.WriteString("name: Generated\ncrd: widgets-crd.yaml\ntests:\n  onCreate:\n")
	for i := 0; i < 500; i++ {
		if i%2 == 0 {
			fmt.Fprintf(&s, "  - name: create %d\n    initial: |\n      apiVersion: example.com/v1\n      kind: Widget\n      spec: {maxReplicas: %d}\n    expected: |\n      apiVersion: example.com/v1\n      kind: Widget\n      spec: {size: Small, minReplicas: 1, maxReplicas: %d}\n", i, i+1, i+1)
		} else {
			fmt.Fprintf(&s, "  - name: create %d\n    initial: |\n      apiVersion: example.com/v1\n      kind: Widget\n      spec: {minReplicas: %d, maxReplicas: 0}\n    expectedError: minReplicas must not exceed maxReplicas\n", i, i)
		}
	}
	s.WriteString("  onUpdate:\n")
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&s, "  - name: update %d\n    initial: |\n      apiVersion: example.com/v1\n      kind: Widget\n      spec: {name: n%d}\n      status: {phase: Pending}\n    updated: |\n      apiVersion: example.com/v1\n      kind: Widget\n      spec: {name: n%d, maxReplicas: 9}\n      status: {phase: Ready}\n    expected: |\n      apiVersion: example.com/v1\n      kind: Widget\n      spec: {name: n%d, size: Small, minReplicas: 1, maxReplicas: 9}\n      status: {phase: Ready}\n", i, i, i, i)
	}
	os.WriteFile(filepath.Join(dir, "gen.testsuite.yaml"), []byte(s.String()), 0o644)
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		rep, err := RunPaths(Options{}, dir)
		if err != nil {
			b.Fatal(err)
		}
		if p, f := rep.Counts(); p != 1000 || f != 0 {
			b.Fatalf("%d passed, %d failed: %+v", p, f, rep.Results[0])
		}
	}
	b.ReportMetric(float64(1000*b.N)/b.Elapsed().Seconds(), "cases/s")
}
