package openapi

import (
	"fmt"
	"github.com/crdlab/crdlab/internal/keys"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/unstructured"
)

// in is the "in" of kube-openapi's schema validator messages.
const in = "body"

// Validate validates a custom resource (or any value) against the schema,
// as upstream's ValidateCustomResource does; errors are reported below
// fldPath (nil for a whole object, as the CR strategy passes).
func (v *Validator) Validate(fldPath *field.Path, obj interface{}) field.ErrorList {
	if v == nil || v.root == nil {
		return nil
	}
	var res result
	validateNode(v.root, obj, newPath(), nil, &res)
	return toFieldErrors(fldPath, res.errs, v.release)
}

// ValidateUpdate validates obj as an update of old with ratcheting, as
// upstream's ValidateCustomResourceUpdate does when called by the CR
// strategy (CRDValidationRatcheting is GA): errors in correlatable parts of
// obj that are unchanged from old are dropped.
func (v *Validator) ValidateUpdate(fldPath *field.Path, obj, old interface{}) field.ErrorList {
	if v == nil || v.root == nil {
		return nil
	}
	var res result
	c := &corr{OldValue: old, Value: obj, Schema: v.root}
	validateNode(v.root, obj, newPath(), c, &res)
	return toFieldErrors(fldPath, res.errs, v.release)
}

// vpath is the kube-openapi validator path of the value being validated
// ("spec.items[0]", ".key"): a stack of segments shared by the whole walk,
// rendered only when an error is reported. No segments is the root path "".
type vpath struct {
	segs []seg
	buf  [12]seg
}

func newPath() *vpath {
	p := &vpath{}
	p.segs = p.buf[:0]
	return p
}

type seg struct {
	kind  uint8
	name  string
	index int
}

const (
	pathProp  uint8 = iota // a property: name at the root, parent.name below
	pathDot                // parent.name, even at the root (".name")
	pathIndex              // parent[index]
)

