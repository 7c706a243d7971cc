package engine

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestValidateDocument: ParseDocument then ValidateDocument gives what
// ValidateContext gives for the same bytes — errors, warnings, stored
// object, pruned fields, decoding errors, positions — for YAML and JSON,
// documents that are not objects, a version given, the body limit, and a
// document validated twice (the second parses again).
func TestValidateDocument(t *testing.T) {
	crdYAML, err := os.ReadFile("../examples/crontab-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compile(crdYAML)
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile("../examples/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	docs := []string{
		read("valid.yaml"), read("invalid.yaml"), read("unknown-field.yaml"), read("defaults.yaml"),
		"apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\nspec: {cronSpec: x, cronSpec: y, replicas: -1}\n",
		`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"j"},"spec":{"replicas":"x","replicas":2}}`,
		"- a\n- b\n",
		"apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: [x]}\n",
		"apiVersion: [\n",
		"apiversion: stable.example.com/v1\nKind: CronTab\nmetadata: {name: f}\n",
		"apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: b}\nspec: {cronSpec: " + strings.Repeat("x", 2000) + "}\n",
		"a: 1\n---\nb: 2\n",
	}
	for i, doc := range docs {
		for _, opts := range []ValidateOptions{{}, {Version: "v1"}, {FieldValidation: Warn}, {MaxBodyBytes: 100}} {
			name := fmt.Sprintf("%d/%+v", i, opts)
			want, werr := c.ValidateContext(context.Background(), []byte(doc), opts)
			d := ParseDocument([]byte(doc))
			got, gerr := c.ValidateDocument(context.Background(), d, opts)
			if fmt.Sprint(werr) != fmt.Sprint(gerr) {
				t.Errorf("%s: error %v, want %v", name, gerr, werr)
				continue
			}
			if werr != nil {
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s:\n got %+v\nwant %+v", name, got, want)
			}
			if gp, wp := got.Positions(), want.Positions(); !reflect.DeepEqual(gp, wp) {
				t.Errorf("%s: positions %+v, want %+v", name, gp, wp)
			}
			if _, ok := d.Object(); ok {
				t.Errorf("%s: the validated document still gives its object", name)
			}
			again, err := c.ValidateDocument(context.Background(), d, opts)
			if err != nil || !reflect.DeepEqual(again, want) {
				t.Errorf("%s: validated twice:\n got %+v, %v\nwant %+v", name, again, err, want)
			}
		}
	}
	// The shortcut's object is there for YAML, not for JSON.
	if obj, ok := ParseDocument([]byte(docs[0])).Object(); !ok || obj["kind"] != "CronTab" {
		t.Errorf("YAML object: %v %v", obj, ok)
	}
	if _, ok := ParseDocument([]byte(docs[5])).Object(); ok {
		t.Error("JSON: an object")
	}
}
