package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/engine"
	"github.com/sourcegraph/jsonrpc2"
)

const crdURI = "file:///work/crontab.yaml"

// apiServerMessages are the messages of the CRD's errors as the engine
// (the API server's verdict) renders them.
func apiServerMessages(t *testing.T, text string) []string {
	t.Helper()
	c, err := engine.Compile([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range c.Errors() {
		out = append(out, e.Error())
	}
	return out
}

func TestBrokenCRDDiagnosticsCarryTheAPIServersMessagesAtTheRuleColumn(t *testing.T) {
	text := readTestdata(t, "broken-crontab.yaml")
	c := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0}`)})
	c.open(crdURI, text)
	diags := c.waitDiags(crdURI, 1)

	want := apiServerMessages(t, text)
	var got []string
	for _, d := range diags {
		if d.Severity == SeverityError {
			got = append(got, d.Message)
		}
		if d.Source != "crdlab" {
			t.Errorf("source %q", d.Source)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("messages:\n%s\nwant the API server's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range []struct {
		substr    string
		line, col int // 0-based, UTF-16
	}{
		// "self.replicas < self.maxReplicas": CEL's 1:21, the '.' before
		// maxReplicas, inside the double-quoted string
		{"undefined field 'maxReplicas'", 38, 45},
		// a literal block: CEL's 2:7 on the block's second line
		{"undefined field 'nosuch'", 42, 26},
		// cost: on the rule key of the over-budget rule
		{"estimated rule cost exceeds budget", 36, 22},
		// the schema total: on openAPIV3Schema
		{"estimated rule cost total for entire OpenAPIv3 schema", 14, 8},
	} {
		d := find(diags, c.substr)
		if d == nil {
			t.Errorf("no diagnostic %q in %v", c.substr, diags)
			continue
		}
		if d.Range.Start.Line != c.line || d.Range.Start.Character != c.col {
			t.Errorf("%q at %d:%d, want %d:%d", c.substr, d.Range.Start.Line, d.Range.Start.Character, c.line, c.col)
		}
		if d.Severity != SeverityError {
			t.Errorf("%q: severity %d", c.substr, d.Severity)
		}
	}
}

func TestDecodeErrorsAndUnknownFieldsAreDiagnosedAtTheirLines(t *testing.T) {
	for _, c := range []struct {
		name, text string
		substr     string
		line       int
	}{
		{"syntax", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: [\n", "", 0},
		{"unknown field", strings.Replace(readTestdata(t, "broken-crontab.yaml"), "  scope: Namespaced", "  scope: Namespaced\n  bogus: 1", 1), `unknown field "spec.bogus"`, 45},
		{"custom resource without CRD is not checked", "apiVersion: x.example.com/v1\nkind: Nothing\nspec: {}\n", "", -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0,"scanWorkspace":false}`)})
			cl.open(crdURI, c.text)
			diags := cl.waitDiags(crdURI, 1)
			if c.line < 0 {
				if len(diags) != 0 {
					t.Errorf("diagnostics: %v", diags)
				}
				return
			}
			if len(diags) == 0 {
				t.Fatal("no diagnostics")
			}
			d := &diags[0]
			if c.substr != "" {
				if d = find(diags, c.substr); d == nil {
					t.Fatalf("no %q in %v", c.substr, diags)
				}
			}
			if c.substr != "" && d.Range.Start.Line != c.line {
				t.Errorf("at line %d, want %d: %v", d.Range.Start.Line, c.line, d)
			}
		})
	}
}

