package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

func frame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// TestLSPSessionOverStdio runs `crdlab lsp` on a scripted stdin: an
// initialize is answered with the server's capabilities, exit ends the
// command with status 0.
func TestLSPSessionOverStdio(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- run([]string{"lsp", "--stdio"}, inR, outW, &stderr)
		outW.Close()
	}()
	go func() {
		io.WriteString(inW, frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null}}`))
	}()
	r := bufio.NewReader(outR)
	var length int
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if line == "\r\n" {
			break
		}
		fmt.Sscanf(line, "Content-Length: %d", &length)
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(body), `"id":1`) || !strings.Contains(string(body), `"hoverProvider":true`) || !strings.Contains(string(body), `"name":"crdlab"`) {
		t.Errorf("initialize: %s", body)
	}
	go io.Copy(io.Discard, r)
	io.WriteString(inW, frame(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)+frame(`{"jsonrpc":"2.0","method":"exit"}`))
	// crdlab lsp must exit after exit; if it never does, go test -timeout
	// fails the test (a wall-clock bound here would fail on a loaded
	// machine).
	if c := <-code; c != 0 || stderr.Len() > 0 {
		t.Errorf("exit %d, stderr %q", c, stderr.String())
	}
	inW.Close()
}

func TestLSPUsageError(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if c := run([]string{"lsp", "extra"}, strings.NewReader(""), &stdout, &stderr); c != exitUsage || !strings.Contains(stderr.String(), `unexpected argument "extra"`) {
		t.Errorf("exit %d, stderr %q", c, stderr.String())
	}
}

func TestLSPUnsupportedKubeVersionIsAUsageError(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if c := run([]string{"lsp", "--kube-version", "1.20"}, strings.NewReader(""), &stdout, &stderr); c != exitUsage || !strings.Contains(stderr.String(), "--kube-version") || !strings.Contains(stderr.String(), "1.37") {
		t.Errorf("exit %d, stderr %q", c, stderr.String())
	}
}

// lspDiagnostics runs `crdlab lsp ARGS`, opens text and returns the first
// publishDiagnostics notification's body.
func lspDiagnostics(t *testing.T, args []string, text string) string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- run(append([]string{"lsp"}, args...), inR, outW, &stderr)
		outW.Close()
	}()
	doc, _ := json.Marshal(text)
	go io.WriteString(inW, frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"initializationOptions":{"debounceMs":0,"scanWorkspace":false}}}`)+
		frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)+
		frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/crd.yaml","languageId":"yaml","version":1,"text":`+string(doc)+`}}}`))
	r := bufio.NewReader(outR)
	var body []byte
	for {
		var length int
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if line == "\r\n" {
				break
			}
			fmt.Sscanf(line, "Content-Length: %d", &length)
		}
		body = make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(body), "publishDiagnostics") {
			break
		}
	}
	go io.Copy(io.Discard, r)
	io.WriteString(inW, frame(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)+frame(`{"jsonrpc":"2.0","method":"exit"}`))
	// if crdlab lsp never exits, go test -timeout fails the test
	if c := <-code; c != 0 {
		t.Errorf("exit %d, stderr %q", c, stderr.String())
	}
	inW.Close()
	return string(body)
}

// `crdlab lsp --kube-version` gives that release's diagnostics: 1.37
// warns about a list-type set of objects, 1.36 does not.
func TestLSPKubeVersionFlag(t *testing.T) {
	crd := `apiVersion: apiextensions.k8s.io/v1
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
	const warning = "x-kubernetes-list-type: set"
	if got := lspDiagnostics(t, nil, crd); !strings.Contains(got, warning) {
		t.Errorf("default (1.37): %s, want the warning", got)
	}
	if got := lspDiagnostics(t, []string{"--kube-version", "1.36"}, crd); strings.Contains(got, warning) || !strings.Contains(got, `"diagnostics":[]`) {
		t.Errorf("--kube-version 1.36: %s, want no diagnostics", got)
	}
}
