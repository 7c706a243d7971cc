package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/internal/testsupport/testenv"
)

// TestMain lets the test binary act as the crdlab command (for editors
// driven by the tests, which start `crdlab lsp`): with
// CRDLAB_TEST_AS_CLI=1 it runs the CLI on its arguments.
func TestMain(m *testing.M) {
	if os.Getenv("CRDLAB_TEST_AS_CLI") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// e2eCRD is examples/crontab-crd.yaml with a broken rule (an undefined
// field) and a rule over the per-expression cost limit.
func e2eCRD(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../examples/crontab-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), "                  default: 1\n", `                  default: 1
                tags:
                  type: array
                  items:
                    type: string
                  x-kubernetes-validations:
                    - rule: "self.all(x, x.matches('^[a-z]+$'))"
              x-kubernetes-validations:
                - rule: "self.replicas <= self.maxReplicas"
                  message: too many replicas
`, 1)
	if text == string(b) {
		t.Fatal("examples/crontab-crd.yaml changed: the rules were not inserted")
	}
	return text
}

// lineCharOf returns the 0-based line and character of marker's first
// occurrence plus delta.
func lineCharOf(t *testing.T, text, marker string, delta int) (int, int) {
	t.Helper()
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatalf("%q not in the text", marker)
	}
	line := strings.Count(text[:i], "\n")
	return line, i - (strings.LastIndex(text[:i], "\n") + 1) + delta
}

type nvimResult struct {
	Steps       []string `json:"steps"`
	Error       string   `json:"error"`
	ClientCount int      `json:"client_count"`
	Diagnostics []struct {
		Lnum, Col, Severity int
		Message             string
	} `json:"diagnostics"`
	Completion   []string `json:"completion"`
	Hover        string   `json:"hover"`
	Actions      []string `json:"actions"`
	ChangedLines []string `json:"changed_lines"`
	AfterFix     []struct {
		Lnum, Col int
		Message   string
	} `json:"after_fix"`
	PolicyDiagnostics []struct {
		Lnum, Col, Severity int
		Message             string
	} `json:"policy_diagnostics"`
}

// nvimPolicy is a ValidatingAdmissionPolicy with one compile error, on
// line 8 (0-based 7) at "nosuch".
const nvimPolicy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replicas
spec:
  failurePolicy: Fail
  validations:
  - expression: "object.spec.replicas <= 5 && nosuch.ok"
