package lsp

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// waitFor waits until cond holds on the client's state (c.mu held).
func (c *client) waitFor(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(hangAfter)
	timer := time.AfterFunc(hangAfter, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for !cond() {
		if time.Now().After(deadline) {
			c.t.Fatalf("timed out waiting for %s", what)
		}
		c.cond.Wait()
	}
}

// fakeMarkers writes a markers command to dir: a shell script that
// records its arguments and working directory in args.txt and prints
// out.json (exiting 1 when it holds an error, as crdlab-markers does).
func fakeMarkers(t *testing.T, dir string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake markers command is a shell script")
	}
	script := filepath.Join(dir, "fake-markers")
	src := `#!/bin/sh
d=$(dirname "$0")
echo "$(pwd) $*" > "$d/args.txt"
cat "$d/out.json"
grep -q '"error"' "$d/out.json" && exit 1
exit 0
`
	if err := os.WriteFile(script, []byte(src), 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}

// With markersCommand, opening a Go file runs the command on its package
// directory and publishes its diagnostics on the package's Go files (at
// the line and UTF-16 column of the marker); saving runs it again and
// clears the diagnostics that are gone.
func TestMarkersCommandDiagnosticsArePublishedOnGoFiles(t *testing.T) {
	tools := t.TempDir()
	script := fakeMarkers(t, tools)
	pkg := filepath.Join(t.TempDir(), "api", "v1")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "package v1\n\n// é\n// +kubebuilder:validation:XValidation:rule=\"self.x\"\ntype Spec struct{}\n"
	for _, f := range []string{"spec.go", "other.go"} {
		if err := os.WriteFile(filepath.Join(pkg, f), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := `[{"file":"spec.go","line":4,"column":46,"endLine":4,"endColumn":53,"severity":"error","message":"undefined field 'x'","path":"spec.validation.openAPIV3Schema.x-kubernetes-validations[0].rule"},
 {"file":"` + filepath.Join(pkg, "other.go") + `","line":3,"column":4,"endLine":3,"endColumn":6,"severity":"warning","message":"a warning","path":""}]`
	if err := os.WriteFile(filepath.Join(tools, "out.json"), []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	opts, _ := json.Marshal(map[string]interface{}{"markersCommand": script, "scanWorkspace": false, "kubeVersion": "1.36"})
	cl := newClient(t, NewServer(), InitializeParams{InitializationOptions: opts})
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(pkg, "spec.go"))}).String()
	other := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(pkg, "other.go"))}).String()
	cl.notify("textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, LanguageID: "go", Version: 1, Text: src}})

	last := func(u string) []Diagnostic {
		ps := cl.diags[u]
		if len(ps) == 0 {
			return nil
		}
		return ps[len(ps)-1].Diagnostics
	}
	cl.waitFor("the diagnostics of both files", func() bool { return len(last(uri)) == 1 && len(last(other)) == 1 })
	cl.mu.Lock()
	d, w := last(uri)[0], last(other)[0]
	cl.mu.Unlock()
	if d.Range.Start != (Position{Line: 3, Character: 45}) || d.Range.End != (Position{Line: 3, Character: 52}) || d.Severity != SeverityError || d.Message != "undefined field 'x'" {
		t.Errorf("spec.go: %+v", d)
	}
	// line 3 is "// é": byte column 4 is after "// ", 6 after "é" (two bytes, one UTF-16 unit)
	if w.Range.Start != (Position{Line: 2, Character: 3}) || w.Range.End != (Position{Line: 2, Character: 4}) || w.Severity != SeverityWarning {
		t.Errorf("other.go: %+v", w)
	}
	args, err := os.ReadFile(filepath.Join(tools, "args.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(args)); got != pkg+" -o json --kube-version 1.36 ." {
		t.Errorf("the command ran as %q", got)
	}

	// fixed: the next save clears both files' diagnostics
	if err := os.WriteFile(filepath.Join(tools, "out.json"), []byte("[]"), 0o644); err != nil {
		t.Fatal(err)
	}
	cl.notify("textDocument/didSave", DidSaveTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: uri}})
	cl.waitFor("the diagnostics cleared", func() bool {
		return len(cl.diags[uri]) >= 2 && len(last(uri)) == 0 && len(cl.diags[other]) >= 2 && len(last(other)) == 0
	})
}

// A markersCommand that is not installed is said once
// (window/showMessage), and the server keeps serving.
func TestMissingMarkersCommandIsReportedOnce(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.go")
	if err := os.WriteFile(file, []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "no-such-crdlab-markers")
	opts, _ := json.Marshal(map[string]interface{}{"markersCommand": missing, "scanWorkspace": false})
	cl := newClient(t, NewServer(), InitializeParams{InitializationOptions: opts})
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String()
	cl.notify("textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, LanguageID: "go", Version: 1, Text: "package a\n"}})
	cl.waitFor("a message", func() bool { return len(cl.msgs) > 0 })
	cl.notify("textDocument/didSave", DidSaveTextDocumentParams{TextDocument: TextDocumentIdentifier{URI: uri}})
	// the server still answers, and said it once
	cl.notify("textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: "file:///w/a.yaml", LanguageID: "yaml", Version: 1, Text: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"}})
	cl.waitDiags("file:///w/a.yaml", 1)
	time.Sleep(2 * markersDebounce)
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if len(cl.msgs) != 1 || cl.msgs[0].Type != MessageTypeWarning || !strings.Contains(cl.msgs[0].Message, missing) {
		t.Errorf("messages: %+v", cl.msgs)
	}
}

// lookPath finds a command by name in $PATH (only executable files) and
// takes a path as it is.
func TestMarkersCommandIsFoundInPATH(t *testing.T) {
	dir := t.TempDir()
	script := fakeMarkers(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "not-executable"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	for _, tc := range []struct {
		command, want string
	}{
		{"fake-markers", script},
		{script, script},
		{"not-executable", ""},
		{"no-such-command", ""},
		{filepath.Join(dir, "not-executable"), ""},
	} {
		got, err := lookPath(tc.command)
		if got != tc.want || (err == nil) != (tc.want != "") {
			t.Errorf("lookPath(%q) = %q, %v; want %q", tc.command, got, err, tc.want)
		}
	}
}

// A run that outlives its context is killed, and returns even when a
// child of the command keeps its output open.
func TestMarkersCommandIsKilledWhenCancelled(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the command is a shell script")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "slow")
	// The child in the background keeps the output open; it writes its
	// pid once started. Neither sleep ends before go test -timeout, which
	// is what fails this test if the run is not killed (no wall-clock
	// bound, which a loaded machine would break).
	if err := os.WriteFile(script, []byte("#!/bin/sh\nsleep 100000 &\necho $! > child.tmp && mv child.tmp child.pid\nexec sleep 100000\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(dir, "child.pid")
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				if p, err := os.FindProcess(pid); err == nil {
					p.Kill()
				}
			}
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // cancel once the child holds the output
		for ctx.Err() == nil {
			if _, err := os.Stat(pidFile); err == nil {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	_, _, _, err := runCommand(ctx, dir, script, nil)
	if err != nil {
		t.Fatalf("runCommand: %v", err)
	}
	if _, err := os.Stat(pidFile); err != nil {
		t.Errorf("the run returned before the script started its child: %v", err)
	}
}
