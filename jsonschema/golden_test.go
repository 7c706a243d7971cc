package jsonschema_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/jsonschema"
)

var update = flag.Bool("update", false, "rewrite testdata/*.json")

// TestGolden pins the export of the CronTab example CRD in both drafts,
// strict and not.
func TestGolden(t *testing.T) {
	data, err := os.ReadFile("../examples/crontab-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	def, err := crd.DecodeOne(data, "crontab-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts jsonschema.Options
	}{
		{"crontab_v1.2020-12.json", jsonschema.Options{}},
		{"crontab_v1.07.strict.json", jsonschema.Options{Draft: jsonschema.Draft07, Strict: true}},
	} {
		schemas, err := jsonschema.Convert(def, tc.opts)
		if err != nil || len(schemas) != 1 {
			t.Fatalf("%s: %d schemas, %v", tc.name, len(schemas), err)
		}
		got, err := schemas[0].JSON()
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", tc.name)
		if *update {
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the export (run with -update and review):\n%s", golden, got)
		}
	}
}

func TestParseDraft(t *testing.T) {
	for in, want := range map[string]jsonschema.Draft{"2020-12": jsonschema.Draft2020, "": jsonschema.Draft2020, "07": jsonschema.Draft07, "draft-07": jsonschema.Draft07, "7": jsonschema.Draft07} {
		if got, err := jsonschema.ParseDraft(in); err != nil || got != want {
			t.Errorf("ParseDraft(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := jsonschema.ParseDraft("04"); err == nil {
		t.Error("ParseDraft(04): no error")
	}
	if _, err := jsonschema.Convert(nil, jsonschema.Options{}); err == nil {
		t.Error("Convert(nil): no error")
	}
}