func TestDidChangeRevalidatesIncrementally(t *testing.T) {
	text := readTestdata(t, "broken-crontab.yaml")
	c := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0}`)})
	c.open(crdURI, text)
	if find(c.waitDiags(crdURI, 1), "maxReplicas") == nil {
		t.Fatal("no maxReplicas error")
	}
	// replace "maxReplicas" (line 38, characters 46..57) by "replicas"
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{
		TextDocument:   VersionedTextDocumentIdentifier{URI: crdURI, Version: 2},
		ContentChanges: []TextDocumentContentChangeEvent{{Range: &Range{Start: Position{38, 46}, End: Position{38, 57}}, Text: "replicas"}},
	})
	diags := c.waitDiags(crdURI, 2)
	if d := find(diags, "maxReplicas"); d != nil {
		t.Errorf("still %v", d)
	}
	if find(diags, "nosuch") == nil {
		t.Errorf("the other error is gone: %v", diags)
	}
	// an edit out of range is clamped, a reversed range rejected
	err := c.call("textDocument/didChange", DidChangeTextDocumentParams{
		TextDocument:   VersionedTextDocumentIdentifier{URI: crdURI, Version: 3},
		ContentChanges: []TextDocumentContentChangeEvent{{Range: &Range{Start: Position{5, 3}, End: Position{4, 0}}, Text: "x"}},
	}, nil)
	if e, ok := err.(*jsonrpc2.Error); !ok || e.Code != jsonrpc2.CodeInvalidParams {
		t.Errorf("reversed range: %v", err)
	}
}

// position returns the 0-based position of the first occurrence of
// marker in text, plus delta characters.
func positionOf(t *testing.T, text, marker string, delta int) Position {
	t.Helper()
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatalf("%q not in the text", marker)
	}
	p := position(text, i)
	p.Character += delta
	return p
}

func labelsOf(l CompletionList) []string {
	var out []string
	for _, it := range l.Items {
		out = append(out, it.Label)
	}
	sort.Strings(out)
	return out
}

func TestCompletionAfterSelfOffersTheSchemasFieldsAndFunctions(t *testing.T) {
	text := strings.Replace(readTestdata(t, "broken-crontab.yaml"), `"self.replicas < self.maxReplicas"`, `"self.replicas < self."`, 1)
	c := newClient(t, NewServer(), InitializeParams{})
	c.open(crdURI, text)
	var l CompletionList
	at := positionOf(t, text, `self."`, len("self."))
	c.mustCall("textDocument/completion", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{crdURI}, Position: at}, &l)
	got := labelsOf(l)
	if !slices.Equal(got, []string{"cronSpec", "image", "replicas", "tags"}) {
		t.Errorf("self. on spec: %v", got)
	}
	for _, it := range l.Items {
		if it.TextEdit == nil || it.TextEdit.Range.Start != at || it.TextEdit.Range.End != at {
			t.Errorf("%s: edit %+v, want at %v", it.Label, it.TextEdit, at)
		}
	}
	// the functions of a string, with a typed prefix replaced
	text2 := strings.Replace(text, `"self.replicas < self."`, `"self.image.sta"`, 1)
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{TextDocument: VersionedTextDocumentIdentifier{crdURI, 2}, ContentChanges: []TextDocumentContentChangeEvent{{Text: text2}}})
	at = positionOf(t, text2, `self.image.sta"`, len("self.image.sta"))
	c.mustCall("textDocument/completion", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{crdURI}, Position: at}, &l)
	if got := labelsOf(l); !slices.Contains(got, "startsWith") || slices.Contains(got, "replicas") {
		t.Errorf("self.image.: %v", got)
	}
	if l.Items[0].TextEdit.Range.Start.Character != at.Character-3 {
		t.Errorf("the prefix is not replaced: %+v", l.Items[0].TextEdit)
	}
	// in a literal block, oldSelf. on the second line
	at = positionOf(t, text2, "self.nosuch", len("self."))
	c.mustCall("textDocument/completion", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{crdURI}, Position: at}, &l)
	if got := labelsOf(l); !slices.Contains(got, "replicas") {
		t.Errorf("in a block: %v", got)
	}
	// outside a rule: nothing
	c.mustCall("textDocument/completion", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{crdURI}, Position: Position{0, 0}}, &l)
	if len(l.Items) != 0 {
		t.Errorf("outside rules: %v", labelsOf(l))
	}
}

func TestHoverOnARuleShowsItsCostAndOnAFieldItsSchema(t *testing.T) {
	text := readTestdata(t, "broken-crontab.yaml")
	c := newClient(t, NewServer(), InitializeParams{})
	c.open(crdURI, text)
	var h Hover
	c.mustCall("textDocument/hover", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{crdURI}, Position: positionOf(t, text, "self.all(x", 3)}, &h)
	for _, want := range []string{"estimated cost per call: 2..659,710,961,252", "cardinality: 1", ">10000% of the per-expression limit (10,000,000)", "over budget", "maxItems ≤ 15 on spec.tags"} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover lacks %q:\n%s", want, h.Contents.Value)
		}
	}
	c.mustCall("textDocument/hover", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{crdURI}, Position: positionOf(t, text, "replicas:\n", 2)}, &h)
	for _, want := range []string{"**replicas**: `integer`", "minimum: 1", "maximum: 10", "default: 1"} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover lacks %q:\n%s", want, h.Contents.Value)
		}
	}
}

