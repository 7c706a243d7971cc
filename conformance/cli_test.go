package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/conformance/upstream"
)

// The in-process comparison (TestCases) links crdlab into this module, whose
// minimal version selection also sees k8s.io/apiextensions-apiserver's
// requirements: every dependency crdlab shares with Kubernetes is lifted to
// Kubernetes's version there, whatever the main module's go.mod says. Users
// get crdlab as the main module builds it. TestCLICases builds the crdlab
// command in the repository root (so the main module's go.mod decides every
// version) and runs every case through that binary.

// buildCLI builds ./cmd/crdlab in the repository root into a temporary
// directory removed when t ends, and returns the binary's path.
func buildCLI(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "crdlab")
	cmd := exec.Command(goCommand(), "build", "-o", bin, "./cmd/crdlab")
	cmd.Dir = root
	cmd.Env = mainModuleEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/crdlab in %s: %v\n%s", root, err, out)
	}
	return bin
}

// goCommand is the go command running the tests (GOROOT/bin/go when go test
// sets GOROOT), else the one on PATH.
func goCommand() string {
	if root := os.Getenv("GOROOT"); root != "" {
		if p := filepath.Join(root, "bin", "go"); fileExists(p) {
			return p
		}
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// mainModuleEnv is the environment for go commands run in the repository
// root: no workspace (a go.work would merge the modules' requirements again)
// and the host platform.
func mainModuleEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GOWORK=") || strings.HasPrefix(kv, "GOOS=") || strings.HasPrefix(kv, "GOARCH=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOWORK=off")
}

// RunCLI runs a request through the crdlab command bin, with its inputs in
// files under dir: `validate -o json` when the request has an object, else
// `lint -o json` (which prints the CRD part of the report only; the object
// part is null, as engine.NewReport without a result). An exit status of 2
// (usage or I/O error, e.g. a CRD that does not decode) is the outcome's
// error, as engine.Compile's error is in RunCrdlab. The status must agree
// with the report: 1 exactly when the CRD or the object is invalid.
func RunCLI(bin, dir string, req upstream.Request) Outcome {
	crdFile := filepath.Join(dir, "crd.yaml")
	if err := os.WriteFile(crdFile, req.CRD, 0o644); err != nil {
		return Outcome{Err: err}
	}
	args := []string{"lint", "-o", "json", crdFile}
	var updateArgs []string // the CRD update flags of lint and validate
	if req.OldCRD != nil {
		oldCRDFile := filepath.Join(dir, "old-crd.yaml")
		if err := os.WriteFile(oldCRDFile, req.OldCRD, 0o644); err != nil {
			return Outcome{Err: err}
		}
		updateArgs = []string{oldCRDFile}
		if req.StoredVersions != nil {
			if len(req.StoredVersions) == 0 {
				return Outcome{Err: fmt.Errorf("an empty storedVersions cannot be passed to the CLI")}
			}
			updateArgs = append(updateArgs, "--stored-versions", strings.Join(req.StoredVersions, ","))
		}
		args = append([]string{"lint", "-o", "json", "--old"}, append(updateArgs, crdFile)...)
	}
	if req.CRDFieldValidation != "" {
		args = append([]string{args[0], "--crd-field-validation", req.CRDFieldValidation}, args[1:]...)
	}
	if req.Object != nil {
		objFile := filepath.Join(dir, "object.json")
		if err := os.WriteFile(objFile, req.Object, 0o644); err != nil {
			return Outcome{Err: err}
		}
		// The CRD is given as an input too, so that its own entry (errors
		// and warnings) is in the run report: fromRunReport rebuilds the
		// {crd, object} report from the two entries.
		// --timeout 0: the API server's verdict on a costly rule is its CEL
		// budget, never the wall clock, and a loaded machine must not turn
		// it into "context deadline exceeded" (the 60 s default is a
		// user's guard, not part of the case).
		args = []string{"validate", "-o", "json", "--timeout", "0", "--crd", crdFile, crdFile}
		if len(bytes.TrimSpace(req.Object)) == 0 {
			args = args[:len(args)-1] // an empty object file alone: "no objects found"
		}
		if updateArgs != nil {
			args = append(args, append([]string{"--old-crd"}, updateArgs...)...)
		}
		if req.CRDFieldValidation != "" {
			args = append(args, "--crd-field-validation", req.CRDFieldValidation)
		}
		if req.Old != nil {
			oldFile := filepath.Join(dir, "old.json")
			if err := os.WriteFile(oldFile, req.Old, 0o644); err != nil {
				return Outcome{Err: err}
			}
			args = append(args, "--old", oldFile)
		}
		if req.Version != "" {
			args = append(args, "--version", req.Version)
		}
		if req.Subresource != "" {
			args = append(args, "--subresource", req.Subresource)
		}
		if req.FieldValidation != "" {
			args = append(args, "--field-validation", req.FieldValidation)
		}
		args = append(args, objFile)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	status := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return Outcome{Err: fmt.Errorf("crdlab %s: %v", strings.Join(args, " "), err)}
		}
		status = ee.ExitCode()
	}
	if status == 2 && req.Object != nil && strings.HasPrefix(stderr.String(), "crdlab: "+filepath.Join(dir, "object.json")+":") {
		// The object does not parse: kubectl would not send it, and the
		// CLI reports it as an input error (exit 2, file:line).
		return Outcome{Err: fmt.Errorf("%w: %s", errNotSent, strings.TrimSpace(stderr.String()))}
	}
	if status == 2 {
		return Outcome{Err: fmt.Errorf("crdlab %s: exit status 2: %s", args[0], strings.TrimSpace(stderr.String()))}
	}
	if status != 0 && status != 1 {
		return Outcome{Err: fmt.Errorf("crdlab %s: exit status %d (%s)", args[0], status, strings.TrimSpace(stderr.String()))}
	}
	var reports []map[string]interface{}
	dec := json.NewDecoder(&stdout)
	for {
		var r map[string]interface{}
		if err := dec.Decode(&r); err == io.EOF {
			break
		} else if err != nil {
			return Outcome{Err: fmt.Errorf("crdlab %s: output is not a JSON report: %v", args[0], err)}
		}
		reports = append(reports, r)
	}
	if len(reports) != 1 {
		// The CLI read the body as several documents (or none): the request
		// is not the one sent to upstream. Reported as a mismatch.
		return Outcome{Report: map[string]interface{}{"cliReports": reports, "stderr": stderr.String()}}
	}
	rep := reports[0]
	if _, ok := rep["results"]; ok {
		var err error
		if rep, err = fromRunReport(rep, req.Object != nil); err != nil {
			return Outcome{Err: fmt.Errorf("crdlab %s: %w", args[0], err)}
		}
	}
	if req.Object == nil {
		if _, ok := rep["object"]; ok {
			return Outcome{Report: map[string]interface{}{"lintReportWithObject": rep}}
		}
		rep["object"] = nil
	}
	if want := reportInvalid(rep); (status == 1) != want {
		return Outcome{Err: fmt.Errorf("crdlab %s: exit status %d, but the report says invalid=%v:\n%s", args[0], status, want, pretty(rep))}
	}
	if c, ok := rep["crd"].(map[string]interface{}); ok {
		d, _ := c["decodeError"].(string)
		positions, _ := c["fieldErrorPositions"].([]interface{})
		if n := strings.Count(d, " field \""); d != "" && n != len(positions) {
			return Outcome{Err: fmt.Errorf("crdlab %s: the CRD's decoding error names %d fields, fieldErrorPositions has %d", args[0], n, len(positions))}
		}
		for _, p := range positions {
			if s, _ := p.(string); !strings.HasPrefix(s, crdFile+":") {
				return Outcome{Err: fmt.Errorf("crdlab %s: fieldErrorPositions entry %q does not name %s", args[0], p, crdFile)}
			}
		}
	}
	StripPositions(rep)
	return Outcome{Report: rep}
}

