package lsp_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/crdlab/crdlab/internal/cli/lsp"
)

// A session over a connection: the client (here, raw framed JSON-RPC)
// initializes the server and opens a CRD whose rule names a field the
// schema does not have; the server publishes the API server's error on
// the rule's line and at CEL's column inside the rule.
func ExampleServer_Serve() {
	client, server := net.Pipe()
	go lsp.NewServer().Serve(context.Background(), server)
	send := func(body string) { fmt.Fprintf(client, "Content-Length: %d\r\n\r\n%s", len(body), body) }
	r := bufio.NewReader(client)
	read := func() string {
		var n int
		for {
			line, _ := r.ReadString('\n')
			if line == "\r\n" {
				break
			}
			fmt.Sscanf(line, "Content-Length: %d", &n)
		}
		b := make([]byte, n)
		io.ReadFull(r, b)
		return string(b)
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"initializationOptions":{"debounceMs":0,"scanWorkspace":false}}}`)
	read()
	crd := strings.ReplaceAll(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {plural: widgets, kind: Widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - rule: self.spec.size > 1
`, "\n", `\n`)
	send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w.yaml","languageId":"yaml","version":1,"text":"` + crd + `"}}}`)
	msg := read()
	i := strings.Index(msg, `"range"`)
	fmt.Println(msg[i : i+62])
	fmt.Println(strings.Contains(msg, "undefined field 'spec'"))
	// Output:
	// "range":{"start":{"line":15,"character":20},"end":{"line":15,"
	// true
}