func applyEdits(t *testing.T, text string, edits []TextEdit) string {
	t.Helper()
	// from the end, so that earlier offsets stay valid
	sort.Slice(edits, func(i, j int) bool {
		a, b := edits[i].Range.Start, edits[j].Range.Start
		return a.Line > b.Line || a.Line == b.Line && a.Character > b.Character
	})
	for _, e := range edits {
		var err error
		r := e.Range
		if text, err = applyChange(text, TextDocumentContentChangeEvent{Range: &r, Text: e.NewText}); err != nil {
			t.Fatal(err)
		}
	}
	return text
}

func TestQuickFixBoundBringsTheRuleUnderBudgetAndItsDiagnosticGoes(t *testing.T) {
	text := readTestdata(t, "broken-crontab.yaml")
	c := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0}`)})
	c.open(crdURI, text)
	diags := c.waitDiags(crdURI, 1)
	d := find(diags, "estimated rule cost exceeds budget")
	if d == nil {
		t.Fatal("no cost diagnostic")
	}
	var actions []CodeAction
	c.mustCall("textDocument/codeAction", CodeActionParams{TextDocument: TextDocumentIdentifier{crdURI}, Range: d.Range, Context: CodeActionContext{Diagnostics: []Diagnostic{*d}}}, &actions)
	var fix *CodeAction
	for i := range actions {
		if strings.HasPrefix(actions[i].Title, "Set maxItems: 15 on spec.tags") {
			fix = &actions[i]
		}
	}
	if fix == nil || fix.Kind != "quickfix" {
		t.Fatalf("no maxItems fix in %+v", actions)
	}
	edits := fix.Edit.Changes[crdURI]
	fixed := applyEdits(t, text, edits)
	if !strings.Contains(fixed, "                tags:\n                  maxItems: 15\n                  type: array\n") {
		t.Errorf("the bound is not where it belongs:\n%s", fixed)
	}
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{TextDocument: VersionedTextDocumentIdentifier{crdURI, 2}, ContentChanges: []TextDocumentContentChangeEvent{{Text: fixed}}})
	after := c.waitDiags(crdURI, 2)
	for _, gone := range []string{"estimated rule cost exceeds budget", "cost total"} {
		if d := find(after, gone); d != nil {
			t.Errorf("still %q: %v", gone, d)
		}
	}
	if find(after, "maxReplicas") == nil {
		t.Errorf("other diagnostics lost: %v", after)
	}
	// a maxLength fix replaces nothing and inserts under items
	for _, a := range actions {
		if strings.HasPrefix(a.Title, "Set maxLength: 4 on spec.tags[*]") {
			fixed := applyEdits(t, text, a.Edit.Changes[crdURI])
			if !strings.Contains(fixed, "                  items:\n                    maxLength: 4\n                    type: string\n") {
				t.Errorf("maxLength fix:\n%s", fixed)
			}
		}
	}
}

const crontabObject = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-cron
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
  replicas: 20
  tags: [a]
`

