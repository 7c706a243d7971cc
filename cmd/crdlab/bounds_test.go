package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRequestBodyLimit(t *testing.T) {
	const crd = "../../examples/crontab-crd.yaml"
	valid, err := os.ReadFile("../../examples/valid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// An object over 3 MiB (a comment pads it) is refused as the API server
	// refuses the body; the next object is validated.
	big := string(valid) + "#" + strings.Repeat("x", 3<<20) + "\n"
	var stdout, stderr bytes.Buffer
	code := run([]string{"validate", "--crd", crd, "-", "../../examples/valid.yaml"}, strings.NewReader(big), &stdout, &stderr)
	if code != exitInvalid || !strings.Contains(stderr.String(), `-:2: Error from server (RequestEntityTooLarge): error when creating "-": Request entity too large: limit is 3145728`) ||
		!strings.Contains(stdout.String(), "my-new-cron-object created (server dry run)") {
		t.Errorf("big object: exit %d\nstdout: %s\nstderr: %.500s", code, stdout.String(), stderr.String())
	}
	// A CRD over 3 MiB is not decoded.
	crdData, err := os.ReadFile(crd)
	if err != nil {
		t.Fatal(err)
	}
	bigCRD := filepath.Join(t.TempDir(), "big-crd.yaml")
	if err := os.WriteFile(bigCRD, append(crdData, []byte("#"+strings.Repeat("x", 3<<20)+"\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"validate", "--crd", bigCRD, "../../examples/valid.yaml"}, {"lint", bigCRD}} {
		stdout.Reset()
		stderr.Reset()
		code = run(args, strings.NewReader(""), &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), "big-crd.yaml:4: Request entity too large: limit is 3145728") {
			t.Errorf("%s big CRD: exit %d, stderr %.500s", args[0], code, stderr.String())
		}
	}
}

func TestTimeout(t *testing.T) {
	const crd = "../../examples/crontab-crd.yaml"
	var stdout, stderr bytes.Buffer
	// Every object times out, each is reported, the command goes on.
	code := run([]string{"validate", "--timeout", "1ns", "--crd", crd, "../../examples/valid.yaml", "../../examples/defaults.yaml"}, strings.NewReader(""), &stdout, &stderr)
	want := "../../examples/valid.yaml:2: error: CronTab my-new-cron-object: validating the object: context deadline exceeded (--timeout 1ns)\n" +
		"../../examples/defaults.yaml:3: error: CronTab my-defaulted-cron-object: validating the object: context deadline exceeded (--timeout 1ns)\n"
	if code != exitInvalid || stderr.String() != want {
		t.Errorf("--timeout 1ns: exit %d\nstderr: %s\nwant: %s", code, stderr.String(), want)
	}
	for _, timeout := range []string{"0", "1m"} {
		stdout.Reset()
		stderr.Reset()
		if code := run([]string{"validate", "--timeout", timeout, "--crd", crd, "../../examples/valid.yaml"}, strings.NewReader(""), &stdout, &stderr); code != exitValid {
			t.Errorf("--timeout %s: exit %d: %s", timeout, code, stderr.String())
		}
	}
	stderr.Reset()
	if code := run([]string{"validate", "--timeout", "-1s", "--crd", crd, "../../examples/valid.yaml"}, strings.NewReader(""), &stdout, &stderr); code != exitUsage {
		t.Errorf("--timeout -1s: exit %d", code)
	}
}
