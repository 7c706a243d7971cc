package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
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
	select {
	case c := <-code:
		if c != 0 || stderr.Len() > 0 {
			t.Errorf("exit %d, stderr %q", c, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("crdlab lsp did not exit after exit")
	}
	inW.Close()
}

func TestLSPUsageError(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if c := run([]string{"lsp", "extra"}, strings.NewReader(""), &stdout, &stderr); c != exitUsage || !strings.Contains(stderr.String(), `unexpected argument "extra"`) {
		t.Errorf("exit %d, stderr %q", c, stderr.String())
	}
}