func TestCustomResourcesAreValidatedAgainstTheWorkspacesCRDs(t *testing.T) {
	dir := t.TempDir()
	crdText := readTestdata(t, "crontab-crd.yaml")
	if err := os.WriteFile(filepath.Join(dir, "crd.yaml"), []byte(crdText), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, NewServer(), InitializeParams{RootURI: "file://" + filepath.ToSlash(dir), InitializationOptions: json.RawMessage(`{"debounceMs":0}`)})
	uri := "file://" + filepath.ToSlash(filepath.Join(dir, "cron.yaml"))
	c.open(uri, crontabObject)
	diags := c.waitDiags(uri, 1)
	d := find(diags, "spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10")
	if d == nil {
		t.Fatalf("no replicas error in %v", diags)
	}
	if d.Range.Start.Line != 7 || d.Range.Start.Character != 2 {
		t.Errorf("at %v, want 7:2", d.Range.Start)
	}
	// hover on a field: the schema's type and constraints
	var h Hover
	c.mustCall("textDocument/hover", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{uri}, Position: Position{7, 4}}, &h)
	if !strings.Contains(h.Contents.Value, "maximum: 10") {
		t.Errorf("hover: %s", h.Contents.Value)
	}
	// completion of field names under spec
	text := strings.Replace(crontabObject, "  replicas: 20\n", "  replicas: 2\n  re\n", 1)
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{TextDocument: VersionedTextDocumentIdentifier{uri, 2}, ContentChanges: []TextDocumentContentChangeEvent{{Text: text}}})
	var l CompletionList
	c.mustCall("textDocument/completion", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{uri}, Position: Position{8, 4}}, &l)
	if got := labelsOf(l); !slices.Equal(got, []string{"cronSpec", "image", "policy", "replicas", "tags"}) {
		t.Errorf("keys under spec: %v", got)
	}
	// enum values
	text = strings.Replace(text, "  re\n", "  policy: \n", 1)
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{TextDocument: VersionedTextDocumentIdentifier{uri, 3}, ContentChanges: []TextDocumentContentChangeEvent{{Text: text}}})
	c.mustCall("textDocument/completion", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{uri}, Position: Position{8, 10}}, &l)
	if got := labelsOf(l); !slices.Equal(got, []string{"Allow", "Forbid", "Replace"}) {
		t.Errorf("enum: %v", got)
	}
}

func TestMalformedMessagesAndUnknownMethodsGetJSONRPCErrors(t *testing.T) {
	c := newClient(t, NewServer(), InitializeParams{})
	for _, m := range []struct {
		method string
		params interface{}
		code   int64
	}{
		{"no/such/method", nil, jsonrpc2.CodeMethodNotFound},
		{"textDocument/hover", json.RawMessage(`[1,2]`), jsonrpc2.CodeInvalidParams},
		{"textDocument/hover", nil, jsonrpc2.CodeInvalidParams},
		{"textDocument/completion", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{"file:///not/open.yaml"}}, jsonrpc2.CodeInvalidParams},
		{"initialize", json.RawMessage(`{"initializationOptions":{"crdPaths":3}}`), jsonrpc2.CodeInvalidParams},
	} {
		err := c.call(m.method, m.params, nil)
		if e, ok := err.(*jsonrpc2.Error); !ok || e.Code != m.code {
			t.Errorf("%s %v: %v, want code %d", m.method, m.params, err, m.code)
		}
	}
	// notifications never get an answer, known or not
	c.notify("$/unknown", nil)
	c.notify("textDocument/didOpen", json.RawMessage(`"not an object"`))
	// the server still answers
	var h *Hover
	c.open(crdURI, "a: 1\n")
	c.mustCall("textDocument/hover", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{crdURI}}, &h)
}

func TestHostileDocumentsGetDiagnosticsAndTheServerGoesOn(t *testing.T) {
	for _, c := range []struct {
		name, text, substr string
	}{
		{"too large", strings.Repeat("# padding\n", maxDocumentBytes/10+1), "crdlab lsp reads documents up to"},
		{"nested flow", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n", ""},
		{"alias bomb", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n", ""},
		{"bad separator", "a: 1\n--- x\nb: 2\n", "invalid Yaml document separator"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && len(c.text) > 1<<20 {
				t.Skip("-short: a 16 MiB document through the protocol")
			}
			cl := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0,"scanWorkspace":false}`)})
			cl.open(crdURI, c.text)
			diags := cl.waitDiags(crdURI, 1)
			if len(diags) == 0 {
				t.Fatal("no diagnostics")
			}
			if c.substr != "" && find(diags, c.substr) == nil {
				t.Errorf("no %q in %v", c.substr, diags)
			}
			var h *Hover
			cl.mustCall("textDocument/hover", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{crdURI}, Position: Position{2, 3}}, &h)
			var l CompletionList
			cl.mustCall("textDocument/completion", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{crdURI}, Position: Position{2, 3}}, &l)
		})
	}
}

func TestCRDWarningsAreWarningsOnTheirField(t *testing.T) {
	text := strings.Replace(readTestdata(t, "crontab-crd.yaml"), "                image:\n                  type: string\n", "                image:\n                  type: string\n                  format: bogus\n", 1)
	c := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0}`)})
	c.open(crdURI, text)
	diags := c.waitDiags(crdURI, 1)
	d := find(diags, `unrecognized format "bogus"`)
	if d == nil || len(diags) != 1 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if d.Severity != SeverityWarning || d.Range.Start != positionOf(t, text, "bogus", 0) {
		t.Errorf("%v, want a warning on the format's value", d)
	}
}

