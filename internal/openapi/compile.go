package openapi

import (
	"encoding/json"
	"fmt"
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/schema"
	"github.com/crdlab/crdlab/internal/strfmt"
)

// JSON Schema type names, as kube-openapi spells them.
const (
	objectType  = "object"
	arrayType   = "array"
	stringType  = "string"
	integerType = "integer"
	numberType  = "number"
	booleanType = "boolean"
	nullType    = "null"
)

// Validator validates decoded JSON values against one compiled schema.
// It is immutable and safe for concurrent use.
type Validator struct {
	root    *node
	release kubeversion.Release
}

// node is one compiled schema: the subset of kube-openapi's spec.Schema that
// value validation reads, with everything that can be precomputed computed.
type node struct {
	types     []string
	typesJoin string
	nullable  bool
	format    string
	// fmtCheck is the format checker when the format is known to the
	// registry (kube-openapi's formatValidator applies only then).
	fmtCheck func(string) bool

	// number keywords
	numType, numFormat string
	multipleOf         *float64
	maximum, minimum   *float64
	exclMax, exclMin   bool

	// string keywords
	maxLength, minLength *int64
	pattern              string
	pat                  *nodePattern // set when pattern is

	// array keywords
	items       *node
	maxItems    *int64
	minItems    *int64
	uniqueItems bool

	// enum
	enum []interface{}
	en   *nodeEnum // set when enum is not empty

	// object keywords
	maxProps, minProps *int64
	required           []string
	props              map[string]*node
	propNames          []string // sorted
	additionalProps    *nodeOrBool

	// rare holds the keywords few schemas have (nil: none of them); read
	// it through r().
	rare *nodeRare

	// structural view, used to correlate old and new values when ratcheting
	structType  string
	listType    string
	listMapKeys []string
}

// nodeRare holds the keywords few nodes have: a node is allocated for
// every schema node of every served version, and keeping them out of it
// makes it half the size (648 bytes before, see RATIONALE.md).
type nodeRare struct {
	itemsTuple      []*node
	additionalItems *nodeOrBool
	patternProps    []patternProp // sorted by pattern
	deps            []dependency  // sorted by key

	// composition
	allOf, anyOf, oneOf []*node
	not                 *node
}

// noRare is the r() of a node without rare keywords: read only.
var noRare = &nodeRare{}

// r returns the node's rare keywords (empty ones when it has none).
func (n *node) r() *nodeRare {
	if n.rare == nil {
		return noRare
	}
	return n.rare
}

// w returns the node's rare keywords for writing, allocating them.
func (n *node) w() *nodeRare {
	if n.rare == nil {
		n.rare = &nodeRare{}
	}
	return n.rare
}

// nodePattern is a pattern's compiled state. The pattern is compiled on
// first use (regexp), as kube-openapi compiles it when a value is
// validated: a CRD compile builds nodes for every schema (served
// versions, each default's schema) whose patterns most runs never reach.
type nodePattern struct {
	once     sync.Once
	patterns *Patterns // the compile's cache, until the pattern is compiled
	re       *regexp.Regexp
	bad      string // "<pattern>, but pattern is invalid: <err>" when it does not compile
}

// nodeEnum is what validation needs of a non-empty enum.
type nodeEnum struct {
	text    string   // fmt "%v" of enum, as kube-openapi's message prints it
	strings []string // the values as field.NotSupported lists them
	// set holds the string values of enum: a string matches the enum
	// exactly when it is in the set (enumMatches compares strings only with
	// strings), so a value is checked in constant time.
	set map[string]struct{}
	// detail is field.NotSupported's detail for strings, rendered once (a
	// 100,000-value enum renders to megabytes).
	detailOnce sync.Once
	detail     string
}

type nodeOrBool struct {
	allows bool
	schema *node
}

type patternProp struct {
	pattern string
	re      *regexp.Regexp // nil when the pattern does not compile (never matches)
	schema  *node
}

type dependency struct {
	key      string
	schema   *node
	property []string
}

// NewSchemaValidator compiles a CRD version's openAPIV3Schema for custom
// resource validation, as upstream's validation.NewSchemaValidator does:
// formats unsupported at the default compatibility version are stripped
// (StripUnsupportedFormatsPostProcessorForVersion), x-kubernetes-int-or-string
// becomes type [integer, string]. A nil schema validates everything.
func NewSchemaValidator(s *crd.JSONSchemaProps, patterns *Patterns) (*Validator, error) {
	return NewSchemaValidatorAt(s, patterns, kubeversion.Release{})
}