// errNotSent marks a request the CLI does not make as upstream receives
// it: an object whose apiVersion and kind route it to another resource than
// the CRD's (the CLI, as kubectl, validates each object against its own
// CRD and skips the others), or a body that does not parse (an input error,
// exit status 2, as kubectl refuses to send it). The engine's answer to
// these requests is compared by TestCases.
var errNotSent = errors.New("not a request the CLI sends to this CRD")

// fromRunReport rebuilds the {crd, object} report (wire.Report) from the
// run report of `crdlab validate|lint -o json`: the CRD's entry (the CRD is
// an input) and, for validate, the object's, whose field errors lose their
// positions. An object not validated because its CRD is invalid is null.
func fromRunReport(run map[string]interface{}, withObject bool) (map[string]interface{}, error) {
	results, _ := run["results"].([]interface{})
	if len(results) != 1 && !withObject || len(results) != 2 && withObject {
		return nil, fmt.Errorf("%d entries in the run report, want %d:\n%s", len(results), map[bool]int{false: 1, true: 2}[withObject], pretty(run))
	}
	errs := func(e map[string]interface{}) []interface{} {
		out := []interface{}{}
		list, _ := e["errors"].([]interface{})
		for _, x := range list {
			m := x.(map[string]interface{})
			delete(m, "line")
			delete(m, "column")
			out = append(out, m)
		}
		return out
	}
	list := func(v interface{}) interface{} {
		if v == nil {
			return []interface{}{}
		}
		return v
	}
	crdEntry := results[0].(map[string]interface{})
	crdRep := map[string]interface{}{"errors": errs(crdEntry), "warnings": list(crdEntry["warnings"])}
	for _, k := range []string{"decodeError", "fieldErrorPositions"} {
		if v, ok := crdEntry[k]; ok {
			crdRep[k] = v
		}
	}
	rep := map[string]interface{}{"crd": crdRep}
	if !withObject {
		return rep, nil
	}
	obj := results[1].(map[string]interface{})
	if obj["status"] == "error" {
		if r, _ := obj["reason"].(string); strings.HasPrefix(r, "its CustomResourceDefinition") {
			rep["object"] = nil
			return rep, nil
		}
		return nil, fmt.Errorf("the object was not validated: %v", obj["reason"])
	}
	if obj["status"] == "skipped" {
		return nil, fmt.Errorf("%w: skipped: %v", errNotSent, obj["reason"])
	}
	if c, _ := obj["crd"].(string); c == "" {
		// answered by the built-in kinds' path (a kube-apiserver group
		// with no CRD of that kind: kubectl's REST mapping refuses it
		// before any request), not by the CRD's endpoint
		return nil, fmt.Errorf("%w: answered without the CRD (%v): %v", errNotSent, obj["status"], obj["decodeError"])
	}
	o := map[string]interface{}{"result": obj["result"], "pruned": list(obj["pruned"]), "errors": errs(obj), "warnings": list(obj["warnings"])}
	if v, ok := obj["oldResult"]; ok {
		o["oldResult"] = v
	}
	if d, ok := obj["decodeError"]; ok {
		o["decodeError"] = d
		o["result"] = nil
	}
	rep["object"] = o
	return rep, nil
}

