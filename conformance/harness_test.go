package conformance

import (
	"errors"
	"strings"
	"testing"
)

func TestCompareOrderOnlyDifferences(t *testing.T) {
	rep := func(errs ...string) interface{} {
		var l []interface{}
		for _, e := range errs {
			l = append(l, map[string]interface{}{"field": e})
		}
		return map[string]interface{}{"object": map[string]interface{}{"errors": l, "warnings": []interface{}{}, "pruned": []interface{}{}}}
	}
	stable := func() Outcome { return Outcome{Report: rep("a", "b")} }
	flip := true
	varying := func() Outcome {
		flip = !flip
		if flip {
			return Outcome{Report: rep("a", "b")}
		}
		return Outcome{Report: rep("b", "a")}
	}
	tests := []struct {
		name     string
		up, cl   Outcome
		rerun    func() Outcome
		wantDiff string // "" means agree
	}{
		{"identical reports agree", Outcome{Report: rep("a", "b")}, Outcome{Report: rep("a", "b")}, nil, ""},
		{"order differs and upstream order varies: agree", Outcome{Report: rep("a", "b")}, Outcome{Report: rep("b", "a")}, varying, ""},
		{"order differs and upstream order is stable: differ", Outcome{Report: rep("a", "b")}, Outcome{Report: rep("b", "a")}, stable, "different order"},
		{"different elements: differ", Outcome{Report: rep("a")}, Outcome{Report: rep("c")}, nil, "report mismatch"},
		{"both failed: agree", Outcome{Err: errors.New("x")}, Outcome{Err: errors.New("y")}, nil, ""},
		{"only crdlab failed: differ", Outcome{Report: rep()}, Outcome{Err: errors.New("boom")}, nil, "crdlab failed: boom"},
		{"only upstream failed: differ", Outcome{Err: errors.New("bad")}, Outcome{Report: rep()}, nil, "upstream failed: bad"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Compare(tt.up, tt.cl, tt.rerun)
			if tt.wantDiff == "" && d != "" {
				t.Fatalf("want agreement, got:\n%s", d)
			}
			if tt.wantDiff != "" && !strings.Contains(d, tt.wantDiff) {
				t.Fatalf("want a difference containing %q, got %q", tt.wantDiff, d)
			}
		})
	}
}

func TestCanonStrictSortsViolations(t *testing.T) {
	in := `Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "b", duplicate field "a"`
	want := `Widget in version "v1" cannot be handled as a Widget: strict decoding error: duplicate field "a", unknown field "b"`
	if got := canonStrict(in); got != want {
		t.Fatalf("got %q", got)
	}
	if got := canonStrict("plain"); got != "plain" {
		t.Fatalf("got %q", got)
	}
}

func TestSplitDocsAndTemplates(t *testing.T) {
	docs, err := SplitDocs([]byte("# header\n---\na: 1\n--- # second\nb: 2\n---\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 {
		t.Fatalf("want 2 documents, got %d: %q", len(docs), docs)
	}
	for _, tt := range []struct {
		doc  string
		want bool
	}{
		{"description: |\n  falls back to `{{ .name }}-x`\n", false},
		{"{{- if .Values.crds }}\nkind: X\n", true},
		{"name: {{ .Release.Name }}\n", true},
		{"plain: yaml\n", false},
	} {
		if got := isTemplate([]byte(tt.doc)); got != tt.want {
			t.Errorf("isTemplate(%q) = %v, want %v", tt.doc, got, tt.want)
		}
	}
}

func TestStripCELKeepsPropertyNamedLikeTheKeyword(t *testing.T) {
	in := `{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-validations":[{"rule":"true"}],"properties":{"x-kubernetes-validations":{"type":"string"}}}}}]}}`
	out, err := StripCEL([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	if strings.Contains(s, `"rule"`) {
		t.Errorf("rule kept: %s", s)
	}
	if !strings.Contains(s, `"properties":{"x-kubernetes-validations":{"type":"string"}}`) {
		t.Errorf("property removed: %s", s)
	}
}

func TestLoadCasesResolvesSchemaAndPatches(t *testing.T) {
	cases, err := LoadCases("testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 150 {
		t.Fatalf("want at least 150 cases, got %d", len(cases))
	}
	for _, c := range cases {
		if c.Description == "" {
			t.Errorf("%s: no description", c.ID)
		}
		if c.Schema != nil && !strings.Contains(string(c.Request.CRD), "openAPIV3Schema") {
			t.Errorf("%s: schema not applied", c.ID)
		}
	}
}
