package apply

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/internal/unstructured"
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
	m, ok := unstructured.ConvertNumbers(v).(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	return m, nil
}
