package lsp

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/engine"
	"github.com/sourcegraph/jsonrpc2"
)

// setOfObjects is a CRD whose create 1.37 warns about (a list-type set of
// objects, kubeversion.ListTypeSetNonScalarWarning) and 1.36 does not.
const setOfObjects = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: pools.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: pools, singular: pool, kind: Pool}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          members:
            type: array
            x-kubernetes-list-type: set
            items: {type: object, x-kubernetes-map-type: atomic, properties: {name: {type: string}}}
`

const poolURI = "file:///work/pool.yaml"

// releaseWarnings are the CRD's warnings as the engine gives them at a
// release.
func releaseWarnings(t *testing.T, text, kube string) []string {
	t.Helper()
	c, err := engine.CompileWithOptions([]byte(text), engine.CompileOptions{KubeVersion: kube})
	if err != nil {
		t.Fatal(err)
	}
	return c.Warnings()
}

func messages(diags []Diagnostic, severity int) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == severity {
			out = append(out, d.Message)
		}
	}
	return out
}

func TestKubeVersionGivesThatReleasesDiagnostics(t *testing.T) {
	if len(releaseWarnings(t, setOfObjects, "1.37")) == 0 || len(releaseWarnings(t, setOfObjects, "1.36")) != 0 {
		t.Fatal("the test CRD no longer tells 1.36 from 1.37")
	}
	flag36, err := NewServer().WithKubeVersion("1.36")
	if err != nil {
		t.Fatal(err)
	}
	flag36b, _ := NewServer().WithKubeVersion("v1.36")
	for _, c := range []struct {
		name    string
		server  *Server
		options string
		want    string // the release whose warnings are published
	}{
		{"default", NewServer(), `{"debounceMs":0,"scanWorkspace":false}`, "1.37"},
		{"initializationOptions", NewServer(), `{"debounceMs":0,"scanWorkspace":false,"kubeVersion":"1.36"}`, "1.36"},
		{"--kube-version", flag36, `{"debounceMs":0,"scanWorkspace":false}`, "1.36"},
		{"initializationOptions over --kube-version", flag36b, `{"debounceMs":0,"scanWorkspace":false,"kubeVersion":"1.37"}`, "1.37"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := newClient(t, c.server, InitializeParams{InitializationOptions: json.RawMessage(c.options)})
			cl.open(poolURI, setOfObjects)
			got := messages(cl.waitDiags(poolURI, 1), SeverityWarning)
			if want := releaseWarnings(t, setOfObjects, c.want); !slices.Equal(got, want) {
				t.Errorf("warnings %q, want %s's %q", got, c.want, want)
			}
		})
	}
}

// A custom resource is validated against the workspace's CRD compiled
// for the release: 1.36 and later enforce format int32 on integers
// (kubeversion.NumericFormats), 1.35 does not.
func TestKubeVersionAppliesToCustomResources(t *testing.T) {
	crdText := strings.Replace(setOfObjects, "          members:\n", "          size: {type: integer, format: int32}\n          members:\n", 1)
	obj := "apiVersion: example.com/v1\nkind: Pool\nmetadata: {name: p}\nsize: 4294967296\n"
	for _, c := range []struct {
		kube   string
		errors bool
	}{{"1.37", true}, {"1.35", false}} {
		cl := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0,"scanWorkspace":false,"kubeVersion":"` + c.kube + `"}`)})
		cl.open(poolURI, crdText)
		cl.waitDiags(poolURI, 1)
		cl.open("file:///work/p.yaml", obj)
		errs := messages(cl.waitDiags("file:///work/p.yaml", 1), SeverityError)
		if (len(errs) > 0) != c.errors {
			t.Errorf("%s: errors %q, want errors: %v", c.kube, errs, c.errors)
		}
	}
}

func TestKubeVersionUnsupportedIsRefused(t *testing.T) {
	if _, err := NewServer().WithKubeVersion("1.20"); err == nil || !strings.Contains(err.Error(), "1.37") {
		t.Errorf("WithKubeVersion(1.20): %v, want an error naming the supported releases", err)
	}
	cl := newClient(t, NewServer(), InitializeParams{})
	err := cl.call("initialize", InitializeParams{InitializationOptions: json.RawMessage(`{"kubeVersion":"1.20"}`)}, &InitializeResult{})
	var e *jsonrpc2.Error
	if err == nil || !asRPC(err, &e) || e.Code != jsonrpc2.CodeInvalidParams || !strings.Contains(e.Message, "initializationOptions: kubeVersion:") || !strings.Contains(e.Message, "1.37") {
		t.Errorf("got %v, want InvalidParams naming kubeVersion and the supported releases", err)
	}
}

func asRPC(err error, e **jsonrpc2.Error) bool {
	x, ok := err.(*jsonrpc2.Error)
	*e = x
	return ok
}

// Changing kubeVersion in the settings checks the open documents again.
func TestKubeVersionSettingChecksOpenDocumentsAgain(t *testing.T) {
	cl := newClient(t, NewServer(), InitializeParams{InitializationOptions: json.RawMessage(`{"debounceMs":0,"scanWorkspace":false}`)})
	cl.open(poolURI, setOfObjects)
	if w := messages(cl.waitDiags(poolURI, 1), SeverityWarning); len(w) == 0 {
		t.Fatal("1.37 gives no warning")
	}
	cl.notify("workspace/didChangeConfiguration", DidChangeConfigurationParams{Settings: json.RawMessage(`{"crdlab":{"debounceMs":0,"scanWorkspace":false,"kubeVersion":"1.36"}}`)})
	deadline := time.Now().Add(hangAfter)
	for {
		cl.mu.Lock()
		ps := cl.diags[poolURI]
		last := ps[len(ps)-1]
		n := len(ps)
		cl.mu.Unlock()
		if n >= 2 {
			if w := messages(last.Diagnostics, SeverityWarning); len(w) != 0 {
				t.Fatalf("after kubeVersion 1.36: warnings %q", w)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no new diagnostics after the kubeVersion change")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