// NewSchemaValidatorAt is NewSchemaValidator as Kubernetes release rel
// compiles it (before 1.36: only string formats are kept, and numbers are
// not range-checked against their type and format).
func NewSchemaValidatorAt(s *crd.JSONSchemaProps, patterns *Patterns, rel kubeversion.Release) (*Validator, error) {
	if s == nil {
		return &Validator{root: &node{}}, nil
	}
	n, err := (&compiler{patterns: patterns, release: rel}).fromProps(s)
	if err != nil {
		return nil, err
	}
	return &Validator{root: n, release: rel}, nil
}

// NewValidatorFromStructural compiles a structural schema the way upstream's
// defaulting validation does (s.ToKubeOpenAPI() then validate.NewSchemaValidator):
// formats are kept as written, int-or-string nodes carry no type.
func NewValidatorFromStructural(s *schema.Structural, patterns *Patterns) *Validator {
	return NewValidatorFromStructuralAt(s, patterns, kubeversion.Release{})
}

// NewValidatorFromStructuralAt is NewValidatorFromStructural as Kubernetes
// release rel compiles it.
func NewValidatorFromStructuralAt(s *schema.Structural, patterns *Patterns, rel kubeversion.Release) *Validator {
	return &Validator{root: (&compiler{patterns: patterns, release: rel}).fromStructural(s), release: rel}
}

// schemaSeg is one level of the path of the schema being compiled below
// openAPIV3Schema: "." + sub, then "[key]" for a keyed level or "[index]"
// for an indexed one. The compiler keeps the levels on a stack and spells
// the path out only for an error.
type schemaSeg struct {
	sub   string
	key   string
	keyed bool
	index int // -1 when not indexed
}

// path is the current schema's path below openAPIV3Schema.
func (cp *compiler) path() string {
	s := ""
	for _, seg := range cp.segs {
		s += "." + seg.sub
		switch {
		case seg.keyed:
			s += "[" + seg.key + "]"
		case seg.index >= 0:
			s += "[" + strconv.Itoa(seg.index) + "]"
		}
	}
	return s
}

// child compiles the sub-schema s at seg unless an error came first
// (then, or for a nil s, it is nil).
func (cp *compiler) child(s *crd.JSONSchemaProps, seg schemaSeg, err *error) *node {
	if *err != nil || s == nil {
		return nil
	}
	cp.segs = append(cp.segs, seg)
	c, e := cp.fromProps(s)
	cp.segs = cp.segs[:len(cp.segs)-1]
	*err = e
	return c
}

// children compiles the schemas of a list keyword.
func (cp *compiler) children(l []crd.JSONSchemaProps, kw string, err *error) []*node {
	var out []*node
	for i := range l {
		out = append(out, cp.child(&l[i], schemaSeg{sub: kw, index: i}, err))
	}
	return out
}

func (cp *compiler) fromProps(in *crd.JSONSchemaProps) (*node, error) {
	if in.Ref != nil {
		return nil, fmt.Errorf("%s: schema references not supported: %s", orRoot(cp.path()), *in.Ref)
	}
	n := &node{}
	if in.Type != "" {
		n.types = []string{in.Type}
	}
	if in.XIntOrString {
		n.types = []string{integerType, stringType}
	}
	n.nullable = in.Nullable
	n.format = in.Format
	n.maximum, n.exclMax = in.Maximum, in.ExclusiveMaximum
	n.minimum, n.exclMin = in.Minimum, in.ExclusiveMinimum
	n.maxLength, n.minLength = in.MaxLength, in.MinLength
	n.pattern = in.Pattern
	n.maxItems, n.minItems = in.MaxItems, in.MinItems
	n.uniqueItems = in.UniqueItems
	n.multipleOf = in.MultipleOf
	n.maxProps, n.minProps = in.MaxProperties, in.MinProperties
	n.required = in.Required
	if in.Enum != nil {
		n.enum = make([]interface{}, len(in.Enum))
		for i := range in.Enum {
			v, err := enumValue(&in.Enum[i])
			if err != nil {
				return nil, fmt.Errorf("%s.enum[%d]: %v", orRoot(cp.path()), i, err)
			}
			n.enum[i] = v
		}
	}
	var err error
	if len(in.AllOf) > 0 || len(in.OneOf) > 0 || len(in.AnyOf) > 0 || in.Not != nil {
		x := n.w()
		x.allOf = cp.children(in.AllOf, "allOf", &err)
		x.oneOf = cp.children(in.OneOf, "oneOf", &err)
		x.anyOf = cp.children(in.AnyOf, "anyOf", &err)
		x.not = cp.child(in.Not, schemaSeg{sub: "not", index: -1}, &err)
	}
	if in.Properties != nil {
		n.props = make(map[string]*node, len(in.Properties))
		var p crd.JSONSchemaProps // each property's copy in turn: nodes keep no pointer into it
		for _, k := range keys.Sorted(in.Properties) {
			p = in.Properties[k]
			n.props[k] = cp.child(&p, schemaSeg{sub: "properties", key: k, keyed: true}, &err)
		}
	}
	for _, k := range keys.Sorted(in.PatternProperties) {
		p := in.PatternProperties[k]
		n.w().patternProps = append(n.w().patternProps, patternProp{pattern: k, schema: cp.child(&p, schemaSeg{sub: "patternProperties", key: k, keyed: true}, &err)})
	}
	if in.AdditionalProperties != nil {
		n.additionalProps = &nodeOrBool{allows: in.AdditionalProperties.Allows, schema: cp.child(in.AdditionalProperties.Schema, schemaSeg{sub: "additionalProperties", index: -1}, &err)}
	}
	if in.AdditionalItems != nil {
		n.w().additionalItems = &nodeOrBool{allows: in.AdditionalItems.Allows, schema: cp.child(in.AdditionalItems.Schema, schemaSeg{sub: "additionalItems", index: -1}, &err)}
	}
	if in.Items != nil {
		n.items = cp.child(in.Items.Schema, schemaSeg{sub: "items", index: -1}, &err)
		if in.Items.JSONSchemas != nil {
			n.w().itemsTuple = cp.children(in.Items.JSONSchemas, "items", &err)
		}
	}
	if in.Dependencies != nil {
		keys := keys.Sorted(in.Dependencies)
		for _, k := range keys {
			d := in.Dependencies[k]
			n.w().deps = append(n.w().deps, dependency{key: k, schema: cp.child(d.Schema, schemaSeg{sub: "dependencies", key: k, keyed: true}, &err), property: d.Property})
		}
	}
	if err != nil {
		return nil, err
	}
	// the post-process step runs on the converted node, after its children
	n.format = stripUnsupportedFormat(n.types, n.format, cp.release)
	n.structType = in.Type
	if in.XListType != nil {
		n.listType = *in.XListType
	}
	n.listMapKeys = in.XListMapKeys
	n.finish(cp)
	return n, nil
}

