package crdtest

import (
	"encoding/json"
	"github.com/crdlab/crdlab/internal/testsupport/testenv"
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// openShiftAPI is the openshift/api module version whose suites are run
// (a pseudo-version the Go module proxy serves; @latest is an old tag).
const openShiftAPI = "github.com/openshift/api@v0.0.0-20260813212709-d4bb0b443cb8"

// openShiftDir returns the module's directory: $CRDLAB_OPENSHIFT_API, else
// `go mod download`; the test is skipped when neither works (offline).
func openShiftDir(t testing.TB) string {
	if d := os.Getenv("CRDLAB_OPENSHIFT_API"); d != "" {
		return d
	}
	if testing.Short() {
		t.Skip("-short: not fetching " + openShiftAPI)
	}
	out, err := exec.Command("go", "mod", "download", "-json", openShiftAPI).Output()
	var info struct{ Dir, Error string }
	if err != nil || json.Unmarshal(out, &info) != nil || info.Dir == "" {
		testenv.Unavailable(t, "cannot fetch %s through the Go module proxy (offline?): %v %s; set CRDLAB_OPENSHIFT_API to its directory", openShiftAPI, err, info.Error)
	}
	return info.Dir
}

// explained classifies the disagreements listed in docs/reports/openshift-suites.md.
var explained = []struct {
	name string
	re   *regexp.Regexp
}{
	{"CRD rejected by 1.37's CEL cost estimate", regexp.MustCompile(`the API server would reject the CRD: .*estimated rule cost`)},
	{"CEL error without the type name as value (1.37 renders the value, or omits it for objects/arrays)", regexp.MustCompile(`expected \(substring\):\n\s+(.*Invalid value: )?"(object|array|string|integer|number|boolean|null|)"`)},
	{"Duplicate value rendered as JSON, not Go syntax", regexp.MustCompile(`expected \(substring\):\n\s+.*map\[string\]interface \{\}`)},
	{"integer type error names the format (int32) in 1.37", regexp.MustCompile(`must be of type integer\n[\s\S]*must be of type int32: "float64"`)},
	{"stale example suite not run by OpenShift's runner", regexp.MustCompile(`^the stored object differs from expected[\s\S]*\+  nonZeroDefault: 8`)},
}

func TestOpenShiftSuites(t *testing.T) {
	runOpenShiftSuites(t, "", explained, 4500, "4554")
}

// explainedAt134 classifies the disagreements at 1.34: OpenShift's CI
// runs the suites on 1.32 (ENVTEST_K8S_VERSION in openshift/api's
// tests/Makefile); what 1.33 and older do differently remains.
var explainedAt134 = []struct {
	name string
	re   *regexp.Regexp
}{
	{`value rendered "null" (1.33 and older)`, regexp.MustCompile(`expected \(substring\):\n\s+.*Invalid value: "null"`)},
	{"value in Go syntax (1.33 and older)", regexp.MustCompile(`expected \(substring\):\n\s+.*map\[string\]interface \{\}`)},
	{"stale example suite not run by OpenShift's runner", regexp.MustCompile(`^the stored object differs from expected[\s\S]*\+  nonZeroDefault: 8`)},
}

// At 1.34 the CEL failures render as the suites expect ("object"), and
// the CRD files 1.37 rejects on cost are accepted (GlobalMatchesCost):
// 1981 more cases pass than at 1.37.
func TestOpenShiftSuitesAt134(t *testing.T) {
	runOpenShiftSuites(t, "1.34", explainedAt134, 6500, "6535")
}

func runOpenShiftSuites(t *testing.T, kubeVersion string, explained []struct {
	name string
	re   *regexp.Regexp
}, minPassed int, recorded string) {
	dir := openShiftDir(t)
	rep, err := RunPaths(Options{KubeVersion: kubeVersion}, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, le := range rep.LoadErrors {
		t.Errorf("suite not loaded: %s", le.Err)
	}
	counts := map[string]int{}
	passed := 0
	for _, r := range rep.Results {
		if r.Passed {
			passed++
			continue
		}
		why := ""
		for _, e := range explained {
			if e.re.MatchString(r.Message) {
				why = e.name
				break
			}
		}
		if why == "" {
			t.Errorf("unexplained disagreement: %s (%s:%d)\n%s", r.Name, r.File, r.Line, r.Message)
			continue
		}
		counts[why]++
	}
	t.Logf("%d cases: %d pass, %d fail (%v)", len(rep.Results), passed, len(rep.Results)-passed, rep.Duration)
	for _, e := range explained {
		t.Logf("  %5d  %s", counts[e.name], e.name)
	}
	if passed < minPassed {
		t.Errorf("only %d cases pass; docs/reports/openshift-suites.md records %s", passed, recorded)
	}
}

// explainedAt132 classifies the disagreements at 1.32, the release
// OpenShift's CI runs the suites on (ENVTEST_K8S_VERSION = 1.32.1 in
// openshift/api's tests/Makefile; CI's `make -C tests integration` runs
// test-downstream: OpenShift's own kube-apiserver build of 1.32.1, which
// may carry changes upstream 1.32 does not have).
var explainedAt132 = []struct {
	name string
	re   *regexp.Regexp
}{
	{"status update of an invalid persisted value: status updates ratchet from 1.33", regexp.MustCompile(`^unexpected error updating status:[\s\S]*Unsupported value: "dnsservices"`)},
	{"stale example suite not run by OpenShift's runner", regexp.MustCompile(`^the stored object differs from expected[\s\S]*\+  nonZeroDefault: 8`)},
}

// At 1.32 every CRD file is accepted (the global matches() costs 1 before
// 1.37: kubeversion.GlobalMatchesCost), and the values the suites expect
// in Go syntax and as "null" render so (1.33 and older): 118 more cases
// pass than at 1.34. A CRD rejected on cost is an unexplained failure here.
func TestOpenShiftSuitesAt132(t *testing.T) {
	runOpenShiftSuites(t, "1.32", explainedAt132, 6650, "6653")
}
