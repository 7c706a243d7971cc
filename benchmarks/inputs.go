package benchmarks

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sync"
)

// Input is a loaded case, ready to benchmark: the CRD and the objects, each
// object with the verdict of both implementations (for the README table).
type Input struct {
	Case
	// Skip is why the case cannot run (corpus unavailable, CRD rejected).
	Skip string
}

// upstreamErrorPaths validates body with upstream and returns the error
// field paths ("<decode>" for a decoding failure).
func upstreamErrorPaths(c *UpstreamCRD) func([]byte) ([]string, error) {
	return func(body []byte) ([]string, error) {
		res, err := c.Validate(body, "")
		if err != nil {
			return nil, err
		}
		if res.DecodeError != nil {
			return []string{"<decode>"}, nil
		}
		var paths []string
		for _, e := range res.Errors {
			f := e.Field
			if f == "" || f == "<nil>" {
				// kube-openapi's oneOf/anyOf errors name the path in the detail
				if m := quotedPath.FindStringSubmatch(e.Detail); m != nil {
					f = m[1]
				}
			}
			paths = append(paths, f)
		}
		return paths, nil
	}
}

// quotedPath finds `"spec.a[0].b"` in an error detail.
var quotedPath = regexp.MustCompile(`"((?:spec|status)[^"]*)"`)

// loadInput loads a case and adds the object generated from its schema,
// repaired against upstream so that it is valid there whenever the
// generator's heuristics allow.
func loadInput(spec CaseSpec) *Input {
	c, err := LoadCase(spec)
	if err != nil {
		return &Input{Case: Case{Name: spec.Name}, Skip: err.Error()}
	}
	in := &Input{Case: *c}
	up, err := UpstreamCompile(c.CRD)
	if err != nil {
		in.Skip = fmt.Sprintf("upstream cannot compile the CRD: %v", err)
		return in
	}
	if len(up.Errors) > 0 {
		in.Skip = fmt.Sprintf("upstream rejects the CRD: %v", up.Errors.ToAggregate())
		return in
	}
	obj, err := Generate(c.CRD, DefaultGenerateOptions)
	if err != nil {
		in.Skip = fmt.Sprintf("generating an object: %v", err)
		return in
	}
	obj, _, err = Repair(obj, upstreamErrorPaths(up), 40)
	if err != nil {
		in.Skip = fmt.Sprintf("repairing the generated object: %v", err)
		return in
	}
	b, err := json.Marshal(obj)
	if err != nil {
		in.Skip = err.Error()
		return in
	}
	in.Objects = append(in.Objects, Object{Name: "generated", JSON: b})
	return in
}

var inputs = sync.OnceValue(func() []*Input {
	out := make([]*Input, 0, len(Cases))
	for _, spec := range Cases {
		out = append(out, loadInput(spec))
	}
	return out
})

// Inputs returns the benchmark inputs, loaded once.
func Inputs() []*Input { return inputs() }
