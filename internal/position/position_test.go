package position

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/internal/testsupport/cputime"
)

const crontab = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: x
  labels:
    app.kubernetes.io/name: web
    plain: "1"
spec:
  cronSpec: "* * * * */5"
  items:
  - name: a
  - name: b
  -   name: c
      size: 3
  "a.b":
    c: 1
  a:
    x: 2
  flow: {k: [1, 2, {deep: true}]}
  ref: &r {p: 1}
  alias: *r
`

const crontabJSON = `{
  "apiVersion": "stable.example.com/v1",
  "kind": "CronTab",
  "metadata": {"name": "x", "labels": {"app.kubernetes.io/name": "web"}},
  "spec": {
	"items": [
	  {"name": "a"},
	  {"name": "b", "size": 3}
	]
  }
}`

func TestFind(t *testing.T) {
	tests := []struct {
		src, path string
		line, col int
		exact     bool
	}{
		{crontab, "", 1, 1, true},
		{crontab, "<nil>", 1, 1, true},
		{crontab, "kind", 2, 1, true},
		{crontab, ".kind", 2, 1, true},
		{crontab, "metadata.name", 4, 3, true},
		{crontab, "metadata.labels[app.kubernetes.io/name]", 6, 5, true},
		{crontab, "metadata.labels.app.kubernetes.io/name", 6, 5, true}, // strict-decoding rendering
		{crontab, "metadata.labels[plain]", 7, 5, true},
		{crontab, "spec.cronSpec", 9, 3, true},
		{crontab, "spec.items", 10, 3, true},
		{crontab, "spec.items[0]", 11, 5, true},
		{crontab, "spec.items[1].name", 12, 5, true},
		{crontab, "spec.items[2].size", 14, 7, true},
		{crontab, "spec.a.b.c", 16, 5, true}, // key "a.b" holds c; key "a" has no b
		{crontab, "spec.a.x", 18, 5, true},
		{crontab, "spec.flow.k[2].deep", 19, 21, true},
		{crontab, "spec.flow.k[1]", 19, 17, true},
		{crontab, "spec.alias.p", 20, 12, true}, // through the alias: the anchored node
		// missing → nearest existing ancestor
		{crontab, "spec.foo", 8, 1, false},
		{crontab, "spec.items[7].name", 10, 3, false},
		{crontab, "spec.items[1].missing", 12, 5, false},
		{crontab, "metadata.labels[nope]", 5, 3, false},
		{crontab, "nothere.at.all", 1, 1, false},
		{crontab, "spec.cronSpec.deeper", 9, 3, false},
		{crontab, "spec.items[x]", 10, 3, false},
		// JSON (tabs inside flow collections)
		{crontabJSON, "kind", 3, 3, true},
		{crontabJSON, "metadata.labels[app.kubernetes.io/name]", 4, 40, true},
		{crontabJSON, "spec.items[1].size", 8, 18, true},
		{crontabJSON, "spec.items[1]", 8, 4, true},
		{crontabJSON, "spec.nope", 5, 3, false},
	}
	for _, tt := range tests {
		tree := Parse([]byte(tt.src))
		if tree == nil {
			t.Fatalf("Parse failed")
		}
		got, exact := tree.Find(tt.path)
		if got != (Position{tt.line, tt.col}) || exact != tt.exact {
			t.Errorf("Find(%q) = %v, %v; want {%d %d}, %v", tt.path, got, exact, tt.line, tt.col, tt.exact)
		}
	}
}

func TestParseFailures(t *testing.T) {
	for _, src := range []string{"a: [", "", "# only a comment\n"} {
		if tree := Parse([]byte(src)); tree != nil {
			t.Errorf("Parse(%q) = %v, want nil", src, tree)
		}
		var tree *Tree
		if p, ok := tree.Find("a"); p.Line > 0 || ok {
			t.Errorf("nil tree found %v", p)
		}
	}
	// a leading document separator
	tree := Parse([]byte("---\nkind: X\nspec:\n  a: 1\n"))
	if p, _ := tree.Find("spec.a"); p != (Position{4, 3}) {
		t.Errorf("after ---: %v", p)
	}
}

func TestQuoted(t *testing.T) {
	tests := []struct {
		msg  string
		want []string
	}{
		{`unknown field "spec.x"`, []string{"spec.x"}},
		{`strict decoding error: duplicate field "spec.a", unknown field "spec.b[0].c", unknown field "spec.\"q\""`, []string{"spec.a", "spec.b[0].c", `spec."q"`}},
		{`unrecognized format "foo"`, nil},
		{`unknown field "unterminated`, nil},
	}
	for _, tt := range tests {
		if got := Quoted(tt.msg); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Quoted(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}

// Keys that are prefixes of each other at every level: the backtracking is
// bounded, and the answer is still an ancestor.
func TestFindPathological(t *testing.T) {
	var b strings.Builder
	keys := []string{"a", "a.a", "a.a.a", "a.a.a.a"}
	var gen func(depth int, indent string)
	gen = func(depth int, indent string) {
		for _, k := range keys {
			b.WriteString(indent + `"` + k + `":`)
			if depth == 0 {
				b.WriteString(" 1\n")
				continue
			}
			b.WriteString("\n")
			gen(depth-1, indent+"  ")
		}
	}
	gen(5, "")
	tree := Parse([]byte(b.String()))
	if tree == nil {
		t.Fatal("no tree")
	}
	cpu := cputime.Start()
	p, ok := tree.Find(strings.Repeat("a.", 60) + "b")
	if ok || p.Line <= 0 {
		t.Errorf("Find = %v, %v; want an ancestor", p, ok)
	}
	// A guard against exponential backtracking (which would take hours
	// on 60 levels): Find uses 3 ms of CPU time alone; a second of CPU
	// time, which other processes' load does not inflate, is the floor
	// every such bound gets.
	cpu.Check(t, time.Second, "Find")
}

func TestParseDepthBound(t *testing.T) {
	nest := func(depth int) string {
		return `{"spec":{"x":` + strings.Repeat("[", depth-2) + strings.Repeat("]", depth-2) + "}}"
	}
	tests := []struct {
		name, src string
		parsed    bool
	}{
		{"JSON at MaxDepth", nest(MaxDepth), true},
		{"JSON one level deeper", nest(MaxDepth + 1), false},
		{"JSON 100,000 levels", nest(100000), false},
		{"brackets in strings do not count", `{"s":"` + strings.Repeat("[", 2*MaxDepth) + `","t":["\"[[["]}`, true},
		{"a quote inside a plain scalar opens no string", "[a\"" + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + "]", false},
		{"closing brackets in strings do not hide depth", `[` + `"` + strings.Repeat("]", MaxDepth) + `",` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth+1), false},
		{"YAML is not bounded here", "a: " + strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1) + "\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Parse([]byte(tt.src)) != nil; got != tt.parsed {
				t.Errorf("Parse(...) != nil = %v, want %v", got, tt.parsed)
			}
		})
	}
}
