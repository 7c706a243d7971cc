package field

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ErrorType is a machine-readable classification of a field error. The string
// values are upstream's (they appear in API status causes and in crdlab's JSON).
type ErrorType string

// The error types, with upstream's string values.
const (
	ErrorTypeNotFound     ErrorType = "FieldValueNotFound"
	ErrorTypeRequired     ErrorType = "FieldValueRequired"
	ErrorTypeDuplicate    ErrorType = "FieldValueDuplicate"
	ErrorTypeInvalid      ErrorType = "FieldValueInvalid"
	ErrorTypeNotSupported ErrorType = "FieldValueNotSupported"
	ErrorTypeForbidden    ErrorType = "FieldValueForbidden"
	ErrorTypeTooLong      ErrorType = "FieldValueTooLong"
	ErrorTypeTooMany      ErrorType = "FieldValueTooMany"
	ErrorTypeTooFew       ErrorType = "FieldValueTooFew"
	ErrorTypeInternal     ErrorType = "InternalError"
	ErrorTypeTypeInvalid  ErrorType = "FieldValueTypeInvalid"
	ErrorTypeTooShort     ErrorType = "FieldValueTooShort"
)

// String returns the human-readable label of the type ("Invalid value", ...).
func (t ErrorType) String() string {
	switch t {
	case ErrorTypeNotFound:
		return "Not found"
	case ErrorTypeRequired:
		return "Required value"
	case ErrorTypeDuplicate:
		return "Duplicate value"
	case ErrorTypeInvalid, ErrorTypeTypeInvalid:
		return "Invalid value"
	case ErrorTypeNotSupported:
		return "Unsupported value"
	case ErrorTypeForbidden:
		return "Forbidden"
	case ErrorTypeTooLong:
		return "Too long"
	case ErrorTypeTooMany:
		return "Too many"
	case ErrorTypeTooFew:
		return "Too few"
	case ErrorTypeInternal:
		return "Internal error"
	case ErrorTypeTooShort:
		return "Too short"
	default:
		return fmt.Sprintf("<unknown error %q>", string(t))
	}
}

// Error is a validation error on one field.
type Error struct {
	Type     ErrorType
	Field    string
	BadValue interface{}
	Detail   string

	// goSyntax renders BadValue as Kubernetes 1.33 and older do
	// (WithGoSyntaxValues).
	goSyntax bool
}

// OmitValueType marks a BadValue that must not be rendered.
type OmitValueType struct{}

// OmitValue is the BadValue that renders nothing (upstream's omitValue).
var OmitValue = OmitValueType{}

// Error renders "<field>: <body>".
func (e *Error) Error() string {
	return e.Field + ": " + e.ErrorBody()
}

// ErrorBody renders the error without its field path, exactly as upstream:
// the type label, the bad value for types that show one, and the detail.
func (e *Error) ErrorBody() string {
	var s string
	switch e.Type {
	case ErrorTypeRequired, ErrorTypeForbidden, ErrorTypeTooLong, ErrorTypeTooShort, ErrorTypeInternal:
		s = e.Type.String()
	case ErrorTypeInvalid, ErrorTypeTypeInvalid, ErrorTypeNotSupported,
		ErrorTypeNotFound, ErrorTypeDuplicate, ErrorTypeTooMany, ErrorTypeTooFew:
		if e.BadValue == OmitValue {
			s = e.Type.String()
			break
		}
		if e.goSyntax {
			s = e.Type.String() + ": " + renderValueGoSyntax(e.BadValue)
			break
		}
		s = e.Type.String() + ": " + renderValue(e.BadValue)
	default:
		internal := InternalError(nil, fmt.Errorf("unhandled error code: %s: please report this", e.Type))
		s = internal.ErrorBody()
	}
	if len(e.Detail) != 0 {
		s += ": " + e.Detail
	}
	return s
}

// renderValue formats a bad value as upstream does: numbers and booleans
// with %v, strings quoted, everything else as JSON (falling back to
// fmt.Stringer, then %#v).
func renderValue(v interface{}) string {
	switch t := v.(type) {
	case int64, int32, float64, float32, bool:
		return fmt.Sprintf("%v", t)
	case string:
		return strconv.Quote(t)
	}
	if jb, err := json.Marshal(v); err == nil {
		return string(jb)
	}
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%#v", v)
}

// ErrorList is a list of field errors.
type ErrorList []*Error

// TypeInvalid reports a value of the wrong type.
func TypeInvalid(field *Path, value interface{}, detail string) *Error {
	return &Error{Type: ErrorTypeTypeInvalid, Field: field.String(), BadValue: value, Detail: detail}
}