func orRoot(p string) string {
	if p == "" {
		return "openAPIV3Schema"
	}
	return "openAPIV3Schema" + p
}

// fromStructural compiles s (nil: the empty node, which accepts anything).
func (cp *compiler) fromStructural(s *schema.Structural) *node {
	n := &node{}
	if s == nil {
		return n
	}
	if s.Items != nil {
		n.items = cp.fromStructural(s.Items)
	}
	if s.Properties != nil {
		n.props = make(map[string]*node, len(s.Properties))
		for k := range s.Properties {
			p := s.Properties[k]
			n.props[k] = cp.fromStructural(&p)
		}
	}
	if s.AdditionalProperties != nil {
		n.additionalProps = &nodeOrBool{allows: s.AdditionalProperties.Bool}
		if s.AdditionalProperties.Structural != nil {
			n.additionalProps.schema = cp.fromStructural(s.AdditionalProperties.Structural)
		}
	}
	applyGeneric(n, &s.Generic)
	if s.ValueValidation != nil {
		cp.applyValueValidation(n, s.ValueValidation)
	}
	n.structType = s.Type
	if s.XListType != nil {
		n.listType = *s.XListType
	}
	n.listMapKeys = s.XListMapKeys
	n.finish(cp)
	return n
}

func applyGeneric(n *node, g *schema.Generic) {
	if g.Type != "" {
		n.types = []string{g.Type}
	}
	n.nullable = g.Nullable
}

func (cp *compiler) applyValueValidation(n *node, v *schema.ValueValidation) {
	n.format = v.Format
	n.maximum, n.exclMax = v.Maximum, v.ExclusiveMaximum
	n.minimum, n.exclMin = v.Minimum, v.ExclusiveMinimum
	n.maxLength, n.minLength = v.MaxLength, v.MinLength
	n.pattern = v.Pattern
	n.maxItems, n.minItems = v.MaxItems, v.MinItems
	n.uniqueItems = v.UniqueItems
	n.multipleOf = v.MultipleOf
	if v.Enum != nil {
		n.enum = make([]interface{}, 0, len(v.Enum))
		for i := range v.Enum {
			n.enum = append(n.enum, v.Enum[i].Object)
		}
	}
	n.maxProps, n.minProps = v.MaxProperties, v.MinProperties
	n.required = v.Required
	for i := range v.AllOf {
		n.w().allOf = append(n.w().allOf, cp.fromNested(&v.AllOf[i]))
	}
	for i := range v.AnyOf {
		n.w().anyOf = append(n.w().anyOf, cp.fromNested(&v.AnyOf[i]))
	}
	for i := range v.OneOf {
		n.w().oneOf = append(n.w().oneOf, cp.fromNested(&v.OneOf[i]))
	}
	if v.Not != nil {
		n.w().not = cp.fromNested(v.Not)
	}
}