func TestCompletionInMessageExpressionAndAfterOldSelf(t *testing.T) {
	text := strings.Replace(readTestdata(t, "broken-crontab.yaml"), "                  message: too many\n",
		"                  messageExpression: \"'too many: ' + string(oldSelf.)\"\n", 1)
	c := newClient(t, NewServer(), InitializeParams{})
	c.open(crdURI, text)
	var l CompletionList
	c.mustCall("textDocument/completion", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{crdURI}, Position: positionOf(t, text, "oldSelf.)", len("oldSelf."))}, &l)
	if got := labelsOf(l); !slices.Equal(got, []string{"cronSpec", "image", "replicas", "tags"}) {
		t.Errorf("oldSelf. in a messageExpression: %v", got)
	}
}

func TestCustomResourcesAreValidatedAgainstConfiguredCRDPaths(t *testing.T) {
	dir := t.TempDir()
	crdFile := filepath.Join(dir, "crds", "crontab.yaml")
	if err := os.MkdirAll(filepath.Dir(crdFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(crdFile, []byte(readTestdata(t, "crontab-crd.yaml")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		server  *Server
		options string
	}{
		{"initializationOptions", NewServer(), `{"debounceMs":0,"scanWorkspace":false,"crdPaths":["` + filepath.Dir(crdFile) + `"]}`},
		{"crdlab lsp --crd", NewServer(crdFile), `{"debounceMs":0,"scanWorkspace":false}`},
		{"relative to the workspace folder", NewServer(), `{"debounceMs":0,"scanWorkspace":false,"crdPaths":["crds/crontab.yaml"]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := newClient(t, c.server, InitializeParams{RootURI: "file://" + filepath.ToSlash(dir), InitializationOptions: json.RawMessage(c.options)})
			uri := "file:///elsewhere/cron.yaml"
			cl.open(uri, crontabObject)
			if find(cl.waitDiags(uri, 1), "spec.replicas in body should be less than or equal to 10") == nil {
				t.Error("the custom resource was not validated")
			}
		})
	}
	// scanWorkspace false: the workspace's CRDs are not read
	cl := newClient(t, NewServer(), InitializeParams{RootURI: "file://" + filepath.ToSlash(dir), InitializationOptions: json.RawMessage(`{"debounceMs":0,"scanWorkspace":false}`)})
	uri := "file:///elsewhere/cron.yaml"
	cl.open(uri, crontabObject)
	if d := cl.waitDiags(uri, 1); len(d) != 0 {
		t.Errorf("scanWorkspace false: %v", d)
	}
}

// waitPublish waits for the n-th publishDiagnostics of uri (1-based).
func (c *client) waitPublish(uri string, n int) []Diagnostic {
	c.t.Helper()
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-done:
		case <-time.After(hangAfter):
			c.mu.Lock()
			c.cond.Broadcast()
			c.mu.Unlock()
		}
	}()
	deadline := time.Now().Add(hangAfter)
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.diags[uri]) < n {
		if time.Now().After(deadline) {
			c.t.Fatalf("%s: %d publications, want %d", uri, len(c.diags[uri]), n)
		}
		c.cond.Wait()
	}
	return c.diags[uri][n-1].Diagnostics
}

func TestEditingAnOpenCRDRechecksItsOpenCustomResources(t *testing.T) {
	crdText := readTestdata(t, "crontab-crd.yaml")
	c := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0,"scanWorkspace":false}`)})
	c.open(crdURI, crdText)
	c.waitDiags(crdURI, 1)
	cr := "file:///w/cron.yaml"
	c.open(cr, crontabObject)
	if find(c.waitPublish(cr, 1), "less than or equal to 10") == nil {
		t.Fatal("the custom resource is not checked against the open CRD")
	}
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{TextDocument: VersionedTextDocumentIdentifier{crdURI, 2},
		ContentChanges: []TextDocumentContentChangeEvent{{Text: strings.Replace(crdText, "maximum: 10", "maximum: 30", 1)}}})
	if d := c.waitPublish(cr, 2); len(d) != 0 {
		t.Errorf("after the CRD allowed 30: %v", d)
	}
}

func TestRapidChangesAreDebouncedToTheLastVersion(t *testing.T) {
	text := readTestdata(t, "broken-crontab.yaml")
	c := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":200}`)})
	c.open(crdURI, text)
	c.waitDiags(crdURI, 1)
	at := positionOf(t, text, "self.maxReplicas", 0)
	const n = 20
	for v := 2; v <= n+1; v++ { // 20 keystrokes, well within the debounce delay
		c.notify("textDocument/didChange", DidChangeTextDocumentParams{TextDocument: VersionedTextDocumentIdentifier{crdURI, v},
			ContentChanges: []TextDocumentContentChangeEvent{{Range: &Range{Start: at, End: at}, Text: " "}}})
	}
	diags := c.waitDiags(crdURI, n+1)
	if find(diags, "maxReplicas") == nil {
		t.Errorf("last version: %v", diags)
	}
	c.mu.Lock()
	published := len(c.diags[crdURI])
	c.mu.Unlock()
	if published > 3 {
		t.Errorf("%d publications for 21 versions: the changes were not debounced", published)
	}
}

func TestCompletionWhileAQuoteIsStillOpen(t *testing.T) {
	text := readTestdata(t, "broken-crontab.yaml")
	c := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0}`)})
	c.open(crdURI, text)
	c.waitDiags(crdURI, 1)
	// typing: the closing quote is not there yet, the YAML does not parse
	typing := strings.Replace(text, `- rule: "self.replicas < self.maxReplicas"`, `- rule: "self.replicas < self.`, 1)
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{TextDocument: VersionedTextDocumentIdentifier{crdURI, 2}, ContentChanges: []TextDocumentContentChangeEvent{{Text: typing}}})
	var l CompletionList
	at := positionOf(t, typing, `< self.`, len(`< self.`))
	c.mustCall("textDocument/completion", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{crdURI}, Position: at}, &l)
	if got := labelsOf(l); !slices.Equal(got, []string{"cronSpec", "image", "replicas", "tags"}) {
		t.Errorf("self. with an open quote: %v", got)
	}
	// a rule on the items of a list: the element type
	typing = strings.Replace(text, `- rule: "self.all(x, x.matches('^[a-z]+$'))"`, `- rule: "self.all(x, x.`, 1)
	c.notify("textDocument/didChange", DidChangeTextDocumentParams{TextDocument: VersionedTextDocumentIdentifier{crdURI, 3}, ContentChanges: []TextDocumentContentChangeEvent{{Text: typing}}})
	at = positionOf(t, typing, `(x, x.`, len(`(x, x.`))
	c.mustCall("textDocument/completion", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{crdURI}, Position: at}, &l)
	if got := labelsOf(l); !slices.Contains(got, "startsWith") {
		t.Errorf("x. on list(string) items with an open quote: %v", got)
	}
}

