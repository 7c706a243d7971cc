package crdtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/internal/testsupport/cputime"
)

// aliasBombLines is a YAML alias bomb (9^10 strings once expanded) as
// mapping lines indented by indent spaces.
func aliasBombLines(indent string) string {
	var b strings.Builder
	b.WriteString(indent + "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "%sa%d: &a%d [", indent, i, i)
		for j := 0; j < 9; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// TestAdmissionHostileSuites: hostile suite files and policies (alias
// bombs in an object, in the suite, in an inline policy; nesting deeper
// than the decoders allow; a CEL cost bomb; many cases) end in a clear
// error or verdict, quickly, never a panic or a hang.
func TestAdmissionHostileSuites(t *testing.T) {
	const obj = "    object: |\n      apiVersion: v1\n      kind: ConfigMap\n      metadata: {name: c}\n"
	policy := func(expr string) string {
		return "    policies:\n    - |\n      apiVersion: admissionregistration.k8s.io/v1\n      kind: ValidatingAdmissionPolicy\n      metadata: {name: p}\n      spec:\n" +
			"        matchConstraints: {resourceRules: [{apiGroups: [\"\"], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]}\n" +
			"        validations: [{expression: \"" + expr + "\"}]\n      ---\n      apiVersion: admissionregistration.k8s.io/v1\n      kind: ValidatingAdmissionPolicyBinding\n      metadata: {name: p}\n      spec: {policyName: p, validationActions: [Deny]}\n"
	}
	var many strings.Builder
	many.WriteString("tests:\n  admission:\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&many, "  - name: c%d\n%s", i, obj)
	}
	for _, tc := range []struct {
		name, suite string
		// want is a substring of the load error or of the one case's
		// failure; "" means every case passes.
		want string
	}{
		{"alias bomb in an object", "tests:\n  admission:\n  - name: a\n    object: |\n      apiVersion: v1\n      kind: ConfigMap\n" + aliasBombLines("      "), "f.crdtest.yaml:4: admission case \"a\": object: not valid YAML"},
		{"alias bomb in the suite", "x:\n" + aliasBombLines("  ") + "tests:\n  admission:\n  - name: a\n" + obj, "alias"},
		{"alias bomb in an inline policy", "tests:\n  admission:\n  - name: a\n    policies:\n    - |\n      apiVersion: v1\n      kind: ConfigMap\n      metadata: {name: p}\n      data:\n" + aliasBombLines("        ") + obj, "f.crdtest.yaml:5: yaml: document contains excessive aliasing"},
		{"deep nesting in an object", "tests:\n  admission:\n  - name: a\n    object: |\n      apiVersion: v1\n      kind: ConfigMap\n      data: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n", "admission case \"a\": object:"},
		{"a CEL cost bomb", "tests:\n  admission:\n  - name: a\n" + policy("[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(f, [1,2,3,4,5,6,7,8,9,10].all(g, true)))))))") + obj, "cost"},
		{"2000 cases", many.String(), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f.crdtest.yaml")
			if err := os.WriteFile(p, []byte(tc.suite), 0o644); err != nil {
				t.Fatal(err)
			}
			cpu := cputime.Start()
			rep, err := RunPaths(Options{}, p)
			if err != nil {
				t.Fatal(err)
			}
			// A guard against runaway work: the slowest case uses
			// 0.21 s of CPU time alone (2000 cases); ten times that, in CPU time,
			// which other processes' load does not inflate.
			cpu.Check(t, 3*time.Second, "the suite")
			var msgs []string
			for _, le := range rep.LoadErrors {
				msgs = append(msgs, le.Err)
			}
			for _, r := range rep.Results {
				if !r.Passed {
					msgs = append(msgs, r.Message)
				}
			}
			got := strings.Join(msgs, "\n")
			if len(got) > 2000 {
				got = got[:2000]
			}
			switch {
			case tc.want == "" && len(msgs) > 0:
				t.Errorf("failures: %s", got)
			case tc.want != "" && !strings.Contains(got, tc.want):
				t.Errorf("got %q, want an error containing %q", got, tc.want)
			}
		})
	}
}

// FuzzParseSuite: any suite text is parsed or refused with an error, never
// a panic (seeded with the admission suites and the cases of
// TestParseAdmissionErrors' kind).
func FuzzParseSuite(f *testing.F) {
	for _, p := range []string{"testdata/admission/widgets.crdtest.yaml", "testdata/k8s-docs/map.crdtest.yaml", "testdata/failing/failing.testsuite.yaml"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("tests:\n  admission:\n  - name: a\n    request: {userInfo: {groups: [a], extra: {k: [v]}}, options: {}}\n    oldObject: |\n      apiVersion: v1\n      kind: X\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSuite("f.yaml", data)
		if err == nil && s == nil {
			t.Fatal("no suite and no error")
		}
	})
}
