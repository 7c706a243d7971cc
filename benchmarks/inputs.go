package benchmarks

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sigs.k8s.io/yaml"
	"sync"
)

// Input is a loaded case, ready to benchmark: the CRD and the objects, each
// object with the verdict of both implementations (for the README table).
type Input struct {
	Case
	// CEL is "on" for the CRD as published and "stripped" for the same CRD
	// without its x-kubernetes-validations rules (crdlab does not compile
	// or run CEL rules yet: the stripped variant compares equal work).
	CEL string
	// Skip is why the case cannot run (corpus unavailable, CRD rejected).
	Skip string
}

// Label is the benchmark label of the input: crd=NAME/cel=on|stripped.
func (in *Input) Label() string { return "crd=" + in.Name + "/cel=" + in.CEL }

// StripCEL returns the CRD as JSON without any x-kubernetes-validations,
// and whether there were any.
func StripCEL(crdDoc []byte) ([]byte, bool, error) {
	var m interface{}
	if err := yaml.Unmarshal(crdDoc, &m); err != nil {
		return nil, false, err
	}
	found := stripKey(m, "x-kubernetes-validations")
	out, err := json.Marshal(m)
	return out, found, err
}

func stripKey(v interface{}, key string) bool {
	found := false
	switch t := v.(type) {
	case map[string]interface{}:
		if _, ok := t[key]; ok {
			delete(t, key)
			found = true
		}
		for _, c := range t {
			if stripKey(c, key) {
				found = true
			}
		}
	case []interface{}:
		for _, c := range t {
			if stripKey(c, key) {
				found = true
			}
		}
	}
	return found
}

// upstreamErrorPaths validates body with upstream and returns the error
// field paths ("<decode>" for a decoding failure).
func upstreamErrorPaths(c *UpstreamCRD) func([]byte) ([]string, error) {
	return func(body []byte) ([]string, error) {
		res, err := c.Validate(body, "")
		if err != nil {
			return nil, err
		}
		if res.DecodeError != "" {
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
		return &Input{Case: Case{Name: spec.Name}, CEL: "on", Skip: err.Error()}
	}
	in := &Input{Case: *c, CEL: "on"}
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
	out := make([]*Input, 0, 2*len(Cases))
	for _, spec := range Cases {
		in := loadInput(spec)
		out = append(out, in)
		if in.Skip != "" {
			continue
		}
		stripped, found, err := StripCEL(in.CRD)
		if err != nil || !found {
			continue
		}
		s := &Input{Case: in.Case, CEL: "stripped"}
		s.CRD = stripped
		out = append(out, s)
	}
	return out
})

// Inputs returns the benchmark inputs, loaded once.
func Inputs() []*Input { return inputs() }
