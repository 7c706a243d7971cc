package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// widgetsCRD is crdtest/testdata/widgets/widgets-crd.yaml, the CRD of
// crdtest's BenchmarkSuite1000.
const widgetsCRD = "../../crdtest/testdata/widgets/widgets-crd.yaml"

// generateSuite writes crdtest's BenchmarkSuite1000 suite with n cases
// (n/2 onCreate, half with an expected object, half with an expected CEL
// error; n/2 onUpdate with status) and its CRD into dir.
func generateSuite(dir string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	crd, err := os.ReadFile(widgetsCRD)
	if err != nil {
		return fmt.Errorf("%v (run from benchmarks/apiserver)", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "widgets-crd.yaml"), crd, 0o644); err != nil {
		return err
	}
	var s strings.Builder
	s.WriteString("name: Generated\ncrd: widgets-crd.yaml\ntests:\n  onCreate:\n")
	for i := 0; i < n/2; i++ {
		if i%2 == 0 {
			fmt.Fprintf(&s, "  - name: create %d\n    initial: |\n      apiVersion: example.com/v1\n      kind: Widget\n      spec: {maxReplicas: %d}\n    expected: |\n      apiVersion: example.com/v1\n      kind: Widget\n      spec: {size: Small, minReplicas: 1, maxReplicas: %d}\n", i, i+1, i+1)
		} else {
			fmt.Fprintf(&s, "  - name: create %d\n    initial: |\n      apiVersion: example.com/v1\n      kind: Widget\n      spec: {minReplicas: %d, maxReplicas: 0}\n    expectedError: minReplicas must not exceed maxReplicas\n", i, i)
		}
	}
	s.WriteString("  onUpdate:\n")
	for i := 0; i < n/2; i++ {
		fmt.Fprintf(&s, "  - name: update %d\n    initial: |\n      apiVersion: example.com/v1\n      kind: Widget\n      spec: {name: n%d}\n      status: {phase: Pending}\n    updated: |\n      apiVersion: example.com/v1\n      kind: Widget\n      spec: {name: n%d, maxReplicas: 9}\n      status: {phase: Ready}\n    expected: |\n      apiVersion: example.com/v1\n      kind: Widget\n      spec: {name: n%d, size: Small, minReplicas: 1, maxReplicas: 9}\n      status: {phase: Ready}\n", i, i, i, i)
	}
	return os.WriteFile(filepath.Join(dir, "gen.testsuite.yaml"), []byte(s.String()), 0o644)
}
