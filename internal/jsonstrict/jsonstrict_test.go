package jsonstrict

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestDecodeValues(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want interface{}
	}{
		{"integers are int64", `{"a":5,"b":-0,"c":9223372036854775807}`, map[string]interface{}{"a": int64(5), "b": int64(0), "c": int64(9223372036854775807)}},
		{"non-integers and overflowing integers are float64", `{"a":1.0,"b":1e3,"c":9223372036854775808}`, map[string]interface{}{"a": 1.0, "b": 1000.0, "c": 9223372036854775808.0}},
		{"escapes and unicode", `{"a":"\u00e9\n\"","é":"ü"}`, map[string]interface{}{"a": "é\n\"", "é": "ü"}},
		{"nested lists and literals", `{"a":[true,false,null,[],{}]}`, map[string]interface{}{"a": []interface{}{true, false, nil, []interface{}{}, map[string]interface{}{}}}},
		{"last duplicate wins", `{"a":1,"a":2}`, map[string]interface{}{"a": int64(2)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := Decode([]byte(tt.in), true)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestDecodeStrictErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"root duplicate", `{"a":1,"a":2}`, []string{`duplicate field "a"`}},
		{"nested duplicate has a dotted path", `{"spec":{"x":{"y":1,"y":2}}}`, []string{`duplicate field "spec.x.y"`}},
		{"list index in the path", `{"l":[{},{"k":1,"k":1}]}`, []string{`duplicate field "l[1].k"`}},
		{"repeated duplicates are reported once", `{"a":1,"a":2,"a":3}`, []string{`duplicate field "a"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs, err := Decode([]byte(tt.in), true)
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %q want %q", got, tt.want)
			}
		})
	}
}

func TestDecodeCapsStrictErrorsAt100(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 150; i++ {
		fmt.Fprintf(&b, `"k%d":1,"k%d":2,`, i, i)
	}
	b.WriteString(`"z":0}`)
	_, errs, err := Decode([]byte(b.String()), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != MaxErrors {
		t.Fatalf("got %d strict errors, want %d", len(errs), MaxErrors)
	}
}

func TestDecodeNotStrictRecordsNothing(t *testing.T) {
	_, errs, err := Decode([]byte(`{"a":1,"a":2}`), false)
	if err != nil || len(errs) != 0 {
		t.Fatalf("errs=%v err=%v", errs, err)
	}
}

func TestDecodeOutOfRangeNumber(t *testing.T) {
	_, _, err := Decode([]byte(`{"a":1e400}`), true)
	if err == nil || err.Error() != "json: cannot unmarshal number 1e400 into Go value of type float64" {
		t.Fatalf("err = %v", err)
	}
}

func TestDecodeAgreesWithEncodingJSON(t *testing.T) {
	inputs := []string{`{"a":[1,2.5,"x",{"b":null}]}`, `{"\ud83d\ude00":"\t"}`, `{}`, `{"a":"\u0000"}`}
	for _, in := range inputs {
		got, _, err := Decode([]byte(in), false)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		var want interface{}
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		gb, _ := json.Marshal(got)
		wb, _ := json.Marshal(want)
		if string(gb) != string(wb) {
			t.Errorf("%s: got %s want %s", in, gb, wb)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":[1,{"b":2,"b":3}]}`, `{"a":"\u00e9"}`, `[1]`, `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		got, _, err := Decode(data, true)
		if err != nil {
			if strings.HasPrefix(err.Error(), "json: cannot unmarshal number") {
				return
			}
			t.Fatalf("valid JSON %q: %v", data, err)
		}
		want := preserveInts(t, data)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: got %#v want %#v", data, got, want)
		}
	})
}

// preserveInts decodes with encoding/json and converts numbers as
// sigs.k8s.io/json's PreserveInts does.
func preserveInts(t *testing.T, data []byte) interface{} {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var conv func(interface{}) interface{}
	conv = func(x interface{}) interface{} {
		switch x := x.(type) {
		case json.Number:
			if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
				return i
			}
			f, _ := strconv.ParseFloat(string(x), 64)
			return f
		case map[string]interface{}:
			for k, v := range x {
				x[k] = conv(v)
			}
		case []interface{}:
			for i, v := range x {
				x[i] = conv(v)
			}
		}
		return x
	}
	return conv(v)
}
