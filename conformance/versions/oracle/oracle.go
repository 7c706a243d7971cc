// Package oracle is the differential suite's per-version oracle: the
// conformance/upstream package built against one Kubernetes release (the
// go.mod of conformance/versions/v1.NN selects it), answering requests on
// stdin with upstream's reports on stdout, one JSON document per line.
//
// Input lines are Requests, output lines are Answers, in the same order.
// The process serves requests until stdin is closed, so that the caller can
// rerun a request (to learn whether upstream's order is stable) without
// starting it again.
package oracle

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/wire"
)

// Request is one differential input, named by its case ID.
type Request struct {
	ID string `json:"id"`
	upstream.Request
}

// Answer is upstream's outcome for one Request: a report or an error.
type Answer struct {
	ID     string       `json:"id"`
	Report *wire.Report `json:"report,omitempty"`
	Error  string       `json:"error,omitempty"`
}

// Hello is the first line written: the module versions the oracle was
// built with, so that a caller can check it runs the release it expects.
type Hello struct {
	Apiextensions string `json:"apiextensions"`
	CELGo         string `json:"celGo"`
	GoVersion     string `json:"goVersion"`
}

// Main serves requests until stdin is closed; a failure exits with status 1.
func Main() {
	if err := serve(); err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		os.Exit(1)
	}
}

func serve() error {
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	if err := enc.Encode(hello()); err != nil {
		return err
	}
	if err := out.Flush(); err != nil {
		return err
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	for in.Scan() {
		var req Request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			return fmt.Errorf("request: %v", err)
		}
		ans := Answer{ID: req.ID}
		rep, err := upstream.Run(req.Request)
		if err != nil {
			ans.Error = err.Error()
		} else {
			ans.Report = rep
		}
		if err := enc.Encode(ans); err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return err
		}
	}
	return in.Err()
}

func hello() Hello {
	h := Hello{}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return h
	}
	h.GoVersion = bi.GoVersion
	for _, d := range bi.Deps {
		v := d.Version
		if d.Replace != nil {
			v = d.Replace.Version
		}
		switch d.Path {
		case "k8s.io/apiextensions-apiserver":
			h.Apiextensions = v
		case "github.com/google/cel-go":
			h.CELGo = v
		case "cel.dev/cel-go":
			// cel-go's new module path (Kubernetes 1.38: v0.33.2)
			h.CELGo = d.Path + " " + v
		}
	}
	return h
}