`

// TestNeovimEndToEnd drives Debian's Neovim, headless, with its built-in
// LSP client and the configuration of editors/nvim/crdlab.lua, against
// `crdlab lsp` (this test binary as the CLI).
func TestNeovimEndToEnd(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		testenv.Unavailable(t, "nvim is not installed (Debian: apt-get install neovim): the Neovim end-to-end test of crdlab lsp needs it")
		return
	}
	if testing.Short() {
		t.Skip("-short: the Neovim end-to-end test starts an editor")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	text := e2eCRD(t)
	file := filepath.Join(dir, "crontab-crd.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	config, _ := filepath.Abs("../../editors/nvim/crdlab.lua")
	script, _ := filepath.Abs("testdata/nvim/e2e.lua")
	out := filepath.Join(dir, "result.json")
	policy := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(policy, []byte(nvimPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	selfLine, selfChar := lineCharOf(t, text, "self.maxReplicas", len("self."))
	costLine, costChar := lineCharOf(t, text, "self.all(x", 2)

	cmd := exec.Command(nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"CRDLAB_TEST_AS_CLI=1", // the server: this binary running the CLI
		"CRDLAB_BIN="+exe,
		"CRDLAB_NVIM_CONFIG="+config,
		"CRDLAB_E2E_FILE="+file,
		"CRDLAB_E2E_OUT="+out,
		"CRDLAB_E2E_POLICY="+policy,
		"CRDLAB_E2E_SELF_LINE="+strconv.Itoa(selfLine), "CRDLAB_E2E_SELF_CHAR="+strconv.Itoa(selfChar),
		"CRDLAB_E2E_COST_LINE="+strconv.Itoa(costLine), "CRDLAB_E2E_COST_CHAR="+strconv.Itoa(costChar),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"),
	)
	done := make(chan error, 1)
	var output []byte
	go func() {
		var err error
		output, err = cmd.CombinedOutput()
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("nvim: %v\n%s", err, output)
		}
	case <-time.After(3 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("nvim did not finish")
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("no result from nvim (%v); output:\n%s", err, output)
	}
	defer func() {
		if t.Failed() {
			t.Logf("what nvim saw: %s", data)
		}
	}()
	var r nvimResult
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	if r.Error != "" {
		t.Fatalf("the script failed after %v: %s", r.Steps, r.Error)
	}
	if r.ClientCount != 1 {
		t.Errorf("%d LSP clients, want 1", r.ClientCount)
	}

	// the broken rule: on its line, at the '.' CEL points at, with the API
	// server's message (the one `crdlab lint` prints)
	wantLine, wantCol := lineCharOf(t, text, ".maxReplicas", 0)
	found := false
	for _, d := range r.Diagnostics {
		if strings.Contains(d.Message, "compilation failed: ERROR: <input>:1:22: undefined field 'maxReplicas'") {
			found = true
			if d.Lnum != wantLine || d.Col != wantCol || d.Severity != 1 {
				t.Errorf("the compile error is at %d:%d (severity %d), want %d:%d (error)", d.Lnum, d.Col, d.Severity, wantLine, wantCol)
			}
			if !strings.HasPrefix(d.Message, "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: ") {
				t.Errorf("not the API server's message: %s", d.Message)
			}
		}
	}
	if !found {
		t.Errorf("no compile error diagnostic in %+v", r.Diagnostics)
	}

	// self. offers the schema's fields
	for _, f := range []string{"cronSpec", "image", "replicas", "tags"} {
		if !slices.Contains(r.Completion, f) {
			t.Errorf("completion after self. lacks %q: %v", f, r.Completion)
		}
	}
	// a hover on the rule shows its cost
	for _, s := range []string{"estimated cost per call", "cardinality", "of the per-expression limit (10,000,000)", "over budget"} {
		if !strings.Contains(r.Hover, s) {
			t.Errorf("hover lacks %q:\n%s", s, r.Hover)
		}
	}
	// the bound quick fix: applied, the cost diagnostics are gone, the
	// compile error stays
	if !slices.Contains(r.Actions, "Set maxItems: 15 on spec.tags (brings the rule under the per-expression limit: cost 9,437,252)") {
		t.Errorf("actions: %v", r.Actions)
	}
	if !strings.Contains(strings.Join(r.ChangedLines, "\n"), "                tags:\n                  maxItems: 15\n                  type: array") {
		t.Errorf("the fix was not applied:\n%s", strings.Join(r.ChangedLines, "\n"))
	}
	if len(r.AfterFix) == 0 {
		t.Fatalf("no diagnostics after the fix (steps %v)", r.Steps)
	}
	for _, d := range r.AfterFix {
		if strings.Contains(d.Message, "cost") {
			t.Errorf("after the fix: %s", d.Message)
		}
	}
	// the policy's compile error: inside the expression, at "nosuch", with
	// the API server's message
	pl := r.PolicyDiagnostics
	if len(pl) != 1 || pl[0].Lnum != 7 || pl[0].Col != strings.Index(strings.Split(nvimPolicy, "\n")[7], "nosuch") || pl[0].Severity != 1 ||
		!strings.HasPrefix(pl[0].Message, `spec.validations[0].expression: Invalid value: "object.spec.replicas <= 5 && nosuch.ok": compilation failed: ERROR: <input>:1:30: undeclared reference to 'nosuch'`) {
		t.Errorf("policy diagnostics: %+v", pl)
	}
}
