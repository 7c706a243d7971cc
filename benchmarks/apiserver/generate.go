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

// limitsCRD is the CRD of the request-limits suite: an unbounded string,
// so that only the size of the request decides.
const limitsCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: blobs.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: blobs, singular: blob, kind: Blob, listKind: BlobList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              data: {type: string}
`

// requestBodyLimit is the API server's MaxRequestBodyBytes default.
const requestBodyLimit = 3 << 20

// generateLimitsSuite writes a suite of the API server's request limits
// (issue 16) into dir: an object whose body is over 3 MiB is refused
// before decoding ("Request entity too large: limit is 3145728", HTTP
// 413), one of 1 MiB is accepted. Its data string alone is the limit's
// size, so that the body is over it as the JSON the backend sends and as
// the YAML crdlab reads. (Between 2 MiB and 3 MiB the API server decodes
// and validates an object, then fails to store it: measured, a 2 MiB
// object's create fails with "rpc error: code = ResourceExhausted desc =
// trying to send message larger than max (2097515 vs. 2097152)", the
// limit of its etcd client; etcd's own --max-request-bytes is 1.5 MiB.
// crdlab answers as a server-side dry run, which stores nothing, and
// accepts it: that range is left out.) The suite is generated, not
// committed: 4 MiB of text.
func generateLimitsSuite(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "blobs-crd.yaml"), []byte(limitsCRD), 0o644); err != nil {
		return err
	}
	var s strings.Builder
	s.WriteString("name: Request limits\ncrd: blobs-crd.yaml\ntests:\n  onCreate:\n")
	fmt.Fprintf(&s, "  - name: a body over 3 MiB is refused before decoding\n    initial: |\n      apiVersion: example.com/v1\n      kind: Blob\n      spec: {data: %s}\n    expectedError: \"Request entity too large: limit is %d\"\n", strings.Repeat("x", requestBodyLimit), requestBodyLimit)
	fmt.Fprintf(&s, "  - name: a body of 1 MiB is accepted\n    initial: |\n      apiVersion: example.com/v1\n      kind: Blob\n      spec: {data: %s}\n    expected: |\n      apiVersion: example.com/v1\n      kind: Blob\n      spec: {data: %s}\n", strings.Repeat("y", 1<<20), strings.Repeat("y", 1<<20))
	return os.WriteFile(filepath.Join(dir, "limits.testsuite.yaml"), []byte(s.String()), 0o644)
}
