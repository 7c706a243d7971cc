package v1

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/crdlab/crdlab/internal/cel/library"
)

// Quantity mirrors resource.Quantity's JSON form: a string or a number on
// decoding (upstream's UnmarshalJSON: quotes stripped, spaces trimmed,
// ParseQuantity with its error texts), its canonical string on encoding.
type Quantity struct {
	q library.ResourceQuantity
}

// UnmarshalJSON mirrors resource.Quantity's UnmarshalJSON.
func (q *Quantity) UnmarshalJSON(value []byte) error {
	if bytes.Equal(value, []byte("null")) {
		*q = Quantity{}
		return nil
	}
	if l := len(value); l >= 2 && value[0] == '"' && value[l-1] == '"' {
		value = value[1 : l-1]
	}
	parsed, err := library.ParseQuantity(strings.TrimSpace(string(value)))
	if err != nil {
		return err
	}
	q.q = parsed
	return nil
}

// MarshalJSON writes the canonical form (resource.Quantity's MarshalJSON).
func (q Quantity) MarshalJSON() ([]byte, error) {
	return json.Marshal(q.String())
}

// String is the canonical form ("0" for the zero quantity).
func (q Quantity) String() string {
	if q.q.Format == "" && q.q.IsZero() {
		return "0"
	}
	return q.q.String()
}

// Cmp compares two quantities (-1, 0, 1).
func (q Quantity) Cmp(o Quantity) int { return q.q.Cmp(o.q) }

// Sign is -1, 0 or 1.
func (q Quantity) Sign() int { return q.q.Sign() }

// Float64 is the quantity as a float64, approximately.
func (q Quantity) Float64() float64 { return q.q.AsApproximateFloat64() }
