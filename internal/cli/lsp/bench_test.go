package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/crdlab/crdlab/internal/testsupport/corpus"
	"github.com/crdlab/crdlab/internal/testsupport/testenv"
)

// rulesCRD generates a CRD with n properties, each with a rule (a mix of
// string, list and cross-field rules, all within the cost limits).
func rulesCRD(n int) string {
	var b strings.Builder
	b.WriteString(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  scope: Namespaced
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
`)
	for i := 0; i < n; i++ {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, `                p%03d:
                  type: string
                  maxLength: 63
                  x-kubernetes-validations:
                    - rule: "self.startsWith('a') || self.matches('^[a-z0-9-]+$')"
                      message: p%03d must be a name
`, i, i)
		case 1:
			fmt.Fprintf(&b, `                p%03d:
                  type: array
                  maxItems: 16
                  items: {type: string, maxLength: 32}
                  x-kubernetes-validations:
                    - rule: "self.all(x, x.size() > 0) && self.size() <= 16"
`, i)
		default:
			fmt.Fprintf(&b, `                p%03d:
                  type: object
                  properties:
                    min: {type: integer}
                    max: {type: integer}
                  x-kubernetes-validations:
                    - rule: "!has(self.min) || !has(self.max) || self.min <= self.max"
                      messageExpression: "'min is ' + (self.min > self.max ? 'over' : 'under') + ' max'"
`, i)
		}
	}
	return b.String()
}

func TestGeneratedRulesCRDIsAccepted(t *testing.T) {
	c := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0,"scanWorkspace":false}`)})
	c.open(crdURI, rulesCRD(400))
	if d := c.waitDiags(crdURI, 1); len(d) != 0 {
		t.Errorf("the generated CRD has diagnostics: %v", d[0])
	}
}

// benchKeystrokes measures a keystroke (a space typed after marker, or
// removed: a didChange that keeps the document valid) to its diagnostics (the
// publishDiagnostics of that version), through the protocol, with no
// debounce delay.
func benchKeystrokes(b *testing.B, text, marker string) {
	c := newClient(b, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0,"scanWorkspace":false}`)})
	c.open(crdURI, text)
	first := len(c.waitDiags(crdURI, 1))
	i := strings.Index(text, marker)
	if i < 0 {
		b.Fatalf("%q not in the CRD", marker)
	}
	at := position(text, i+len(marker)) // a space typed after marker
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	defer func() {
		// the process's CPU time per keystroke: comparable on a loaded
		// machine, where wall time is not
		b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
	}()
	for n := 0; n < b.N; n++ {
		ch := TextDocumentContentChangeEvent{Range: &Range{Start: at, End: at}, Text: " "}
		if n%2 == 1 { // remove the space typed before
			end := at
			end.Character++
			ch = TextDocumentContentChangeEvent{Range: &Range{Start: at, End: end}, Text: ""}
		}
		c.notify("textDocument/didChange", DidChangeTextDocumentParams{TextDocument: VersionedTextDocumentIdentifier{crdURI, n + 2}, ContentChanges: []TextDocumentContentChangeEvent{ch}})
		if got := len(c.waitDiags(crdURI, n+2)); got != first {
			b.Fatalf("keystroke %d: %d diagnostics, the document had %d: the edit broke it", n, got, first)
		}
	}
}

// cpuTime is the process's user and system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func BenchmarkKeystrokeToDiagnostics(b *testing.B) {
	b.Run("CronTab", func(b *testing.B) {
		text, err := os.ReadFile("../../../examples/crontab-crd.yaml")
		if err != nil {
			b.Fatal(err)
		}
		benchKeystrokes(b, string(text), "type: ")
	})
	b.Run("HTTPRoute", func(b *testing.B) {
		dir, err := corpus.Module(corpus.Options{}, "sigs.k8s.io/gateway-api@")
		if err != nil {
			testenv.Unavailable(b, "Gateway API's CRDs (the corpus, scripts/corpus.sh): %v", err)
			return
		}
		text, err := os.ReadFile(filepath.Join(dir, "config/crd/standard/gateway.networking.k8s.io_httproutes.yaml"))
		if err != nil {
			b.Fatal(err)
		}
		benchKeystrokes(b, string(text), "rule: ")
	})
	b.Run("400rules", func(b *testing.B) {
		benchKeystrokes(b, rulesCRD(400), "self.min <=")
	})
}
