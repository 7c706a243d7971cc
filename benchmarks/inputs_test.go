package benchmarks

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine"
)

// TestInputsCompileOnBothSides pins that every benchmark CRD that loads is
// accepted by both implementations, so that the compile benchmarks compare
// the success path.
func TestInputsCompileOnBothSides(t *testing.T) {
	for _, in := range Inputs() {
		t.Run(in.Label(), func(t *testing.T) {
			if in.Skip != "" {
				if strings.Contains(in.Skip, "not available") {
					t.Skip(in.Skip)
				}
				t.Fatal(in.Skip)
			}
			c, err := engine.Compile(in.CRD)
			if err != nil {
				t.Fatalf("crdlab: %v", err)
			}
			if len(c.Errors()) > 0 {
				t.Errorf("crdlab rejects a CRD upstream accepts: %v", c.Errors().ToAggregate())
			}
		})
	}
}

// TestGeneratedObjectsAreValidUpstream pins the generator: after repair the
// generated object of every case is valid for upstream and not trivial.
func TestGeneratedObjectsAreValidUpstream(t *testing.T) {
	for _, in := range Inputs() {
		t.Run(in.Label(), func(t *testing.T) {
			if in.Skip != "" {
				t.Skip(in.Skip)
			}
			up, err := UpstreamCompile(in.CRD)
			if err != nil {
				t.Fatal(err)
			}
			for _, obj := range in.Objects {
				res, err := up.Validate(obj.JSON, "")
				if err != nil {
					t.Fatal(err)
				}
				if res.DecodeError != "" || len(res.Errors) > 0 {
					t.Errorf("%s: upstream: decode %v, errors %v\n%s", obj.Name, res.DecodeError, res.Errors, obj.JSON)
				}
				t.Logf("%s: %d bytes", obj.Name, len(obj.JSON))
				if obj.Name == "generated" && len(obj.JSON) < 120 {
					t.Errorf("generated object is trivial: %s", obj.JSON)
				}
			}
		})
	}
}

// TestVerdictsAgree reports, per benchmark object, whether crdlab and
// upstream agree on the verdict and on the final object: a benchmark is
// only meaningful when both do the same work. Disagreements are logged
// (the differential suite in conformance/ owns fidelity) and counted.
func TestVerdictsAgree(t *testing.T) {
	for _, in := range Inputs() {
		if in.Skip != "" {
			continue
		}
		c, err := engine.Compile(in.CRD)
		if err != nil || len(c.Errors()) > 0 {
			continue
		}
		up, err := UpstreamCompile(in.CRD)
		if err != nil {
			t.Fatal(err)
		}
		for _, obj := range in.Objects {
			ours, err := c.Validate(obj.JSON, engine.ValidateOptions{})
			if err != nil {
				t.Errorf("%s/%s: crdlab: %v", in.Name, obj.Name, err)
				continue
			}
			theirs, err := up.Validate(obj.JSON, "")
			if err != nil {
				t.Fatal(err)
			}
			upValid := theirs.DecodeError == "" && len(theirs.Errors) == 0
			if ours.Valid() != upValid {
				t.Logf("DIFFERENT VERDICT %s/%s: crdlab valid=%v (%s %v), upstream valid=%v (%v %v)", in.Name, obj.Name, ours.Valid(), ours.DecodeError, ours.Errors, upValid, theirs.DecodeError, theirs.Errors)
				continue
			}
			if upValid && !sameJSON(ours.Object, theirs.Result) {
				a, _ := json.Marshal(ours.Object)
				b, _ := json.Marshal(theirs.Result)
				t.Logf("DIFFERENT OBJECT %s/%s:\ncrdlab:   %s\nupstream: %s", in.Name, obj.Name, a, b)
			}
		}
	}
}

func sameJSON(a, b interface{}) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return false
	}
	var va, vb interface{}
	_ = json.Unmarshal(ja, &va)
	_ = json.Unmarshal(jb, &vb)
	return reflect.DeepEqual(va, vb)
}
