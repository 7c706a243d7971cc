package cel

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/schema"
)

// mustSchema builds a structural schema from its JSON form.
func mustSchema(t testing.TB, js string) *schema.Structural {
	t.Helper()
	var p crd.JSONSchemaProps
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatalf("schema: %v", err)
	}
	s, err := schema.NewStructural(&p)
	if err != nil {
		t.Fatalf("structural: %v", err)
	}
	return s
}

// mustObject decodes JSON into unstructured values (integers as int64).
func mustObject(t testing.TB, js string) interface{} {
	t.Helper()
	if js == "" {
		return nil
	}
	d := json.NewDecoder(strings.NewReader(js))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		t.Fatalf("object: %v", err)
	}
	return fixNumbers(v)
}

func fixNumbers(v interface{}) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		for k, e := range x {
			x[k] = fixNumbers(e)
		}
	case []interface{}:
		for i, e := range x {
			x[i] = fixNumbers(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

func errStrings[E interface{ Error() string }](list []E) []string {
	out := make([]string, 0, len(list))
	for _, e := range list {
		out = append(out, e.Error())
	}
	return out
}

func sprint(v interface{}) string { return fmt.Sprint(v) }

func itoa(v uint64) string {
	b := []byte{}
	if v == 0 {
		return "0"
	}
	for v > 0 {
		b = append([]byte{byte('0' + v%10)}, b...)
		v /= 10
	}
	return string(b)
}

func itoaInt(i int) string { return strconv.Itoa(i) }
