// Package field holds field paths and field errors, rendered exactly as
// k8s.io/apimachinery/pkg/util/validation/field renders them, so that crdlab's
// messages are byte-for-byte those of kube-apiserver.
//
// Before Kubernetes 1.34 upstream printed non-scalar bad values in Go
// syntax (fmt's %#v): ErrorList.WithGoSyntaxValues gives the errors of
// such a release (package engine calls it once, at the end of a compile or
// a validation), and gosyntax.go prints values as %#v would, with
// upstream's type names (GoTypeNamer) and mirrors of upstream's layouts
// (GoSyntaxer; internal/crdvalidation's gosyntax.go has the CRD's).
package field

import (
	"strconv"
	"strings"
)

// Path is a field path: a chain of names and subscripts from a root.
// The zero-parent element is the root. Paths are immutable: Child, Index and
// Key return new paths that share their parent.
type Path struct {
	name   string // the field name, or "" when this element is a subscript
	index  string // the subscript (list index or map key) when name is ""
	parent *Path
}

// NewPath creates a root path with the given names appended.
func NewPath(name string, moreNames ...string) *Path {
	r := &Path{name: name}
	for _, n := range moreNames {
		r = &Path{name: n, parent: r}
	}
	return r
}

// Root returns the root element of the path.
func (p *Path) Root() *Path {
	for p.parent != nil {
		p = p.parent
	}
	return p
}

// Child returns a path to the named child field(s).
func (p *Path) Child(name string, moreNames ...string) *Path {
	r := &Path{name: name, parent: p}
	for _, n := range moreNames {
		r = &Path{name: n, parent: r}
	}
	return r
}

// Index returns a path to a list element.
func (p *Path) Index(index int) *Path {
	return &Path{index: strconv.Itoa(index), parent: p}
}

// Key returns a path to a map entry.
func (p *Path) Key(key string) *Path {
	return &Path{index: key, parent: p}
}

// String renders the path as upstream does: names joined by dots, subscripts
// in brackets (`spec.containers[0].env[FOO]`). A nil path renders as "<nil>".
func (p *Path) String() string {
	if p == nil {
		return "<nil>"
	}
	n := 0
	for q := p; q != nil; q = q.parent {
		n++
	}
	elems := make([]*Path, n)
	for q := p; q != nil; q = q.parent {
		n--
		elems[n] = q
	}
	var b strings.Builder
	for _, e := range elems {
		if e.parent != nil && e.name != "" {
			b.WriteByte('.')
		}
		if e.name != "" {
			b.WriteString(e.name)
		} else {
			b.WriteByte('[')
			b.WriteString(e.index)
			b.WriteByte(']')
		}
	}
	return b.String()
}
