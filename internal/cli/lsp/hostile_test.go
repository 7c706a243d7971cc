package lsp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/internal/testsupport/cputime"
	"github.com/crdlab/crdlab/internal/testsupport/hostile"
)

// TestHostileSetThroughTheLanguageServer is the editor surface of the
// hostile set (internal/testsupport/hostile, the fast subset): each
// case's CRD, then its objects, opened in the server: the diagnostics hold
// the case's expected error (or none for a valid case), within the
// set's 30 s, and the server still answers requests.
func TestHostileSetThroughTheLanguageServer(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile inputs allocate hundreds of megabytes")
	}
	for _, hc := range hostile.Cases() {
		if !hc.Fast {
			continue
		}
		t.Run(hc.Name, func(t *testing.T) {
			cpu := cputime.Start()
			c := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0,"scanWorkspace":false}`)})
			var errs []string
			collect := func(diags []Diagnostic) {
				// bounded: at most maxDiagnostics and a note, messages clipped
				if len(diags) > maxDiagnostics+1 {
					t.Errorf("%d diagnostics", len(diags))
				}
				if len(diags) == maxDiagnostics+1 && !strings.Contains(diags[maxDiagnostics].Message, "more diagnostics not shown") {
					t.Errorf("no note about the diagnostics left out: %.200s", diags[maxDiagnostics].Message)
				}
				for _, d := range diags {
					if len(d.Message) > maxMessageBytes+200 {
						t.Errorf("a message of %d bytes", len(d.Message))
					}
					if d.Severity == SeverityError {
						errs = append(errs, d.Message)
					}
				}
			}
			crdDoc := "file:///hostile/crd.yaml"
			c.open(crdDoc, string(hc.CRD()))
			collect(c.waitDiags(crdDoc, 1))
			if len(errs) == 0 && hc.Object != nil {
				obj := "file:///hostile/object.yaml"
				c.open(obj, string(hc.Object()))
				collect(c.waitDiags(obj, 1))
			}
			var l CompletionList
			c.mustCall("textDocument/completion", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{crdDoc}, Position: Position{1, 1}}, &l)
			got := strings.Join(errs, "\n")
			if hc.Expect == hostile.Valid {
				if len(errs) > 0 {
					t.Errorf("a valid case has errors: %.300s", got)
				}
			} else if !strings.Contains(got, hc.Expect) {
				t.Errorf("diagnostics %.300q, want %q", got, hc.Expect)
			}
			// The server runs in this process: its CPU time is counted.
			// The slowest case uses 2.9 s of CPU time alone; ten
			// times that, which other processes' load does not inflate.
			cpu.Check(t, 30*time.Second, "the session")
		})
	}
}
