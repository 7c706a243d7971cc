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

// IntOrString mirrors intstr.IntOrString: a JSON string or int32.
type IntOrString struct {
	IsString bool
	IntVal   int32
	StrVal   string
}

// FromString is a string IntOrString.
func FromString(s string) IntOrString { return IntOrString{IsString: true, StrVal: s} }

// UnmarshalJSON mirrors intstr.IntOrString's: a quoted value is a string,
// anything else an int32 (with encoding/json's error texts).
func (v *IntOrString) UnmarshalJSON(value []byte) error {
	if len(value) > 0 && value[0] == '"' {
		v.IsString = true
		return json.Unmarshal(value, &v.StrVal)
	}
	v.IsString = false
	return json.Unmarshal(value, &v.IntVal)
}

// MarshalJSON writes the string or the int.
func (v IntOrString) MarshalJSON() ([]byte, error) {
	if v.IsString {
		return json.Marshal(v.StrVal)
	}
	return json.Marshal(v.IntVal)
}

// String is the value as text.
func (v IntOrString) String() string {
	if v.IsString {
		return v.StrVal
	}
	b, _ := json.Marshal(v.IntVal)
	return string(b)
}

// Float64 is the quantity as a float64, approximately.
func (q Quantity) Float64() float64 { return q.q.AsApproximateFloat64() }
