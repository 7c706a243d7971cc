package apply

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// decodeJSON decodes a JSON object as the API server's unstructured JSON
// decoding does: integers as int64, other numbers as float64.
func decodeJSON(b []byte) (map[string]interface{}, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	m, ok := convertNumbers(v).(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	return m, nil
}

func convertNumbers(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		for k, x := range t {
			t[k] = convertNumbers(x)
		}
	case []interface{}:
		for i, x := range t {
			t[i] = convertNumbers(x)
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	}
	return v
}