// In a ValidatingAdmissionPolicy or MutatingAdmissionPolicy beside the
// CRD, expressions complete as in the playground's Policy tab
// (celcomplete.CompletePolicy): object's fields from the CRD at the
// version the policy matches, the policy's variables by name.
func TestCompletionInPolicyExpressions(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../../../examples/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	policies := read("admission/policy.yaml")
	text := read("crontab-crd.yaml") + "\n---\n" + policies + "\n---\n" + read("admission/mutating.yaml")
	c := newClient(t, NewServer(), InitializeParams{})
	c.open(crdURI, text)
	for _, tt := range []struct {
		name, marker string
		offset       int
		want         []string
	}{
		{"object's fields in a validation", `"object.spec.image.startsWith`, len(`"object.spec.`), []string{"cronSpec", "image", "replicas"}},
		{"object's fields in a variable", `"object.spec.replicas"`, len(`"object.spec.`), []string{"cronSpec", "image", "replicas"}},
		{"variables", `"variables.replicas <= 5"`, len(`"variables.`), []string{"replicas"}},
		{"names", `"variables.replicas <= 5"`, len(`"v`), []string{"authorizer", "namespaceObject", "object", "oldObject", "request", "variables"}},
		{"a MutatingAdmissionPolicy's match condition", `expression: object.spec.replicas > 5`, len(`expression: object.spec.`), []string{"cronSpec", "image", "replicas"}},
		{"not an expression", `name: crontab-rules`, len(`name: cron`), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var l CompletionList
			at := positionOf(t, text, tt.marker, tt.offset)
			c.mustCall("textDocument/completion", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{crdURI}, Position: at}, &l)
			if got := labelsOf(l); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
