package engine

import (
	"strconv"
	"strings"
	"sync"

	"github.com/crdlab/crdlab/internal/position"
)

// Position is a place in the document given to Compile or Validate: a
// 1-based line and column (in characters). The zero Position means unknown.
type Position struct {
	Line, Column int
}

// Known reports whether p is a position.
func (p Position) Known() bool { return p.Line > 0 }

// Positions holds the source positions of a result's errors and warnings,
// index for index, and of its decoding error. A map entry's position is
// its key's, a list item's the item's; a field that is not in the document
// (a Required error, say) has the position of its nearest existing
// ancestor. A warning that names no field (and everything, when there is
// no source) has the zero Position.
type Positions struct {
	Errors   []Position
	Warnings []Position
	// DecodeError is the position of the first field a strict-decoding
	// error names (an unknown or duplicate field).
	DecodeError Position
}

// Positions returns the source positions of r's errors and warnings.
// Validation does not compute them: this parses the object once more, so
// call it only when there is something to point at.
func (r *Result) Positions() Positions {
	p := Positions{Errors: make([]Position, len(r.Errors)), Warnings: make([]Position, len(r.Warnings))}
	if len(r.Errors) == 0 && !namesField(r.DecodeError) && !anyNamesField(r.Warnings) {
		// Nothing to point at: do not parse. This also keeps a document
		// the decoder rejected for its nesting depth away from
		// goyaml.v3's recursive parser (the wasm module's call stack is
		// the JavaScript engine's; issue 16).
		return p
	}
	t := position.Parse(r.src)
	if t == nil {
		return p
	}
	for i, e := range r.Errors {
		p.Errors[i] = find(t, e.Field)
	}
	for i, w := range r.Warnings {
		p.Warnings[i] = findQuoted(t, w)
	}
	p.DecodeError = findQuoted(t, r.DecodeError)
	return p
}

// crdPositions is computed once per CRD, on first use.
type crdPositions struct {
	once sync.Once
	p    Positions
}

// Positions returns the source positions of c's errors and warnings: none
// for a CRD built by CompileCRD (there is no source). Errors about the
// internal view's hoisted fields (spec.validation, spec.subresources,
// spec.additionalPrinterColumns, spec.version) point where the v1 document
// holds them: in the first version that has them.
func (c *CRD) Positions() Positions {
	c.pos.once.Do(func() {
		p := Positions{Errors: make([]Position, len(c.errs)), Warnings: make([]Position, len(c.warnings))}
		if c.src != nil && (len(c.errs) > 0 || anyNamesField(c.warnings)) {
			if t := position.Parse(c.src); t != nil {
				// a kind: List of one CRD (Compile accepts it)
				prefix := ""
				if _, ok := t.Find("spec"); !ok {
					if _, ok := t.Find("items[0].spec"); ok {
						prefix = "items[0]."
					}
				}
				for i, e := range c.errs {
					p.Errors[i] = find(t, prefix+c.v1Path(e.Field))
				}
				for i, w := range c.warnings {
					p.Warnings[i] = findQuoted(t, w)
				}
			}
		}
		c.pos.p = p
	})
	return c.pos.p
}

func find(t *position.Tree, path string) Position {
	p, _ := t.Find(path)
	return Position(p)
}

// namesField reports whether msg names a field findQuoted can point at.
func namesField(msg string) bool { return len(position.Quoted(msg)) > 0 }

func anyNamesField(msgs []string) bool {
	for _, m := range msgs {
		if namesField(m) {
			return true
		}
	}
	return false
}

// findQuoted returns the position of the first field msg names, if any.
func findQuoted(t *position.Tree, msg string) Position {
	if paths := position.Quoted(msg); len(paths) > 0 {
		return find(t, paths[0])
	}
	return Position{}
}

// v1Path maps a path of the internal view CRD validation works on back to
// the v1 document: hoisted per-version fields live in the first version
// that has them.
func (c *CRD) v1Path(path string) string {
	vs := c.def.Spec.Versions
	first := func(has func(i int) bool) int {
		for i := range vs {
			if has(i) {
				return i
			}
		}
		return 0
	}
	for _, h := range []struct {
		from, to string
		has      func(i int) bool
	}{
		{"spec.validation", "schema", func(i int) bool { return vs[i].Schema != nil }},
		{"spec.subresources", "subresources", func(i int) bool { return vs[i].Subresources != nil }},
		{"spec.additionalPrinterColumns", "additionalPrinterColumns", func(i int) bool { return vs[i].AdditionalPrinterColumns != nil }},
		{"spec.version", "name", func(int) bool { return true }},
	} {
		rest, ok := strings.CutPrefix(path, h.from)
		if ok && (rest == "" || rest[0] == '.' || rest[0] == '[') {
			return "spec.versions[" + strconv.Itoa(first(h.has)) + "]." + h.to + rest
		}
	}
	return path
}