func (cp *compiler) fromNested(v *schema.NestedValueValidation) *node {
	n := &node{}
	cp.applyValueValidation(n, &v.ValueValidation)
	if v.Items != nil {
		n.items = cp.fromNested(v.Items)
	}
	if v.Properties != nil {
		n.props = make(map[string]*node, len(v.Properties))
		for k := range v.Properties {
			p := v.Properties[k]
			n.props[k] = cp.fromNested(&p)
		}
	}
	// upstream copies the (normally empty) forbidden generics: the
	// int-or-string anyOf/allOf idiom carries types there.
	applyGeneric(n, &v.ForbiddenGenerics)
	n.finish(cp)
	return n
}

// finish precomputes what validation needs from the keywords.
func (n *node) finish(cp *compiler) {
	n.typesJoin = strings.Join(n.types, ",")
	n.fmtCheck = strfmt.Lookup(n.format)
	// Before 1.36 kube-openapi's number validator is given neither type nor
	// format: every number passes its range check.
	if len(n.types) == 1 && cp.release.Has(kubeversion.NumericFormats) {
		switch n.types[0] {
		case integerType:
			n.numType = integerType
			if n.format == "int32" || n.format == "int64" {
				n.numFormat = n.format
			}
		case numberType:
			n.numType = numberType
			if n.format == "float" || n.format == "double" {
				n.numFormat = n.format
			}
		}
	}
	if n.pattern != "" {
		n.pat = &nodePattern{patterns: cp.patterns}
	}
	if n.rare != nil {
		for i := range n.rare.patternProps {
			if re, err := cp.patterns.compile(n.rare.patternProps[i].pattern); err == nil {
				n.rare.patternProps[i].re = re
			}
		}
	}
	if len(n.enum) > 0 {
		en := &nodeEnum{text: fmt.Sprintf("%v", n.enum), strings: make([]string, 0, len(n.enum)), set: make(map[string]struct{})}
		for _, v := range n.enum {
			if s, ok := v.(string); ok {
				en.set[s] = struct{}{}
				en.strings = append(en.strings, s)
			} else {
				b, _ := json.Marshal(v)
				en.strings = append(en.strings, string(b))
			}
		}
		n.en = en
	}
	if n.props != nil {
		n.propNames = make([]string, 0, len(n.props))
		for k := range n.props {
			n.propNames = append(n.propNames, k)
		}
		sort.Strings(n.propNames)
	}
}

func (n *node) hasType(t string) bool {
	for _, s := range n.types {
		if s == t {
			return true
		}
	}
	return false
}

// compiler carries what one compilation of a schema shares between its
// nodes.
type compiler struct {
	patterns *Patterns // nil: every pattern is compiled
	release  kubeversion.Release

	segs []schemaSeg // the path of the schema being compiled (fromProps)
}

// Patterns memoizes compiled schema patterns. A node compiles its pattern
// when a value first reaches it (node.regexp), through the Patterns of the
// compile that built it: the validators of every served version and of
// every default share one compilation per pattern. engine.CompileCRD
// creates one Patterns per compile (or a CompileShare's), so that nothing
// outlives the compile's validators (no process-wide cache); it holds at
// most the CRD's patterns. It is safe for concurrent use; a nil *Patterns
// compiles every pattern.
type Patterns struct {
	mu sync.Mutex
	m  map[string]*regexp.Regexp
}

// NewPatterns returns an empty pattern cache.
func NewPatterns() *Patterns { return &Patterns{m: map[string]*regexp.Regexp{}} }

// compile compiles a schema pattern, reusing an earlier compilation of the
// same pattern. A *regexp.Regexp is safe for concurrent use.
func (p *Patterns) compile(pattern string) (*regexp.Regexp, error) {
	if p == nil {
		return regexp.Compile(pattern)
	}
	p.mu.Lock()
	re, ok := p.m[pattern]
	p.mu.Unlock()
	if ok {
		return re, nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.m[pattern] = re
	p.mu.Unlock()
	return re, nil
}

// regexp returns the node's compiled pattern, nil when it does not compile
// (pat.bad then says why).
func (n *node) regexp() *regexp.Regexp {
	pt := n.pat
	pt.once.Do(func() {
		re, err := pt.patterns.compile(n.pattern)
		if err != nil {
			pt.bad = fmt.Sprintf("%s, but pattern is invalid: %s", n.pattern, err.Error())
		} else {
			pt.re = re
		}
		pt.patterns = nil
	})
	return pt.re
}

// enumValue is j.Value(), with a shortcut for the common case of a plain
// JSON string (no escapes, valid UTF-8): enums can hold a million values.
func enumValue(j *crd.JSON) (interface{}, error) {
	raw := j.Raw
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' {
		body := raw[1 : n-1]
		plain := utf8.Valid(body)
		for _, c := range body {
			if c < 0x20 || c == '"' || c == '\\' {
				plain = false
				break
			}
		}
		if plain {
			return string(body), nil
		}
	}
	return j.Value()
}
