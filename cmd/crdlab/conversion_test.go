package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/conversion"
)

// TestConversionReviewCLI runs `crdlab conversion-review` on
// examples/conversion and compares exit status, stdout and stderr with
// testdata/conversion-<name>.golden.
func TestConversionReviewCLI(t *testing.T) {
	const dir = "../../examples/conversion/"
	crd, req := dir+"crd.yaml", dir+"request.json"
	tests := []struct {
		name  string
		args  []string
		stdin string
		exit  int
	}{
		{"accepted-text", []string{"--crd", crd, req, dir + "response.json"}, "", 0},
		{"accepted-objects", []string{"--crd", crd, "--objects", req, dir + "response.json"}, "", 0},
		{"wrong-version-text", []string{"--crd", crd, req, dir + "response-wrong-version.json"}, "", 1},
		{"no-namespace-text", []string{"--crd", crd, req, dir + "response-no-namespace.json"}, "", 1},
		{"bad-label-text", []string{"--crd", crd, req, dir + "response-bad-label.json"}, "", 1},
		{"invalid-object-text", []string{"--crd", crd, req, dir + "response-invalid-object.json"}, "", 1},
		{"list-text", []string{"--crd", crd, "--list", "--list-api-version", "stable.example.com/v1", req, dir + "response-wrong-version.json"}, "", 1},
		{"response-from-stdin", []string{"--crd", crd, req, "-"}, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"uid":"other","result":{"status":"Success"}}}`, 1},
		{"usage-no-crd", []string{req, dir + "response.json"}, "", 2},
		{"usage-three-files", []string{"--crd", crd, req, req, req}, "", 2},
		{"usage-bad-output", []string{"--crd", crd, "-o", "yaml", req, dir + "response.json"}, "", 2},
		{"usage-two-stdins", []string{"--crd", "-", "-"}, "", 2},
		{"usage-crd-not-webhook", []string{"--crd", "../../examples/crontab-crd.yaml", req, dir + "response.json"}, "", 2},
		{"usage-request-is-a-crd", []string{"--crd", crd, crd, dir + "response.json"}, "", 2},
		{"io-missing-response", []string{"--crd", crd, req, "testdata/does-not-exist.json"}, "", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"conversion-review"}, tt.args...), strings.NewReader(tt.stdin), &stdout, &stderr)
			if code != tt.exit {
				t.Errorf("exit status %d, want %d\nstdout: %s\nstderr: %s", code, tt.exit, stdout.String(), stderr.String())
			}
			got := fmt.Sprintf("exit: %d\n--- stdout\n%s--- stderr\n%s", code, stdout.String(), stderr.String())
			golden := filepath.Join("testdata", "conversion-"+tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./cmd/crdlab -update)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (go test ./cmd/crdlab -update rewrites it)\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}

// TestConversionReviewJSON checks that -o json decodes as a
// conversion.Result holding the converted object, and that one file
// holding both the request and the response is read for both.
func TestConversionReviewJSON(t *testing.T) {
	const dir = "../../examples/conversion/"
	var req, resp map[string]interface{}
	for name, into := range map[string]*map[string]interface{}{"request.json": &req, "response.json": &resp} {
		data, err := os.ReadFile(dir + name)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, into); err != nil {
			t.Fatal(err)
		}
	}
	req["response"] = resp["response"]
	both, _ := json.Marshal(req)
	var stdout, stderr bytes.Buffer
	code := run([]string{"conversion-review", "--crd", dir + "crd.yaml", "-o", "json", "-"}, bytes.NewReader(both), &stdout, &stderr)
	if code != exitValid {
		t.Fatalf("exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	var res conversion.Result
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if !res.Valid || len(res.Objects) != 1 || res.ReviewVersion != "v1" || res.UID != "5f1f6a2e-2b7c-4c52-9d4c-3b1c0a8e7d11" {
		t.Fatalf("result: %+v", res)
	}
	o := res.Objects[0]
	spec, _ := o.Object["spec"].(map[string]interface{})
	if o.Object["apiVersion"] != "stable.example.com/v1" || spec["schedule"] != "0 3 * * *" || spec["cron"] != nil {
		t.Errorf("object: %v", o.Object)
	}
}

// TestConversionReviewHelp: the help has the synopsis, flags and an example.
func TestConversionReviewHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"help", "conversion-review"}, strings.NewReader(""), &stdout, &stderr); code != exitValid {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"crdlab conversion-review --crd CRD", "--list-api-version", "Examples:", "examples/conversion/response.json"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, stdout.String())
		}
	}
}
