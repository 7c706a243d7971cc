package conformance

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/engine"
	"github.com/google/go-cmp/cmp"
)

// Outcome is one side's answer to a request: a report, or an error (the CRD
// does not decode, or the request is a misuse).
type Outcome struct {
	Report interface{} // normalized JSON of the report
	Err    error
	// Upstream is the oracle's report (upstream side only).
	Upstream *upstream.Report
}

// RunUpstream runs the oracle.
func RunUpstream(req upstream.Request) Outcome {
	rep, err := upstream.Run(req)
	if err != nil {
		return Outcome{Err: err}
	}
	n, err := upstream.Normalize(rep)
	return Outcome{Report: n, Err: err, Upstream: rep}
}

// RunCrdlab runs crdlab's engine on the same request.
func RunCrdlab(req upstream.Request) (out Outcome) {
	defer func() {
		if r := recover(); r != nil {
			out = Outcome{Err: fmt.Errorf("crdlab panicked: %v", r)}
		}
	}()
	c, err := engine.Compile(req.CRD)
	if err != nil {
		return Outcome{Err: err}
	}
	var res *engine.Result
	if req.Object != nil && len(c.Errors()) == 0 {
		res, err = c.Validate(req.Object, engine.ValidateOptions{
			Version:         req.Version,
			Old:             req.Old,
			Subresource:     req.Subresource,
			FieldValidation: engine.FieldValidation(req.FieldValidation),
		})
		if err != nil {
			return Outcome{Err: err}
		}
	}
	n, err := upstream.Normalize(engine.NewReport(c, res))
	return Outcome{Report: n, Err: err}
}

// Compare returns "" when both outcomes agree, else a human-readable
// difference: a unified-style diff (-upstream +crdlab) of the reports, or
// the errors. Two errors agree (their messages are not compared: a CRD that
// does not decode is reported with line numbers by crdlab).
func Compare(up, cl Outcome) string {
	switch {
	case up.Err != nil && cl.Err != nil:
		return ""
	case up.Err != nil:
		return fmt.Sprintf("upstream failed: %v\ncrdlab reported:\n%s", up.Err, pretty(cl.Report))
	case cl.Err != nil:
		return fmt.Sprintf("crdlab failed: %v\nupstream reported:\n%s", cl.Err, pretty(up.Report))
	}
	if d := cmp.Diff(up.Report, cl.Report); d != "" {
		return "report mismatch (-upstream +crdlab):\n" + d
	}
	return ""
}

func pretty(v interface{}) string {
	b, err := json.MarshalIndent(v, "  ", "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return "  " + strings.ReplaceAll(string(b), `\u003c`, "<")
}
