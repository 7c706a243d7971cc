package crdtest

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/crdlab/crdlab/engine"
)

// engineBackend is a Backend that serves the requests with crdlab's engine
// through the Backend interface (as a real API server would be reached):
// the verdicts must be those of the engine-driven run.
type engineBackend struct {
	mu       sync.Mutex
	crds     map[string]*engine.CRD
	requests int
	installs int
	cleaned  int
	rv       int
}

func (b *engineBackend) Do(r BackendRequest) (*BackendResponse, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c, ok := b.crds[string(r.CRD)]
	if !ok {
		var err error
		if c, err = engine.Compile(r.CRD); err != nil {
			return nil, err
		}
		b.crds[string(r.CRD)] = c
	}
	if r.Object == nil {
		b.installs++
		if errs := c.Errors(); len(errs) > 0 {
			return &BackendResponse{Error: errs.ToAggregate().Error()}, nil
		}
		return &BackendResponse{}, nil
	}
	b.requests++
	var old object
	if r.Old != nil {
		json.Unmarshal(r.Old, &old)
	}
	if r.Subresource == "status" && !hasStatusSubresource(c, old) {
		return &BackendResponse{Error: "the server could not find the requested resource"}, nil
	}
	res, err := c.Validate(r.Object, engine.ValidateOptions{Old: r.Old, Subresource: r.Subresource, FieldValidation: r.FieldValidation})
	if err != nil {
		return nil, err
	}
	if msg := errorMessage(c, res); msg != "" {
		return &BackendResponse{Error: msg, Errors: res.Errors, Warnings: res.Warnings}, nil
	}
	obj := res.Object.(map[string]interface{})
	if metaString(obj, "name") == "" {
		setMeta(obj, "name", metaString(obj, "generateName")+strconv.Itoa(b.rv))
	}
	b.rv++
	setMeta(obj, "resourceVersion", strconv.Itoa(b.rv))
	data, err := json.Marshal(obj)
	return &BackendResponse{Object: data, Warnings: res.Warnings}, err
}

func (b *engineBackend) Cleanup(created [][]byte) {
	b.mu.Lock()
	b.cleaned += len(created)
	b.mu.Unlock()
}

// TestBackend runs the widget and failing suites through a Backend and
// checks that every case gets the verdict and message of the engine-driven
// run, that requests reach the backend and that created objects are handed
// back for cleanup.
func TestBackend(t *testing.T) {
	for _, dir := range []string{"testdata/widgets", "testdata/failing"} {
		want, err := RunPaths(Options{}, dir)
		if err != nil {
			t.Fatal(err)
		}
		b := &engineBackend{crds: map[string]*engine.CRD{}}
		got, err := RunPaths(Options{Backend: b}, dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Results) != len(want.Results) || len(got.Results) == 0 {
			t.Fatalf("%s: %d results through the backend, %d without", dir, len(got.Results), len(want.Results))
		}
		for i, w := range want.Results {
			g := got.Results[i]
			if strings.Contains(w.Message, "exceeds maxCost") || strings.Contains(w.Message, "pruned fields differ") {
				// Not observable through the API: skipped under a backend.
				w.Passed, w.Message = true, ""
			}
			if strings.Contains(w.Name, "/apply/") {
				// The Backend interface has no apply request.
				w.Passed, w.Message = false, "apply cases run on crdlab's engine only, not on a backend"
			}
			if strings.Contains(w.Name, "/admission/") {
				// Nor admission policies to install.
				w.Passed, w.Message = false, "admission cases run on crdlab's engine only, not on a backend"
			}
			if g.Name != w.Name || g.Passed != w.Passed || g.Message != w.Message {
				t.Errorf("%s: through the backend %+v\nwithout %+v", w.Name, g, w)
			}
		}
		if b.requests == 0 || b.cleaned == 0 {
			t.Errorf("%s: backend saw %d requests, %d objects to clean up", dir, b.requests, b.cleaned)
		}
		if dir == "testdata/widgets" && b.installs != 1 {
			t.Errorf("%s: %d CRD-only requests, want 1 (the sequence's patchCRD step)", dir, b.installs)
		}
	}
}
