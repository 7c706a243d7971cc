package main

import (
	"encoding/json"
	"testing"

	"github.com/crdlab/crdlab/crdtest"
)

// TestGeneratedSuite: the timing suite is BenchmarkSuite1000's, all
// passing with crdlab.
func TestGeneratedSuite(t *testing.T) {
	dir := t.TempDir()
	if err := generateSuite(dir, 1000); err != nil {
		t.Fatal(err)
	}
	rep, err := crdtest.RunPaths(crdtest.Options{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	if p, f := rep.Counts(); p != 1000 || f != 0 || len(rep.LoadErrors) != 0 {
		t.Fatalf("%d pass, %d fail, load errors %v", p, f, rep.LoadErrors)
	}
}

func TestParseWarning(t *testing.T) {
	for in, want := range map[string]string{
		`299 - "unknown field \"spec.colour\""`: `unknown field "spec.colour"`,
		`299 - "a, b"`:                          "a, b",
		`garbage`:                               "garbage",
	} {
		if got := parseWarning(in); got != want {
			t.Errorf("parseWarning(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAddSentinel(t *testing.T) {
	in := `{"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"object"}}},{"name":"v2"}]}}`
	out, err := addSentinel([]byte(in), "tok")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Spec struct {
			Versions []struct {
				Schema *struct {
					OpenAPIV3Schema struct {
						Properties map[string]struct {
							Type string   `json:"type"`
							Enum []string `json:"enum"`
						} `json:"properties"`
					} `json:"openAPIV3Schema"`
				} `json:"schema"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["sentinel"]
	if s.Type != "string" || len(s.Enum) != 1 || s.Enum[0] != "tok" || doc.Spec.Versions[1].Schema != nil {
		t.Errorf("sentinel not added as expected: %s", out)
	}
}

func TestSameErrors(t *testing.T) {
	a := `create failed:
    X.g "n" is invalid: [spec.a: Invalid value: "1": x, y, spec.b[0]: Required value, <nil>: Invalid value: null: some rules]`
	b := `create failed:
    X.g "n" is invalid: [spec.b[0]: Required value, spec.a: Invalid value: "1": x, y, <nil>: Invalid value: null: some rules]`
	c := `create failed:
    X.g "n" is invalid: [spec.b[0]: Required value, spec.a: Invalid value: "2": x, y, <nil>: Invalid value: null: some rules]`
	if !sameErrors(a, b) {
		t.Error("a reordered list is not the same errors")
	}
	if sameErrors(a, c) || sameErrors(a, "create failed:\n    "+`X.g "n" is invalid: spec.a: Invalid value: "1": x, y`) {
		t.Error("different errors reported as the same")
	}
}

func TestNormalize(t *testing.T) {
	in := `X.g "test-ab1c9" is invalid` + "\n+  name: test-q2w3e\n" + `"test-toolong"`
	want := `X.g "test-xxxxx" is invalid` + "\n+  name: test-xxxxx\n" + `"test-toolong"`
	if got := normalize(in); got != want {
		t.Errorf("normalize = %q, want %q", got, want)
	}
}
