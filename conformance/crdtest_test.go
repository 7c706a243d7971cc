package conformance

import (
	"encoding/json"
	"github.com/crdlab/crdlab/internal/testsupport/testenv"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/crdtest"
)

// crdtestRequests runs suites with crdtest and returns every request its
// cases sent (creates, updates, status updates, with the CRD as installed).
func crdtestRequests(t *testing.T, paths ...string) []crdtest.Request {
	var mu sync.Mutex
	var reqs []crdtest.Request
	_, err := crdtest.RunPaths(crdtest.Options{Parallel: 1, Observe: func(r crdtest.Request) {
		mu.Lock()
		reqs = append(reqs, r)
		mu.Unlock()
	}}, paths...)
	if err != nil {
		t.Fatal(err)
	}
	return reqs
}

// checkCrdtestRequests replays the requests through the oracle and crdlab.
func checkCrdtestRequests(t *testing.T, reqs []crdtest.Request) {
	for i, r := range reqs {
		req := upstream.Request{CRD: r.CRD, Object: r.Object, Old: r.Old, Subresource: r.Subresource, FieldValidation: string(r.FieldValidation)}
		if d := Compare(RunUpstream(req), RunCrdlab(req), func() Outcome { return RunUpstream(req) }); d != "" {
			t.Errorf("request %d (%s, old=%v) disagrees:\n%s\nobject: %s", i, r.Subresource, r.Old != nil, d, r.Object)
		}
	}
}

// TestCrdtestSuitesDifferential: every request the runner sends for
// crdtest's own suites (OpenShift-format cases, sequences, ratcheting with
// patched CRDs, status updates) gets the same report from upstream.
func TestCrdtestSuitesDifferential(t *testing.T) {
	reqs := crdtestRequests(t, "../crdtest/testdata/widgets", "../crdtest/testdata/failing")
	if len(reqs) < 30 {
		t.Fatalf("only %d requests observed", len(reqs))
	}
	checkCrdtestRequests(t, reqs)
	t.Logf("%d requests agree", len(reqs))
}

// TestOpenShiftSuiteRequestsDifferential replays a sample of the requests
// OpenShift's suites send (every 100th; all with CRDLAB_OPENSHIFT_ALL=1)
// through the oracle. Skipped offline and with -short.
func TestOpenShiftSuiteRequestsDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	dir := os.Getenv("CRDLAB_OPENSHIFT_API")
	if dir == "" {
		out, err := exec.Command("go", "mod", "download", "-json", "github.com/openshift/api@v0.0.0-20260813212709-d4bb0b443cb8").Output()
		var info struct{ Dir string }
		if err != nil || json.Unmarshal(out, &info) != nil || info.Dir == "" {
			testenv.Unavailable(t, "openshift/api not available (offline?): %v", err)
		}
		dir = info.Dir
	}
	reqs := crdtestRequests(t, dir)
	step := 100
	if os.Getenv("CRDLAB_OPENSHIFT_ALL") != "" {
		step = 1
	}
	var sample []crdtest.Request
	for i := 0; i < len(reqs); i += step {
		sample = append(sample, reqs[i])
	}
	checkCrdtestRequests(t, sample)
	t.Logf("%d of %d requests replayed, all agree", len(sample), len(reqs))
}
