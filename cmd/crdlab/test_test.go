package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/wire"
)

func TestTestCommand(t *testing.T) {
	junit := filepath.Join(t.TempDir(), "junit.xml")
	for _, tc := range []struct {
		args   []string
		status int
		out    string
	}{
		{[]string{"test", "../../crdtest/testdata/widgets"}, exitValid, "PASS: 12 passed, 0 failed"},
		{[]string{"test", "-run", "ratchet", "../../crdtest/testdata/widgets"}, exitValid, "PASS: 2 passed, 0 failed"},
		{[]string{"test", "--junit", junit, "../../crdtest/testdata/failing"}, exitInvalid, "failing.testsuite.yaml:7: the stored object differs"},
		{[]string{"test"}, exitUsage, ""},
		{[]string{"test", "-run", "(", "x"}, exitUsage, ""},
		{[]string{"test", "no/such/dir"}, exitUsage, ""},
		{[]string{"test", "--init", "../../examples/crontab-crd.yaml"}, exitValid, "name: Should create a minimal object"},
	} {
		var stdout, stderr bytes.Buffer
		got := run(tc.args, nil, &stdout, &stderr)
		if got != tc.status || !strings.Contains(stdout.String(), tc.out) {
			t.Errorf("%v: status %d, want %d; stdout:\n%s\nstderr:\n%s", tc.args, got, tc.status, stdout.String(), stderr.String())
		}
	}
	data, err := os.ReadFile(junit)
	if err != nil || !bytes.Contains(data, []byte(`<testsuite name="../../crdtest/testdata/failing/failing.testsuite.yaml" tests="15" failures="15"`)) {
		t.Errorf("junit report:\n%s (%v)", data, err)
	}

	var stdout bytes.Buffer
	if got := run([]string{"test", "-o", "json", "../../crdtest/testdata/widgets"}, nil, &stdout, &bytes.Buffer{}); got != exitValid {
		t.Fatalf("status %d", got)
	}
	var rep struct {
		Results []struct {
			Name   string `json:"name"`
			Line   int    `json:"line"`
			Passed bool   `json:"passed"`
		} `json:"results"`
		Passed int `json:"passed"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || rep.Passed != 12 || len(rep.Results) != 12 || rep.Results[0].Line == 0 {
		t.Errorf("json report: %v\n%s", err, stdout.String())
	}
}

// TestTestAdmissionOutput pins what crdlab test prints for admission cases
// (a line with each case's outcome in text, the outcome object in JSON)
// against goldens, durations set to zero.
func TestTestAdmissionOutput(t *testing.T) {
	seconds := regexp.MustCompile(`\(\d+\.\d+s\)`)
	for _, tc := range []struct{ format, golden string }{
		{"text", "testdata/test-admission-text.golden"},
		{"json", "testdata/test-admission-json.golden"},
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"test", "-j", "1", "-o", tc.format, "../../crdtest/testdata/admission"}, nil, &stdout, &stderr)
		if code != exitValid {
			t.Fatalf("%s: exit %d: %s%s", tc.format, code, stdout.String(), stderr.String())
		}
		got := seconds.ReplaceAllString(stdout.String(), "(0.000s)")
		if tc.format == "json" {
			var rep wire.TestReport
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
				t.Fatal(err)
			}
			rep.Seconds = 0
			for i := range rep.Results {
				rep.Results[i].Seconds = 0
			}
			b, _ := json.MarshalIndent(rep, "", "  ")
			got = string(b) + "\n"
		}
		if *update {
			if err := os.WriteFile(tc.golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(tc.golden)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s output differs from %s (go test -update rewrites it):\n%s", tc.format, tc.golden, got)
		}
	}
}