// Required reports a missing required value.
func Required(field *Path, detail string) *Error {
	return &Error{Type: ErrorTypeRequired, Field: field.String(), BadValue: "", Detail: detail}
}

// Duplicate reports a duplicate value.
func Duplicate(field *Path, value interface{}) *Error {
	return &Error{Type: ErrorTypeDuplicate, Field: field.String(), BadValue: value}
}

// NotFound reports a value that refers to something that does not exist.
func NotFound(field *Path, value interface{}) *Error {
	return &Error{Type: ErrorTypeNotFound, Field: field.String(), BadValue: value}
}

// Invalid reports an invalid value.
func Invalid(field *Path, value interface{}, detail string) *Error {
	return &Error{Type: ErrorTypeInvalid, Field: field.String(), BadValue: value, Detail: detail}
}

// NotSupported reports a value outside the supported set; the detail lists
// the supported values, quoted, in the order given.
func NotSupported[T ~string](field *Path, value interface{}, validValues []T) *Error {
	detail := ""
	if len(validValues) > 0 {
		q := make([]string, len(validValues))
		for i, v := range validValues {
			q[i] = strconv.Quote(string(v))
		}
		detail = "supported values: " + strings.Join(q, ", ")
	}
	return &Error{Type: ErrorTypeNotSupported, Field: field.String(), BadValue: value, Detail: detail}
}

// Forbidden reports a forbidden field or value.
func Forbidden(field *Path, detail string) *Error {
	return &Error{Type: ErrorTypeForbidden, Field: field.String(), BadValue: "", Detail: detail}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// TooLong reports a value longer than maxLength bytes (negative: unknown limit).
func TooLong(field *Path, _ interface{}, maxLength int) *Error {
	msg := "value is too long"
	if maxLength >= 0 {
		msg = fmt.Sprintf("may not be more than %d %s", maxLength, plural(maxLength, "byte", "bytes"))
	}
	return &Error{Type: ErrorTypeTooLong, Field: field.String(), BadValue: "<value omitted>", Detail: msg}
}

// TooMany reports a list with more than maxQuantity items.
func TooMany(field *Path, actualQuantity, maxQuantity int) *Error {
	msg := "has too many items"
	if maxQuantity >= 0 {
		msg = fmt.Sprintf("must have at most %d %s", maxQuantity, plural(maxQuantity, "item", "items"))
	}
	var actual interface{} = OmitValue
	if actualQuantity >= 0 {
		actual = actualQuantity
	}
	return &Error{Type: ErrorTypeTooMany, Field: field.String(), BadValue: actual, Detail: msg}
}

// InternalError reports an error that is not the user's.
func InternalError(field *Path, err error) *Error {
	return &Error{Type: ErrorTypeInternal, Field: field.String(), BadValue: err, Detail: err.Error()}
}

// Aggregate is the error form of a non-empty ErrorList.
type Aggregate []error

// Error renders one error alone, several as "[a, b]", skipping duplicates.
func (agg Aggregate) Error() string {
	if len(agg) == 0 {
		return ""
	}
	if len(agg) == 1 {
		return agg[0].Error()
	}
	seen := map[string]bool{}
	var b strings.Builder
	for _, err := range agg {
		msg := err.Error()
		if seen[msg] {
			continue
		}
		seen[msg] = true
		if len(seen) > 1 {
			b.WriteString(", ")
		}
		b.WriteString(msg)
	}
	if len(seen) == 1 {
		return b.String()
	}
	return "[" + b.String() + "]"
}

// Errors returns the aggregated errors.
func (agg Aggregate) Errors() []error { return agg }

// ToAggregate drops errors whose rendering repeats an earlier one and returns
// the rest as an error, or nil when the list is empty.
func (list ErrorList) ToAggregate() error {
	if len(list) == 0 {
		return nil
	}
	seen := map[string]bool{}
	errs := make(Aggregate, 0, len(list))
	for _, err := range list {
		msg := err.Error()
		if seen[msg] {
			continue
		}
		seen[msg] = true
		errs = append(errs, err)
	}
	return errs
}

// Deduplicated returns the list without errors whose rendering repeats an
// earlier one (what ToAggregate keeps), preserving order.
func (list ErrorList) Deduplicated() ErrorList {
	seen := map[string]bool{}
	out := make(ErrorList, 0, len(list))
	for _, err := range list {
		msg := err.Error()
		if seen[msg] {
			continue
		}
		seen[msg] = true
		out = append(out, err)
	}
	return out
}

// PrefixDetail prepends prefix to the detail of every error in the list.
func (list ErrorList) PrefixDetail(prefix string) ErrorList {
	for _, err := range list {
		err.Detail = prefix + err.Detail
	}
	return list
}
