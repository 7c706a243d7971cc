package v1

import (
	"encoding/json"
	"fmt"
)

// IntOrStringType mirrors intstr.Type: which value an IntOrString holds.
type IntOrStringType int64

// The kinds of IntOrString.
const (
	Int IntOrStringType = iota
	String
)

// IntOrString mirrors k8s.io/apimachinery's intstr.IntOrString: a JSON
// number or string, kept as it came (minAvailable: 1 or "50%").
type IntOrString struct {
	Type   IntOrStringType
	IntVal int32
	StrVal string
}

// GoTypeName is upstream's type name in Go syntax (errors before 1.34).
func (IntOrString) GoTypeName() string { return "intstr.IntOrString" }

// GoTypeName is upstream's type name in Go syntax.
func (IntOrStringType) GoTypeName() string { return "intstr.Type" }

// UnmarshalJSON mirrors intstr's: a string when the value starts with a
// quote, otherwise an int32.
func (is *IntOrString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		is.Type = String
		return json.Unmarshal(b, &is.StrVal)
	}
	is.Type = Int
	return json.Unmarshal(b, &is.IntVal)
}

// MarshalJSON mirrors intstr's.
func (is IntOrString) MarshalJSON() ([]byte, error) {
	switch is.Type {
	case Int:
		return json.Marshal(is.IntVal)
	case String:
		return json.Marshal(is.StrVal)
	}
	return []byte{}, fmt.Errorf("impossible IntOrString.Type")
}

// FromString is a string IntOrString.
func FromString(s string) IntOrString { return IntOrString{Type: String, StrVal: s} }

// IsString says whether the value is a string (else an int32).
func (is IntOrString) IsString() bool { return is.Type == String }

// String is the value as text. A pointer method, as intstr's: a bad value
// passed by value is printed in Go syntax before 1.34, as upstream's is.
func (is *IntOrString) String() string {
	if is.Type == String {
		return is.StrVal
	}
	b, _ := json.Marshal(is.IntVal)
	return string(b)
}
