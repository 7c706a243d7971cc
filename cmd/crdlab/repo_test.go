package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"github.com/crdlab/crdlab/internal/testsupport/testenv"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/wire"
	"sigs.k8s.io/yaml"
)

// gatewayModule returns the Gateway API module of the corpus, or skips.
func gatewayModule(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short")
	}
	out, err := exec.Command("../../scripts/corpus.sh").Output()
	if err != nil {
		testenv.Unavailable(t, "corpus: %v", err)
	}
	for _, d := range strings.Fields(string(out)) {
		if strings.Contains(d, "/sigs.k8s.io/gateway-api@") {
			return d
		}
	}
	testenv.Unavailable(t, "gateway-api is not in the corpus")
	return ""
}

// TestGatewayAPIExamplesDirectory is issue 13's done-when: Gateway API's
// examples directory, with its CRDs given as a directory, validates every
// Gateway API object against its own CRD and the rest (Namespaces) as
// built-in objects, and exits 0.
func TestGatewayAPIExamplesDirectory(t *testing.T) {
	mod := gatewayModule(t)
	var stdout, stderr bytes.Buffer
	code := run([]string{"validate", "-R", "--crd", filepath.Join(mod, "config/crd/experimental"), filepath.Join(mod, "examples"), "-o", "json"}, nil, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	var rep wire.RunReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, e := range rep.Results {
		gateway := strings.HasPrefix(e.APIVersion, "gateway.networking.")
		switch {
		case gateway && (e.Status != wire.StatusValid || !strings.HasSuffix(e.CRD, "."+strings.Split(e.APIVersion, "/")[0])):
			t.Errorf("%s:%d %s %s: %s against %q", e.File, e.Line, e.Kind, e.Name, e.Status, e.CRD)
		case !gateway && (e.Kind != "Namespace" || e.Status != wire.StatusValid || e.Result == nil):
			t.Errorf("%s:%d %s %s: %s, reason %q", e.File, e.Line, e.Kind, e.Name, e.Status, e.Reason)
		}
		kinds[e.Kind] = true
	}
	for _, k := range []string{"Gateway", "HTTPRoute", "GRPCRoute", "GatewayClass", "ReferenceGrant", "Namespace"} {
		if !kinds[k] {
			t.Errorf("no %s among the results", k)
		}
	}
	if rep.Summary.Valid < 50 || rep.Summary.Total != rep.Summary.Valid {
		t.Errorf("summary %+v", rep.Summary)
	}
	// Text: kubectl's line per Namespace.
	stdout.Reset()
	code = run([]string{"validate", "-R", "--crd", filepath.Join(mod, "config/crd/experimental"), filepath.Join(mod, "examples"), "--summary"}, nil, &stdout, &stderr)
	if code != 0 || !regexp.MustCompile(`(?m)^namespace/gateway-api-example-ns1 created \(server dry run\)$`).Match(stdout.Bytes()) ||
		!strings.Contains(stdout.String(), "httproute.gateway.networking.k8s.io/") || !strings.Contains(stdout.String(), "Summary: ") {
		t.Errorf("text (exit %d):\n%s", code, stdout.String())
	}
}

// TestMalformedInputs: unreadable or unparseable input is exit 2 with
// file:line whatever its role (--crd, object, CRD among objects, --old,
// lint, cost).
func TestMalformedInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	crd := "../../examples/crontab-crd.yaml"
	obj := "../../examples/valid.yaml"
	badYAML := write("bad.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [x\n")
	badSep := write("sep.yaml", "a: 1\n--- b\n")
	badCRD := write("crd.yaml", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.b.c}\nspec:\n  group: 3\n")
	noCRD := write("nocrd.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"validate", "--crd", crd, badYAML}, badYAML + ":4: yaml: "},
		{[]string{"validate", "--crd", badYAML, obj}, badYAML + ":4: yaml: "},
		{[]string{"validate", "--crd", crd, "--old", badYAML, obj}, badYAML + ":4: yaml: "},
		{[]string{"validate", "--crd", crd, badSep}, badSep + ":2: invalid Yaml document separator: b"},
		// An object's syntax error is met as the run streams (after obj's
		// entry), or up front when the run stops first (no CRDs).
		{[]string{"validate", "--crd", crd, obj, badYAML}, badYAML + ":4: yaml: "},
		{[]string{"validate", badYAML}, badYAML + ":4: yaml: "},
		{[]string{"validate", badYAML, badSep}, badYAML + ":4: yaml: "},
		{[]string{"validate", "--crd", crd, crd, badYAML}, badYAML + ":4: yaml: "},
		{[]string{"validate", "--crd", badCRD, obj}, badCRD + ":5:10: spec.group: expected string, got number 3"},
		{[]string{"validate", "--crd", crd, badCRD, obj}, badCRD + ":5:10: spec.group: expected string, got number 3"},
		{[]string{"validate", "--crd", noCRD, obj}, noCRD + ": no CustomResourceDefinition found (--crd)"},
		{[]string{"validate", "--crd", crd, filepath.Join(dir, "none.yaml")}, filepath.Join(dir, "none.yaml") + ": no such file or directory"},
		{[]string{"lint", badYAML}, badYAML + ":4: yaml: "},
		{[]string{"lint", badCRD}, badCRD + ":5:10: spec.group: expected string, got number 3"},
		{[]string{"cost", badCRD}, badCRD + ":5:10: spec.group: expected string, got number 3"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tc.args, nil, &stdout, &stderr)
		if code != exitUsage || !strings.HasPrefix(stderr.String(), "crdlab: "+tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want crdlab: %s", tc.args, code, stderr.String(), tc.want)
		}
	}
}