// reportInvalid reports whether a normalized report has CRD errors, object
// errors or a decoding error.
func reportInvalid(rep map[string]interface{}) bool {
	if c, ok := rep["crd"].(map[string]interface{}); ok {
		if errs, _ := c["errors"].([]interface{}); len(errs) > 0 {
			return true
		}
		if d, _ := c["decodeError"].(string); d != "" {
			return true
		}
	}
	if o, ok := rep["object"].(map[string]interface{}); ok {
		if errs, _ := o["errors"].([]interface{}); len(errs) > 0 {
			return true
		}
		if d, _ := o["decodeError"].(string); d != "" {
			return true
		}
	}
	return false
}

// TestCLICases runs every case of testdata/cases through upstream and
// through the crdlab binary built by the main module, and compares them as
// TestCases does (same Compare, same skips and known differences). Subtests
// are named <file>/<case>.
func TestCLICases(t *testing.T) {
	start := time.Now()
	bin := buildCLI(t)
	t.Logf("built %s in %v", bin, time.Since(start).Round(time.Millisecond))
	cases, err := LoadCases("testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	dir := t.TempDir()
	var tl tally
	for _, c := range cases {
		c := c
		skipped, ran := false, false
		ok := t.Run(c.ID, func(t *testing.T) {
			ran = true
			switch {
			case c.KnownDifference != "":
				skipped = true
				reason := "known difference: " + c.KnownDifference
				tl.skip(c.ID, reason)
				t.Skip(reason)
			case c.Skip != "":
				skipped = true
				tl.skip(c.ID, c.Skip)
				t.Skip(c.Skip)
			}
			if c.Request.Object != nil && len(bytes.TrimSpace(c.Request.Object)) == 0 {
				// kubectl apply -f of an empty file sends nothing; so does
				// the CLI, which reads objects from files: the request
				// upstream gets cannot be made. Pin the CLI's answer.
				cl := RunCLI(bin, dir, c.Request)
				if cl.Err == nil || !strings.Contains(cl.Err.Error(), "no objects found") {
					t.Fatalf("an empty object file: want exit status 2 (no objects found), got err=%v\n%s", cl.Err, pretty(cl.Report))
				}
				skipped = true
				reason := "an empty body: the CLI, like kubectl apply -f, finds no object in an empty file (exit status 2, checked)"
				tl.skip(c.ID, reason)
				t.Skip(reason)
			}
			if cl := RunCLI(bin, dir, c.Request); errors.Is(cl.Err, errNotSent) {
				skipped = true
				reason := "the CLI does not send this request to the CRD (checked): " + cl.Err.Error()
				tl.skip(c.ID, reason)
				t.Skip(reason)
			}
			// The CLI process runs while upstream computes in this one.
			clc := make(chan Outcome, 1)
			go func() { clc <- Deterministic(RunCLI(bin, dir, c.Request)) }()
			up := Deterministic(RunUpstream(c.Request))
			cl := <-clc
			if *dump {
				t.Logf("upstream: err=%v\n%s", up.Err, pretty(up.Report))
				t.Logf("crdlab CLI: err=%v\n%s", cl.Err, pretty(cl.Report))
			}
			if d := Compare(up, cl, func() Outcome { return Deterministic(RunUpstream(c.Request)) }); d != "" {
				t.Errorf("%s (crdlab command built by the main module)\n%s", c.Description, d)
			}
		})
		if ran && !skipped {
			tl.result(ok)
		}
	}
	tl.print(fmt.Sprintf("cases through the CLI (%d, %v)", len(cases), time.Since(start).Round(time.Millisecond)))
}
