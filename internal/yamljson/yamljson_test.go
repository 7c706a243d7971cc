package yamljson

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func literal(lit string) (interface{}, bool) { return json.Number(lit), true }

func TestValueGivesNumbersAsJSONMarshalWritesThem(t *testing.T) {
	got, ok := Value([]byte("a: 1\nb: 1.0\nc: 1e21\nd: 0.5\ne: -7\nf: 1e-7\n"), literal)
	if !ok {
		t.Fatal("shortcut declined plain numbers")
	}
	want := map[string]interface{}{"a": json.Number("1"), "b": json.Number("1"), "c": json.Number("1e+21"),
		"d": json.Number("0.5"), "e": json.Number("-7"), "f": json.Number("1e-7")}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v, want %#v", got, want)
	}
}

func TestValueDeclinesWhatYAMLToJSONMightChange(t *testing.T) {
	for name, doc := range map[string]string{
		"integer key":           "1: a\n",
		"boolean key":           "true: a\n",
		"integer beyond int64":  "a: 18446744073709551615\n",
		"NaN":                   "a: .nan\n",
		"infinity":              "a: -.inf\n",
		"invalid UTF-8":         "a: \xff\n",
		"binary, not UTF-8":     "a: !!binary /w==\n",
		"syntax error":          "a: [\n",
		"deeper than MaxDepth":  strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2),
		"number callback fails": "a: 2\n",
	} {
		t.Run(name, func(t *testing.T) {
			number := literal
			if name == "number callback fails" {
				number = func(string) (interface{}, bool) { return nil, false }
			}
			if v, ok := Value([]byte(doc), number); ok {
				t.Fatalf("shortcut taken: %#v", v)
			}
		})
	}
}
