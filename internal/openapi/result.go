package openapi

import (
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// errCode classifies an error as kube-openapi's errors.Validation codes do;
// codePlain marks the errors that are not *errors.Validation (composite
// messages of allOf/anyOf/oneOf/not/dependencies, number range checks),
// which upstream reports as Invalid at the root path with an empty value.
type errCode uint8

const (
	codePlain errCode = iota
	codeInvalidType
	codeRequired
	codeTooLong
	codeTooShort
	codePattern
	codeEnum
	codeMultipleOf
	codeMax
	codeMin
	codeUnique
	codeMaxItems
	codeMinItems
	codeTooFewProperties
	codeTooManyProperties
	codeUnallowedProperty
	codeMultipleOfMustBePositive
)

// vErr is one kube-openapi validation error.
type vErr struct {
	code   errCode
	name   string      // the error's Name (a kube-openapi path such as "spec.items[0]")
	value  interface{} // the error's Value
	hasVal bool        // whether Value was set (nil values are rendered as "")
	valid  int64       // the error's Valid limit (TooLong, MaxItems, TooManyProperties)
	enum   *node       // the node whose enum failed
	msg    string
}

// result mirrors kube-openapi's validate.Result: errors de-duplicated by
// message, and the match count used to rank anyOf/oneOf alternatives.
type result struct {
	errs  []*vErr
	match int
}

func (r *result) add(e *vErr) {
	for _, x := range r.errs {
		if x.sameMessage(e) {
			return
		}
	}
	r.errs = append(r.errs, e)
}

// enumMiddle joins the name and the values in an enum error's message.
const enumMiddle = " in " + in + " should be one of "

// message is the error's kube-openapi message. Enum messages, which hold
// the whole enum, are rendered on demand only.
func (e *vErr) message() string {
	if e.code == codeEnum && e.msg == "" {
		return e.name + enumMiddle + e.enum.en.text
	}
	return e.msg
}

// sameMessage is message() == o.message() without rendering enum messages.
func (e *vErr) sameMessage(o *vErr) bool {
	eEnum, oEnum := e.code == codeEnum && e.msg == "", o.code == codeEnum && o.msg == ""
	switch {
	case !eEnum && !oEnum:
		return e.msg == o.msg
	case eEnum && oEnum:
		if len(e.name)+len(e.enum.en.text) != len(o.name)+len(o.enum.en.text) {
			return false
		}
		if e.name == o.name {
			return e.enum == o.enum || e.enum.en.text == o.enum.en.text
		}
		return concatEqual([]string{e.name, enumMiddle, e.enum.en.text}, []string{o.name, enumMiddle, o.enum.en.text})
	case oEnum:
		e, o = o, e
	}
	// e is an enum error, o.msg a rendered message
	return concatEqual([]string{e.name, enumMiddle, e.enum.en.text}, []string{o.msg})
}

// concatEqual reports whether the concatenations of a and b are equal,
// without building them (stops at the first difference).
func concatEqual(a, b []string) bool {
	la, lb := 0, 0
	for _, s := range a {
		la += len(s)
	}
	for _, s := range b {
		lb += len(s)
	}
	if la != lb {
		return false
	}
	var x, y string
	for {
		for len(x) == 0 && len(a) > 0 {
			x, a = a[0], a[1:]
		}
		for len(y) == 0 && len(b) > 0 {
			y, b = b[0], b[1:]
		}
		if len(x) == 0 || len(y) == 0 {
			return len(x) == len(y)
		}
		n := len(x)
		if len(y) < n {
			n = len(y)
		}
		if x[:n] != y[:n] {
			return false
		}
		x, y = x[n:], y[n:]
	}
}

// notSupportedDetail is field.NotSupported's detail for the node's enum,
// rendered once per node.
func (n *node) notSupportedDetail() string {
	en := n.en
	en.detailOnce.Do(func() {
		en.detail = field.NotSupported(nil, nil, en.strings).Detail
	})
	return en.detail
}

func (r *result) merge(o *result) {
	for _, e := range o.errs {
		r.add(e)
	}
	r.match += o.match
}

// keepImportant is kube-openapi's keepRelevantErrors: errors whose message
// starts with "IMPORTANT!" survive, as plain errors without the prefix.
func (r *result) keepImportant(into *result) {
	for _, e := range r.errs {
		if e.code == codeEnum && e.msg == "" {
			// only the name and the fixed middle can hold the prefix
			if head := e.name + enumMiddle; strings.HasPrefix(head, "IMPORTANT!") {
				into.add(&vErr{code: codePlain, msg: strings.TrimPrefix(e.message(), "IMPORTANT!")})
			}
			continue
		}
		if strings.HasPrefix(e.msg, "IMPORTANT!") {
			into.add(&vErr{code: codePlain, msg: strings.TrimPrefix(e.msg, "IMPORTANT!")})
		}
	}
}

// toFieldErrors is upstream's kubeOpenAPIResultToFieldErrors.
func toFieldErrors(fldPath *field.Path, errs []*vErr, rel kubeversion.Release) field.ErrorList {
	if len(errs) == 0 {
		return nil
	}
	out := make(field.ErrorList, 0, len(errs))
	for _, e := range errs {
		if e.code == codePlain {
			out = append(out, field.Invalid(fldPath, "", e.msg))
			continue
		}
		p := fldPath
		if len(e.name) > 0 && e.name != "." {
			p = p.Child(strings.TrimPrefix(e.name, "."))
		}
		var value interface{} = ""
		if e.hasVal && e.value != nil {
			value = e.value
		}
		switch e.code {
		case codeRequired:
			out = append(out, field.Required(p, ""))
		case codeEnum:
			// field.NotSupported(p, e.value, e.enum.en.strings), with the
			// detail rendered once per enum
			out = append(out, &field.Error{Type: field.ErrorTypeNotSupported, Field: p.String(), BadValue: e.value, Detail: e.enum.notSupportedDetail()})
		case codeTooLong:
			tl := field.TooLong(p, "", int(e.valid))
			if !rel.Has(kubeversion.TooLongBytes) {
				// field.TooLongMaxLength before k8s.io/apimachinery v0.32
				tl.Detail = fmt.Sprintf("may not be longer than %d", e.valid)
			}
			out = append(out, tl)
		case codeMaxItems, codeTooManyProperties:
			actual := int64(-1)
			if i, ok := e.value.(int64); ok {
				actual = i
			}
			out = append(out, field.TooMany(p, int(actual), int(e.valid)))
		case codeTooShort, codeMinItems, codeTooFewProperties:
			if !rel.Has(kubeversion.TooShortTooFew) {
				// before 1.38: kube-openapi's message as an Invalid value
				out = append(out, field.Invalid(p, value, e.msg))
				continue
			}
			out = append(out, tooShortOrFew(p, e))
		case codeInvalidType:
			out = append(out, field.TypeInvalid(p, value, e.msg))
		default:
			out = append(out, field.Invalid(p, value, e.msg))
		}
	}
	return out
}

// tooShortOrFew is field.TooShort (minLength) and field.TooFew (minItems,
// minProperties) of k8s.io/apimachinery v0.38, as kubeOpenAPIResultToFieldErrors
// calls them from 1.38: a negative limit (never from a schema) would read
// "value is too short" / "has too few items".
func tooShortOrFew(p *field.Path, e *vErr) *field.Error {
	if e.code == codeTooShort {
		// the value is not shown (ErrorTypeTooShort renders none)
		s, _ := e.value.(string)
		return &field.Error{Type: field.ErrorTypeTooShort, Field: p.String(), BadValue: s,
			Detail: fmt.Sprintf("must be at least %d %s", e.valid, pluralUnit(e.valid, "character", "characters"))}
	}
	actual := int64(-1)
	if i, ok := e.value.(int64); ok {
		actual = i
	}
	return &field.Error{Type: field.ErrorTypeTooFew, Field: p.String(), BadValue: int(actual),
		Detail: fmt.Sprintf("must have at least %d %s", e.valid, pluralUnit(e.valid, "item", "items"))}
}

func pluralUnit(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