// TestStdinOnce: stdin read for one role says so when another wants it.
func TestStdinOnce(t *testing.T) {
	crd, _ := os.ReadFile("../../examples/crontab-crd.yaml")
	var stdout, stderr bytes.Buffer
	code := run([]string{"validate", "--crd", "-", "../../examples/valid.yaml"}, bytes.NewReader(crd), &stdout, &stderr)
	if code != 0 || !strings.Contains(stdout.String(), "created (server dry run)") {
		t.Errorf("--crd -: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
}

// TestHelpEverywhere: every command's --help and `crdlab help CMD` print
// the same description, flags and examples on stdout, exit 0.
func TestHelpEverywhere(t *testing.T) {
	for name := range commands {
		var a, b, errs bytes.Buffer
		if code := run([]string{name, "--help"}, nil, &a, &errs); code != 0 {
			t.Errorf("%s --help: exit %d", name, code)
		}
		if code := run([]string{"help", name}, nil, &b, &errs); code != 0 {
			t.Errorf("help %s: exit %d", name, code)
		}
		if a.String() != b.String() || !strings.Contains(a.String(), "Examples:\n") || !strings.Contains(a.String(), "Flags:\n") || errs.Len() > 0 {
			t.Errorf("%s: help differs or lacks examples/flags:\n%s\n---\n%s\n%s", name, a.String(), b.String(), errs.String())
		}
		var h bytes.Buffer
		if code := run([]string{name, "-h"}, nil, &h, &errs); code != 0 || h.String() != a.String() {
			t.Errorf("%s -h: exit %d", name, code)
		}
	}
}

// TestSyntaxErrorWhileStreaming: the objects are parsed as the run goes,
// so a document that is not YAML after valid ones stops the run there:
// the entries before it are written, then the error, exit 2 (the error is
// the one a run reading everything first reports).
func TestSyntaxErrorWhileStreaming(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "z-bad.yaml")
	if err := os.WriteFile(bad, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"validate", "--crd", "../../examples/crontab-crd.yaml", "../../examples/valid.yaml", bad}, nil, &stdout, &stderr)
	if code != exitUsage || !strings.HasPrefix(stderr.String(), "crdlab: "+bad+":4: yaml: ") || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	if stdout.String() != "crontab.stable.example.com/my-new-cron-object created (server dry run)\n" {
		t.Errorf("stdout %q: want valid.yaml's entry only", stdout.String())
	}
}

// TestSyntaxErrorWhileStreamingKeepsDocumentsParseable: when a document
// that is not YAML stops a streamed run, -o json, yaml and junit still
// print one complete document over the entries before it (the summary
// counts those), and the buffered streaming formats (jsonl, tap) print
// those entries, with the error on stderr and exit 2.
func TestSyntaxErrorWhileStreamingKeepsDocumentsParseable(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "z-bad.yaml")
	if err := os.WriteFile(bad, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"json", "yaml", "junit", "jsonl", "tap"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"validate", "-o", format, "--crd", "../../examples/crontab-crd.yaml", "../../examples/valid.yaml", bad}, nil, &stdout, &stderr)
		if code != exitUsage || !strings.HasPrefix(stderr.String(), "crdlab: "+bad+":4: yaml: ") {
			t.Errorf("-o %s: exit %d, stderr %q", format, code, stderr.String())
		}
		switch format {
		case "json":
			var doc wire.RunReport
			if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil || len(doc.Results) != 1 || doc.Summary.Valid != 1 || doc.Summary.Total != 1 {
				t.Errorf("-o json: %v, %+v:\n%s", err, doc.Summary, stdout.String())
			}
		case "yaml":
			var doc map[string]interface{}
			if err := yaml.Unmarshal(stdout.Bytes(), &doc); err != nil || doc["summary"] == nil {
				t.Errorf("-o yaml: %v:\n%s", err, stdout.String())
			}
		case "jsonl":
			var entry wire.RunEntry
			if err := json.Unmarshal(stdout.Bytes(), &entry); err != nil || entry.Status != wire.StatusValid || strings.Count(stdout.String(), "\n") != 1 {
				t.Errorf("-o jsonl: %v, %q:\n%s", err, entry.Status, stdout.String())
			}
		case "tap":
			if !strings.Contains(stdout.String(), "\nok 1 - ../../examples/valid.yaml:") {
				t.Errorf("-o tap: no line for valid.yaml:\n%s", stdout.String())
			}
		case "junit":
			var doc struct {
				XMLName xml.Name `xml:"testsuites"`
				Tests   int      `xml:"tests,attr"`
			}
			if err := xml.Unmarshal(stdout.Bytes(), &doc); err != nil || doc.Tests != 1 {
				t.Errorf("-o junit: %v, %d tests:\n%s", err, doc.Tests, stdout.String())
			}
		}
	}
}
