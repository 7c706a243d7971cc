package conformance

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/wire"
	"github.com/google/go-cmp/cmp"
)

// Outcome is one side's answer to a request: a report, or an error (the CRD
// does not decode, or the request is a misuse).
type Outcome struct {
	Report interface{} // normalized JSON of the report
	Err    error
	// Upstream is the oracle's report (upstream side only).
	Upstream *wire.Report
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
func RunCrdlab(req upstream.Request) Outcome { return RunCrdlabAt(req, "") }

// RunCrdlabAt runs crdlab's engine as Kubernetes release kubeVersion
// ("1.36"; "" is the default release).
func RunCrdlabAt(req upstream.Request, kubeVersion string) (out Outcome) {
	return RunCrdlabShared(req, kubeVersion, nil)
}

// RunCrdlabShared is RunCrdlabAt compiling through share
// (engine.CompileOptions.Share), as a --kube-version matrix does: the
// outcome must not depend on what other releases compiled through it.
func RunCrdlabShared(req upstream.Request, kubeVersion string, share *engine.CompileShare) (out Outcome) {
	defer func() {
		if r := recover(); r != nil {
			out = Outcome{Err: fmt.Errorf("crdlab panicked: %v", r)}
		}
	}()
	var c *engine.CRD
	var err error
	if req.OldCRD != nil {
		c, err = engine.CompileUpdate(req.CRD, req.OldCRD, engine.UpdateOptions{StoredVersions: req.StoredVersions, KubeVersion: kubeVersion, Share: share})
	} else {
		c, err = engine.CompileWithOptions(req.CRD, engine.CompileOptions{FieldValidation: engine.FieldValidation(req.CRDFieldValidation), KubeVersion: kubeVersion, Share: share})
	}
	if err != nil {
		return Outcome{Err: err}
	}
	var res *engine.Result
	if req.Object != nil && c.Valid() {
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
	rep := engine.NewReport(c, res)
	if err := checkFieldErrorPositions(rep.CRD); err != nil {
		return Outcome{Err: err}
	}
	n, err := upstream.Normalize(rep)
	StripPositions(n)
	return Outcome{Report: n, Err: err}
}

// checkFieldErrorPositions checks crdlab's extra information on a CRD with
// unknown or duplicate fields: one position per violation of the decoding
// error.
func checkFieldErrorPositions(c wire.CRDReport) error {
	if c.DecodeError == "" {
		return nil
	}
	if n := strings.Count(c.DecodeError, " field \""); n != len(c.FieldErrorPositions) {
		return fmt.Errorf("the CRD's decoding error names %d fields, fieldErrorPositions has %d: %q", n, len(c.FieldErrorPositions), c.FieldErrorPositions)
	}
	return nil
}

// StripPositions removes from a normalized crdlab report the source
// positions upstream does not have (errors' "position", "warningPositions",
// "decodeErrorPosition", the CRD's "fieldErrorPositions"); the final object
// ("result") is left alone.
func StripPositions(v interface{}) {
	rep, ok := v.(map[string]interface{})
	if !ok {
		return
	}
	for _, part := range []string{"crd", "object"} {
		p, ok := rep[part].(map[string]interface{})
		if !ok {
			continue
		}
		delete(p, "warningPositions")
		delete(p, "fieldErrorPositions")
		delete(p, "decodeErrorPosition")
		errs, _ := p["errors"].([]interface{})
		for _, e := range errs {
			if m, ok := e.(map[string]interface{}); ok {
				delete(m, "position")
			}
		}
	}
}

// upstreamReruns bounds how often the oracle is rerun to decide whether
// upstream's own order is stable (see Compare).
const upstreamReruns = 20

// Compare returns "" when both outcomes agree, else a human-readable
// difference: a diff (-upstream +crdlab) of the reports, or the errors. Two
// errors agree (their messages are not compared: a CRD that does not decode
// is reported with line numbers by crdlab).
//
// Order: upstream iterates Go maps (kube-openapi's object validator over
// properties, pruning over object keys, ...), so the order of errors,
// warnings and pruned paths between sibling map entries is random there.
// When the reports differ only in the order of those lists, rerun (if not
// nil) reruns the oracle up to upstreamReruns times: if upstream's own
// order varies, the reports agree; if it never varies, the order is part
// of the contract and the difference is reported.
func Compare(up, cl Outcome, rerun func() Outcome) string {
	switch {
	case up.Err != nil && cl.Err != nil:
		return ""
	case up.Err != nil:
		return fmt.Sprintf("upstream failed: %v\ncrdlab reported:\n%s", up.Err, pretty(cl.Report))
	case cl.Err != nil:
		return fmt.Sprintf("crdlab failed: %v\nupstream reported:\n%s", cl.Err, pretty(up.Report))
	}
	d := cmp.Diff(up.Report, cl.Report)
	if d == "" {
		return ""
	}
	if cmp.Equal(Canonical(up.Report), Canonical(cl.Report)) {
		if rerun != nil {
			for i := 0; i < upstreamReruns; i++ {
				again := rerun()
				if again.Err == nil && !cmp.Equal(again.Report, up.Report) {
					return "" // upstream's order is not deterministic here
				}
			}
		}
		return fmt.Sprintf("same elements, different order; upstream's order was stable over %d reruns (-upstream +crdlab):\n%s", upstreamReruns, d)
	}
	return "report mismatch (-upstream +crdlab):\n" + d
}

// Canonical returns a copy of a normalized report with its error, warning
// and pruned lists sorted and the unknown fields of a strict decoding error
// sorted: what is left once upstream's map-iteration order is taken out.
func Canonical(v interface{}) interface{} {
	v = canonCopy(v)
	rep, ok := v.(map[string]interface{})
	if !ok {
		return v
	}
	for _, part := range []string{"crd", "object"} {
		p, ok := rep[part].(map[string]interface{})
		if !ok {
			continue
		}
		for _, list := range []string{"errors", "warnings", "pruned"} {
			if l, ok := p[list].([]interface{}); ok {
				sort.SliceStable(l, func(i, j int) bool { return sortKey(l[i]) < sortKey(l[j]) })
			}
		}
		if s, ok := p["decodeError"].(string); ok {
			p["decodeError"] = canonStrict(s)
		}
	}
	return rep
}

func canonCopy(v interface{}) interface{} {
	b, _ := json.Marshal(v)
	var out interface{}
	_ = json.Unmarshal(b, &out)
	return out
}

func sortKey(v interface{}) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// canonStrict sorts the ", "-separated violations of "strict decoding
// error: ..." (their order follows map iteration upstream).
func canonStrict(s string) string {
	const marker = "strict decoding error: "
	i := strings.Index(s, marker)
	if i < 0 {
		return s
	}
	parts := strings.Split(s[i+len(marker):], ", ")
	sort.Strings(parts)
	return s[:i+len(marker)] + strings.Join(parts, ", ")
}

func pretty(v interface{}) string {
	b, err := json.MarshalIndent(v, "  ", "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return "  " + strings.ReplaceAll(string(b), `\u003c`, "<")
}
