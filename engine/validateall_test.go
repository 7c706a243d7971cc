package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine"
)

func TestValidateMultiDocument(t *testing.T) {
	c, err := engine.Compile(mustRead("../examples/crontab-crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	good := string(mustRead("../examples/valid.yaml"))
	bad := string(mustRead("../examples/invalid.yaml"))
	v, err := c.Validator("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, body, err string
	}{
		{"two", good + "---\n" + bad, "the object holds 2 YAML documents, Validate takes one (use ValidateAll for a stream)"},
		{"three", "---\n" + good + "---\n" + bad + "--- # c\n" + good, "the object holds 3 YAML documents"},
		{"leading separator", "---\n" + good, ""},
		{"trailing empty", good + "---\n# nothing\n---\n", ""},
		{"separator error", good + "--- x\n" + bad, "invalid Yaml document separator: x"},
	} {
		for _, validate := range []func([]byte) (*engine.Result, error){
			func(b []byte) (*engine.Result, error) { return c.Validate(b, engine.ValidateOptions{}) },
			func(b []byte) (*engine.Result, error) { return v.Validate(b, engine.ValidateOptions{}) },
		} {
			res, err := validate([]byte(tc.body))
			if tc.err == "" {
				if err != nil || !res.Valid() {
					t.Errorf("%s: %v %v", tc.name, err, res)
				}
			} else if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
		}
	}
	// JSON is one document whatever its strings hold.
	if _, err := c.Validate([]byte("{\"apiVersion\":\"stable.example.com/v1\",\"kind\":\"CronTab\",\"metadata\":{\"name\":\"x\",\"annotations\":{\"a\":\"\\n---\\n\"}}}"), engine.ValidateOptions{}); err != nil {
		t.Error(err)
	}

	all, err := c.ValidateAll([]byte("# header\n---\n"+good+"---\n---\n"+bad), engine.ValidateOptions{})
	if err != nil || len(all) != 2 {
		t.Fatalf("ValidateAll: %d results, %v", len(all), err)
	}
	if all[0].Index != 0 || all[0].Line != 3 || !all[0].Result.Valid() {
		t.Errorf("first: %+v", all[0])
	}
	if all[1].Index != 1 || all[1].Line != 5+strings.Count(good, "\n") || all[1].Result.Valid() {
		t.Errorf("second: %+v", all[1])
	}
	if _, err := c.ValidateAll([]byte(good+"---x\n"), engine.ValidateOptions{}); err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf("line %d: ", strings.Count(good, "\n")+1)) {
		t.Errorf("separator error: %v", err)
	}
}

// TestValidateAllContextCancelled: a cancelled context leaves every
// document with an error wrapping context.Canceled, and no result.
func TestValidateAllContextCancelled(t *testing.T) {
	c, err := engine.Compile(mustRead("../examples/crontab-crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	obj := "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\n"
	docs, err := c.ValidateAllContext(ctx, []byte(obj+"---\n"+obj), engine.ValidateOptions{})
	if err != nil || len(docs) != 2 {
		t.Fatalf("ValidateAllContext: %v, %d documents", err, len(docs))
	}
	for _, d := range docs {
		if d.Result != nil || !errors.Is(d.Err, context.Canceled) {
			t.Errorf("document %d: result %v, err %v", d.Index, d.Result, d.Err)
		}
	}
}