func (p *vpath) String() string {
	if len(p.segs) == 0 {
		return ""
	}
	var b strings.Builder
	for i, s := range p.segs {
		switch s.kind {
		case pathProp:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.name)
		case pathDot:
			b.WriteByte('.')
			b.WriteString(s.name)
		case pathIndex:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// validateChild validates a property, map entry or list item of the current
// value: the path grows by one segment for the duration of the call.
func validateChild(n *node, data interface{}, p *vpath, kind uint8, name string, index int, c *corr, res *result) {
	p.segs = append(p.segs, seg{kind: kind, name: name, index: index})
	validateNode(n, data, p, c, res)
	p.segs = p.segs[:len(p.segs)-1]
}

// validateNode is kube-openapi's SchemaValidator.Validate for one schema
// node, accumulating into res. With a correlation c (ratcheting), errors
// found below are dropped when the new value deep-equals the old one.
func validateNode(n *node, data interface{}, p *vpath, c *corr, res *result) {
	if c == nil {
		validatePlain(n, data, p, c, res)
		return
	}
	start := len(res.errs)
	validatePlain(n, data, p, c, res)
	if len(res.errs) > start && c.CachedDeepEqual() {
		for i := start; i < len(res.errs); i++ {
			res.errs[i] = nil
		}
		res.errs = res.errs[:start]
	}
}

func validatePlain(n *node, data interface{}, p *vpath, c *corr, res *result) {
	if data == nil {
		// only the type and enum validators run on null
		if len(n.types) > 0 && !n.hasType(nullType) && !n.nullable {
			res.add(invalidType(p, n.typesJoin, nullType))
		} else {
			res.match++
		}
		validateEnum(n, data, p, res)
		return
	}

	var (
		isString, isNumber, isSlice, isMap bool
		str                                string
	)
	switch t := data.(type) {
	case string:
		isString, str = true, t
	case int64, float64, int, int32, float32:
		isNumber = true
	case []interface{}:
		isSlice = true
	case map[string]interface{}:
		isMap = true
	}

	if len(n.types) > 0 || n.format != "" {
		if validateType(n, data, isString, isSlice, p, res) {
			res.match++
		}
		res.match++
	}

	validateSchemaProps(n, data, p, res)
	res.match++

	if isString {
		validateString(n, str, p, res)
		res.match++
		if n.fmtCheck != nil {
			if !n.fmtCheck(str) {
				res.add(invalidType(p, n.format, str))
			}
			res.match++
		}
	}
	if isNumber {
		validateNumber(n, data, p, res)
		res.match += 2
	}
	if isSlice {
		validateSlice(n, data.([]interface{}), p, c, res)
		res.match += 2
	}
	validateEnum(n, data, p, res)
	res.match++
	if isMap {
		validateObject(n, data.(map[string]interface{}), p, c, res)
		res.match++
	}
	res.match++
}

func invalidType(p *vpath, typeName, got string) *vErr {
	name := p.String()
	return &vErr{code: codeInvalidType, name: name, value: got, hasVal: true,
		msg: fmt.Sprintf("%s in %s must be of type %s: %q", name, in, typeName, got)}
}

// schemaInfo is kube-openapi's typeValidator.schemaInfoForType for decoded JSON.
func schemaInfo(data interface{}) (string, string) {
	switch data.(type) {
	case bool:
		return booleanType, ""
	case string:
		return stringType, ""
	case int32:
		return integerType, "int32"
	case int64, int:
		return integerType, "int64"
	case float32:
		return numberType, "float32"
	case float64:
		return numberType, "float64"
	case []interface{}:
		return arrayType, ""
	case map[string]interface{}:
		return objectType, ""
	}
	switch reflect.ValueOf(data).Kind() {
	case reflect.Slice:
		return arrayType, ""
	case reflect.Map, reflect.Struct:
		return objectType, ""
	}
	return "", ""
}

// validateType is kube-openapi's typeValidator.Validate for non-null data;
// it reports whether the value passed.
func validateType(n *node, data interface{}, isString, isSlice bool, p *vpath, res *result) bool {
	schType, format := schemaInfo(data)
	isLowerInt := n.format == "int64" && format == "int32"
	isLowerFloat := n.format == "float64" && format == "float32"
	isFloatInt := false
	if schType == numberType && n.hasType(integerType) {
		isFloatInt = isFloat64AJSONInteger(asFloat64(data))
	}
	isIntFloat := schType == integerType && n.hasType(numberType)
	if !isString && !isSlice && n.format != "" &&
		!(n.hasType(schType) || format == n.format || isFloatInt || isIntFloat || isLowerInt || isLowerFloat) {
		res.add(invalidType(p, n.format, format))
		return false
	}
	if !(n.hasType(numberType) || n.hasType(integerType)) && n.format != "" && (isString || isSlice) {
		return true
	}
	if !(n.hasType(schType) || isFloatInt || isIntFloat) {
		res.add(invalidType(p, n.typesJoin, schType))
		return false
	}
	return true
}

func plainErr(msg string) *vErr { return &vErr{code: codePlain, msg: msg} }

// validateSchemaProps is kube-openapi's schemaPropsValidator (allOf, anyOf,
// oneOf, not, dependencies), including its own match count increment.
func validateSchemaProps(n *node, data interface{}, p *vpath, res *result) {
	if len(n.r().anyOf) == 0 && len(n.r().oneOf) == 0 && len(n.r().allOf) == 0 && n.r().not == nil && len(n.r().deps) == 0 {
		res.match++
		return
	}
	var keepAny, keepOne, keepAll result

	if len(n.r().anyOf) > 0 {
		var best, firstSuccess *result
		succeeded := false
		for _, s := range n.r().anyOf {
			r := &result{}
			validateNode(s, data, p, nil, r)
			r.keepImportant(&keepAny)
			if len(r.errs) == 0 {
				best = nil
				succeeded = true
				if firstSuccess == nil {
					firstSuccess = r
				}
				keepAny = result{}
				break
			}
			if best == nil || r.match > best.match {
				best = r
			}
		}
		if !succeeded {
			res.add(plainErr(fmt.Sprintf("%q must validate at least one schema (anyOf)", p.String())))
		}
		if best != nil {
			res.merge(best)
		} else if firstSuccess != nil {
			res.merge(firstSuccess)
		}
	}

	if len(n.r().oneOf) > 0 {
		var best, firstSuccess *result
		validated := 0
		for _, s := range n.r().oneOf {
			r := &result{}
			validateNode(s, data, p, nil, r)
			r.keepImportant(&keepOne)
			if len(r.errs) == 0 {
				validated++
				best = nil
				if firstSuccess == nil {
					firstSuccess = r
				}
				keepOne = result{}
				continue
			}
			if validated == 0 && (best == nil || r.match > best.match) {
				best = r
			}
		}
		if validated != 1 {
			additional := "Found none valid"
			if validated > 0 {
				additional = fmt.Sprintf("Found %d valid alternatives", validated)
			}
			res.add(plainErr(fmt.Sprintf("%q must validate one and only one schema (oneOf). %s", p.String(), additional)))
			if best != nil {
				res.merge(best)
			}
		} else if firstSuccess != nil {
			res.merge(firstSuccess)
		}
	}

	if len(n.r().allOf) > 0 {
		validated := 0
		for _, s := range n.r().allOf {
			r := &result{}
			validateNode(s, data, p, nil, r)
			r.keepImportant(&keepAll)
			if len(r.errs) == 0 {
				validated++
			}
			res.merge(r)
		}
		if validated != len(n.r().allOf) {
			additional := ""
			if validated == 0 {
				additional = ". None validated"
			}
			res.add(plainErr(fmt.Sprintf("%q must validate all the schemas (allOf)%s", p.String(), additional)))
		}
	}

	if n.r().not != nil {
		r := &result{}
		validateNode(n.r().not, data, p, nil, r)
		if len(r.errs) == 0 {
			res.add(plainErr(fmt.Sprintf("%q must not validate the schema (not)", p.String())))
		}
	}

	if m, ok := data.(map[string]interface{}); ok && len(n.r().deps) > 0 {
		for _, d := range n.r().deps {
			if _, present := m[d.key]; !present {
				continue
			}
			if d.schema != nil {
				validateChild(d.schema, data, p, pathDot, d.key, 0, nil, res)
				continue
			}
			for _, depKey := range d.property {
				if _, ok := m[depKey]; !ok {
					res.add(plainErr(fmt.Sprintf("%q has a dependency on %s", p.String(), depKey)))
				}
			}
		}
	}

	res.match++
	res.merge(&keepAll)
	res.merge(&keepOne)
	res.merge(&keepAny)
}

// validateString is kube-openapi's stringValidator: the first failing of
// maxLength, minLength, pattern.
func validateString(n *node, s string, p *vpath, res *result) {
	if n.maxLength != nil || n.minLength != nil {
		l := int64(utf8.RuneCountInString(s))
		if n.maxLength != nil && l > *n.maxLength {
			name := p.String()
			res.add(&vErr{code: codeTooLong, name: name, value: s, hasVal: true, valid: *n.maxLength,
				msg: fmt.Sprintf("%s in %s should be at most %d chars long", name, in, *n.maxLength)})
			return
		}
		if n.minLength != nil && l < *n.minLength {
			name := p.String()
			res.add(&vErr{code: codeTooShort, name: name, value: s, hasVal: true, valid: *n.minLength,
				msg: fmt.Sprintf("%s in %s should be at least %d chars long", name, in, *n.minLength)})
			return
		}
	}
	if n.pattern != "" {
		pattern := n.pattern
		if re := n.regexp(); re == nil {
			pattern = n.pat.bad
		} else if re.MatchString(s) {
			return
		}
		name := p.String()
		res.add(&vErr{code: codePattern, name: name, value: s, hasVal: true,
			msg: fmt.Sprintf("%s in %s should match '%s'", name, in, pattern)})
	}
}

// validateEnum is kube-openapi's basicCommonValidator.
func validateEnum(n *node, data interface{}, p *vpath, res *result) {
	if len(n.enum) == 0 {
		return
	}
	if s, ok := data.(string); ok {
		// a string matches string values only: the set decides
		if _, found := n.en.set[s]; found {
			return
		}
	} else {
		for _, ev := range n.enum {
			if ev != nil && enumMatches(data, ev) {
				return
			}
		}
	}
	// The message ("<name> in body should be one of <enum>") is rendered
	// only when needed (vErr.message): it holds the whole enum.
	res.add(&vErr{code: codeEnum, name: p.String(), value: data, hasVal: true, enum: n})
}

// enumMatches is reflect's "convert data to the enum value's type, then
// DeepEqual", which kube-openapi uses.
func enumMatches(data, ev interface{}) bool {
	switch d := data.(type) {
	case nil:
		return false
	case string:
		e, ok := ev.(string)
		return ok && d == e
	case bool:
		e, ok := ev.(bool)
		return ok && d == e
	case int64:
		switch e := ev.(type) {
		case float64:
			return float64(d) == e
		case int64:
			return d == e
		case string:
			// integers convert to strings as the rune they encode
			s := "\uFFFD"
			if int64(rune(d)) == d {
				s = string(rune(d))
			}
			return s == e
		case bool, map[string]interface{}, []interface{}:
			return false
		}
	case float64:
		switch e := ev.(type) {
		case float64:
			return d == e
		case int64:
			// floats convert to integers by truncation
			return floatToInt64(d) == e
		case string, bool, map[string]interface{}, []interface{}:
			return false
		}
	case map[string]interface{}:
		if e, ok := ev.(map[string]interface{}); ok {
			return unstructured.Equal(d, e)
		}
		switch ev.(type) {
		case string, bool, float64, []interface{}:
			return false
		}
	case []interface{}:
		if e, ok := ev.([]interface{}); ok {
			return unstructured.Equal(d, e)
		}
		switch ev.(type) {
		case string, bool, float64, map[string]interface{}:
			return false
		}
	}
	dv := reflect.ValueOf(data)
	et := reflect.TypeOf(ev)
	if !dv.IsValid() || et == nil || !dv.Type().ConvertibleTo(et) {
		return false
	}
	return reflect.DeepEqual(dv.Convert(et).Interface(), ev)
}

// validateSlice is kube-openapi's schemaSliceValidator, without its own
// match count increment.
func validateSlice(n *node, arr []interface{}, p *vpath, c *corr, res *result) {
	size := len(arr)
	if n.items != nil {
		for i := 0; i < size; i++ {
			validateChild(n.items, arr[i], p, pathIndex, "", i, c.Index(i), res)
		}
	}
	itemsSize := 0
	if len(n.r().itemsTuple) > 0 {
		itemsSize = len(n.r().itemsTuple)
		for i := 0; i < itemsSize && i < size; i++ {
			validateChild(n.r().itemsTuple[i], arr[i], p, pathIndex, "", i, c.Index(i), res)
		}
	}
	if n.r().additionalItems != nil && itemsSize < size {
		if len(n.r().itemsTuple) > 0 && !n.r().additionalItems.allows {
			res.add(plainErr("array doesn't allow for additional items"))
		}
		if n.r().additionalItems.schema != nil {
			// upstream's loop bound (size-itemsSize+1) is kept; indexes past
			// the end, where upstream would panic, are skipped.
			for i := itemsSize; i < size-itemsSize+1 && i < size; i++ {
				validateChild(n.r().additionalItems.schema, arr[i], p, pathIndex, "", i, c.Index(i), res)
			}
		}
	}
	if n.minItems != nil && int64(size) < *n.minItems {
		name := p.String()
		res.add(&vErr{code: codeMinItems, name: name, value: int64(size), hasVal: true, valid: *n.minItems,
			msg: fmt.Sprintf("%s in %s should have at least %d items", name, in, *n.minItems)})
	}
	if n.maxItems != nil && int64(size) > *n.maxItems {
		name := p.String()
		res.add(&vErr{code: codeMaxItems, name: name, value: int64(size), hasVal: true, valid: *n.maxItems,
			msg: fmt.Sprintf("%s in %s should have at most %d items", name, in, *n.maxItems)})
	}
	if n.uniqueItems {
		for i := 1; i < size; i++ {
			dup := false
			for j := 0; j < i; j++ {
				if unstructured.Equal(arr[i], arr[j]) {
					dup = true
					break
				}
			}
			if dup {
				name := p.String()
				res.add(&vErr{code: codeUnique, name: name,
					msg: fmt.Sprintf("%s in %s shouldn't contain duplicates", name, in)})
				break
			}
		}
	}
}

// validateObject is kube-openapi's objectValidator (which adds no match
// count of its own).
func validateObject(n *node, m map[string]interface{}, p *vpath, c *corr, res *result) {
	numKeys := int64(len(m))
	if n.minProps != nil && numKeys < *n.minProps {
		name := p.String()
		res.add(&vErr{code: codeTooFewProperties, name: name, value: numKeys, hasVal: true, valid: *n.minProps,
			msg: fmt.Sprintf("%s in %s should have at least %d properties", name, in, *n.minProps)})
	}
	if n.maxProps != nil && numKeys > *n.maxProps {
		name := p.String()
		res.add(&vErr{code: codeTooManyProperties, name: name, value: numKeys, hasVal: true, valid: *n.maxProps,
			msg: fmt.Sprintf("%s in %s should have at most %d properties", name, in, *n.maxProps)})
	}

	var keys []string
	if n.additionalProps != nil && !n.additionalProps.allows {
		forEachKey(m, res, &keys, func(k string, _ interface{}) {
			if _, regular := n.props[k]; regular {
				return
			}
			if n.matchesPattern(k) {
				return
			}
			name := p.String()
			res.add(&vErr{code: codeUnallowedProperty, name: name, value: k, hasVal: true,
				msg: fmt.Sprintf("%s.%s in %s is a forbidden property", name, k, in)})
		})
	} else if len(n.r().patternProps) > 0 || (n.additionalProps != nil && n.additionalProps.schema != nil) {
		forEachKey(m, res, &keys, func(k string, v interface{}) {
			_, regular := n.props[k]
			matched := validatePatternProps(n, k, v, p, c, res)
			if !regular && !matched && n.additionalProps != nil && n.additionalProps.schema != nil {
				validateChild(n.additionalProps.schema, v, p, pathDot, k, 0, childCorr(c, p, k), res)
			}
		})
	}

	for _, name := range n.propNames {
		if v, ok := m[name]; ok {
			validateChild(n.props[name], v, p, pathProp, name, 0, childCorr(c, p, name), res)
		}
	}

	for _, k := range n.required {
		if _, ok := m[k]; !ok {
			name := p.String() + "." + k
			res.add(&vErr{code: codeRequired, name: name, msg: fmt.Sprintf("%s in %s is required", name, in)})
		}
	}

	if len(n.r().patternProps) > 0 {
		forEachKey(m, res, &keys, func(k string, v interface{}) {
			_, regular := n.props[k]
			matched := validatePatternProps(n, k, v, p, c, res)
			if !regular && matched {
				for i := range n.r().patternProps {
					pp := &n.r().patternProps[i]
					if pp.re != nil && pp.re.MatchString(k) {
						validateChild(pp.schema, v, p, pathDot, k, 0, childCorr(c, p, k), res)
					}
				}
			}
		})
	}
}

// forEachKey calls f for every entry of m in sorted key order, the order
// this package reports errors in. As f only appends to res, and the set of
// errors it appends does not depend on the order, entries are first visited
// in map order and only revisited sorted (after rolling res back) when that
// visit reported errors: valid objects are never sorted.
func forEachKey(m map[string]interface{}, res *result, sorted *[]string, f func(k string, v interface{})) {
	if *sorted == nil {
		start, match := len(res.errs), res.match
		for k, v := range m {
			f(k, v)
		}
		if len(res.errs) == start {
			return
		}
		for i := start; i < len(res.errs); i++ {
			res.errs[i] = nil
		}
		res.errs, res.match = res.errs[:start], match
		*sorted = keys.Sorted(m)
	}
	for _, k := range *sorted {
		f(k, m[k])
	}
}

func (n *node) matchesPattern(k string) bool {
	for i := range n.r().patternProps {
		if re := n.r().patternProps[i].re; re != nil && re.MatchString(k) {
			return true
		}
	}
	return false
}

// validatePatternProps is objectValidator.validatePatternProperty: the value
// is validated against every matching patternProperties schema.
func validatePatternProps(n *node, k string, v interface{}, p *vpath, c *corr, res *result) bool {
	matched := false
	for i := range n.r().patternProps {
		pp := &n.r().patternProps[i]
		if pp.re != nil && pp.re.MatchString(k) {
			matched = true
			validateChild(pp.schema, v, p, pathDot, k, 0, childCorr(c, p, k), res)
		}
	}
	return matched
}

// childCorr is the ratcheting validator's SubPropertyValidator: apiVersion
// and kind at the root are never ratcheted.
func childCorr(c *corr, p *vpath, k string) *corr {
	if c == nil || (len(p.segs) == 0 && (k == "kind" || k == "apiVersion")) {
		return nil
	}
	return c.Key(k)
}

// validateNumber is kube-openapi's numberValidator, without its own match
// count increment.
func validateNumber(n *node, val interface{}, p *vpath, res *result) {
	data := asFloat64(val)
	iv, isInt := asInt64(val)

	if e := rangeError(val, n.numType, n.numFormat, "Checked", p); e != nil {
		res.add(e)
	}

	if n.multipleOf != nil {
		f := *n.multipleOf
		if e := rangeError(f, n.numType, n.numFormat, "MultipleOf", p); e != nil {
			res.add(e)
			if e := multipleOfFloat(p, data, f); e != nil {
				res.add(e)
			}
		} else if isInt {
			if e := multipleOfInt(p, iv, floatToInt64(f)); e != nil {
				res.add(e)
			}
		} else if e := multipleOfFloat(p, data, f); e != nil {
			res.add(e)
		}
	}

	if n.minimum != nil {
		lim := *n.minimum
		if e := rangeError(lim, n.numType, n.numFormat, "Minimum boundary", p); e != nil {
			res.add(e)
			if data < lim || (n.exclMin && data <= lim) {
				res.add(boundErr(p, codeMin, n.exclMin, lim, data))
			}
		} else if isInt {
			l := floatToInt64(lim)
			if iv < l || (n.exclMin && iv <= l) {
				res.add(boundErr(p, codeMin, n.exclMin, l, iv))
			}
		} else if data < lim || (n.exclMin && data <= lim) {
			res.add(boundErr(p, codeMin, n.exclMin, lim, data))
		}
	}

	if n.maximum != nil {
		lim := *n.maximum
		if e := rangeError(lim, n.numType, n.numFormat, "Maximum boundary", p); e != nil {
			res.add(e)
			if data > lim || (n.exclMax && data >= lim) {
				res.add(boundErr(p, codeMax, n.exclMax, lim, data))
			}
		} else if isInt {
			l := floatToInt64(lim)
			if iv > l || (n.exclMax && iv >= l) {
				res.add(boundErr(p, codeMax, n.exclMax, l, iv))
			}
		} else if data > lim || (n.exclMax && data >= lim) {
			res.add(boundErr(p, codeMax, n.exclMax, lim, data))
		}
	}
}

func boundErr(p *vpath, code errCode, exclusive bool, limit, value interface{}) *vErr {
	var tmpl string
	switch {
	case code == codeMax && exclusive:
		tmpl = "%s in %s should be less than %v"
	case code == codeMax:
		tmpl = "%s in %s should be less than or equal to %v"
	case exclusive:
		tmpl = "%s in %s should be greater than %v"
	default:
		tmpl = "%s in %s should be greater than or equal to %v"
	}
	name := p.String()
	return &vErr{code: code, name: name, value: value, hasVal: true, msg: fmt.Sprintf(tmpl, name, in, limit)}
}

func multipleOfFloat(p *vpath, data, factor float64) *vErr {
	if factor <= 0 {
		return mustBePositive(p, factor)
	}
	var mult float64
	if factor < 1 {
		mult = 1 / factor * data
	} else {
		mult = data / factor
	}
	if !isFloat64AJSONInteger(mult) {
		name := p.String()
		return &vErr{code: codeMultipleOf, name: name, value: data, hasVal: true,
			msg: fmt.Sprintf("%s in %s should be a multiple of %v", name, in, factor)}
	}
	return nil
}

func multipleOfInt(p *vpath, data, factor int64) *vErr {
	if factor <= 0 {
		return mustBePositive(p, factor)
	}
	if (data/factor)*factor != data {
		name := p.String()
		return &vErr{code: codeMultipleOf, name: name, value: data, hasVal: true,
			msg: fmt.Sprintf("%s in %s should be a multiple of %v", name, in, factor)}
	}
	return nil
}

func mustBePositive(p *vpath, factor interface{}) *vErr {
	name := p.String()
	return &vErr{code: codeMultipleOfMustBePositive, name: name, value: factor, hasVal: true,
		msg: fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", name, factor)}
}

// rangeError is kube-openapi's IsValueValidAgainstRange: whether a number
// fits the type and format of the schema. Its errors are plain errors.
func rangeError(val interface{}, typeName, format, prefix string, p *vpath) *vErr {
	var rep string
	if i, ok := asInt64(val); ok {
		rep = strconv.FormatInt(i, 10)
	} else {
		rep = strconv.FormatFloat(asFloat64(val), 'f', -1, 64)
	}
	var err error
	switch typeName {
	case integerType:
		if format == "int32" {
			_, err = strconv.ParseInt(rep, 10, 32)
		} else {
			_, err = strconv.ParseInt(rep, 10, 64)
		}
	default:
		if format == "float" {
			_, err = strconv.ParseFloat(rep, 32)
		}
	}
	if err == nil {
		return nil
	}
	if format != "" {
		return plainErr(fmt.Sprintf("%s value must be of type %s with format %s in %s", prefix, typeName, format, p.String()))
	}
	return plainErr(fmt.Sprintf("%s value must be of type %s (default format) in %s", prefix, typeName, p.String()))
}

func asInt64(v interface{}) (int64, bool) {
	switch t := v.(type) {
	case int64:
		return t, true
	case int:
		return int64(t), true
	case int32:
		return int64(t), true
	}
	return 0, false
}

func asFloat64(v interface{}) float64 {
	switch t := v.(type) {
	case float64:
		return t
	case float32:
		return float64(t)
	case int64:
		return float64(t)
	case int:
		return float64(t)
	case int32:
		return float64(t)
	}
	return 0
}

// floatToInt64 is Go's int64(f) conversion as it behaves on amd64 (where
// kube-apiserver runs): out-of-range and NaN values become math.MinInt64.
func floatToInt64(f float64) int64 {
	if math.IsNaN(f) || f >= 9223372036854775808.0 || f < -9223372036854775808.0 {
		return math.MinInt64
	}
	return int64(f)
}

const maxJSONFloat = float64(1<<53 - 1)

// isFloat64AJSONInteger is go-openapi/swag's IsFloat64AJSONInteger.
func isFloat64AJSONInteger(f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) || f < -maxJSONFloat || f > maxJSONFloat {
		return false
	}
	rounded := math.Round(f)
	if f == rounded {
		return true
	}
	if rounded == 0 {
		return false
	}
	diff := math.Abs(f - rounded)
	if diff == 0 {
		return true
	}
	return diff < 1e-9*math.Abs(rounded)
}
