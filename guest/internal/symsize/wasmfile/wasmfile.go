// Package wasmfile reads just enough of a WebAssembly binary (the module
// format of the WebAssembly core specification, version 1) to attribute its
// size: section sizes, and the body size and name of every function (from
// the code section and the "name" custom section). Malformed input is an
// error, never a panic.
package wasmfile

import (
	"errors"
	"fmt"
	"strings"
)

// Section is one section of the module.
type Section struct {
	// Name is the section's kind ("code", "data", ...) or, for a custom
	// section, "custom:" and its name.
	Name string
	// Size is the section's payload size in bytes.
	Size int
}

// Func is one function defined by the module (imports excluded).
type Func struct {
	Name string // from the name section; "func[N]" when absent
	Size int    // body size in bytes
}

// Module is what Parse extracts.
type Module struct {
	Sections []Section
	Funcs    []Func
}

var sectionNames = map[byte]string{
	1: "type", 2: "import", 3: "function", 4: "table", 5: "memory", 6: "global",
	7: "export", 8: "start", 9: "element", 10: "code", 11: "data", 12: "datacount",
}

type reader struct {
	b   []byte
	off int
}

var errShort = errors.New("unexpected end of module")

func (r *reader) byte() (byte, error) {
	if r.off >= len(r.b) {
		return 0, errShort
	}
	c := r.b[r.off]
	r.off++
	return c, nil
}

func (r *reader) uleb() (uint32, error) {
	var v uint32
	for shift := 0; shift < 35; shift += 7 {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		v |= uint32(c&0x7f) << shift
		if c&0x80 == 0 {
			return v, nil
		}
	}
	return 0, fmt.Errorf("LEB128 number too long at offset %d", r.off)
}

func (r *reader) bytes(n uint32) ([]byte, error) {
	if uint64(r.off)+uint64(n) > uint64(len(r.b)) {
		return nil, errShort
	}
	s := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	return s, nil
}

func (r *reader) name() (string, error) {
	n, err := r.uleb()
	if err != nil {
		return "", err
	}
	b, err := r.bytes(n)
	return string(b), err
}

// Parse reads a module.
func Parse(b []byte) (*Module, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly module (bad magic)")
	}
	if b[4] != 1 || b[5] != 0 || b[6] != 0 || b[7] != 0 {
		return nil, fmt.Errorf("unsupported WebAssembly version % x", b[4:8])
	}
	r := &reader{b: b, off: 8}
	m := &Module{}
	var importedFuncs uint32
	var bodies []int
	names := map[uint32]string{}
	for r.off < len(b) {
		id, err := r.byte()
		if err != nil {
			return nil, err
		}
		size, err := r.uleb()
		if err != nil {
			return nil, err
		}
		payload, err := r.bytes(size)
		if err != nil {
			return nil, fmt.Errorf("section %d: %w", id, err)
		}
		s := &reader{b: payload}
		name, ok := sectionNames[id]
		switch {
		case id == 0:
			cn, err := s.name()
			if err != nil {
				return nil, fmt.Errorf("custom section: %w", err)
			}
			name = "custom:" + cn
			if cn == "name" {
				if err := readNames(s, names); err != nil {
					return nil, fmt.Errorf("name section: %w", err)
				}
			}
		case !ok:
			return nil, fmt.Errorf("unknown section id %d", id)
		case id == 2:
			if importedFuncs, err = countImportedFuncs(s); err != nil {
				return nil, fmt.Errorf("import section: %w", err)
			}
		case id == 10:
			if bodies, err = readBodies(s); err != nil {
				return nil, fmt.Errorf("code section: %w", err)
			}
		}
		m.Sections = append(m.Sections, Section{Name: name, Size: int(size)})
	}
	for i, n := range bodies {
		fn, ok := names[importedFuncs+uint32(i)]
		if !ok {
			fn = fmt.Sprintf("func[%d]", importedFuncs+uint32(i))
		}
		m.Funcs = append(m.Funcs, Func{Name: fn, Size: n})
	}
	if len(names) == 0 {
		m.Funcs = nil
	}
	return m, nil
}

func countImportedFuncs(s *reader) (uint32, error) {
	n, err := s.uleb()
	if err != nil {
		return 0, err
	}
	var funcs uint32
	for i := uint32(0); i < n; i++ {
		if _, err := s.name(); err != nil {
			return 0, err
		}
		if _, err := s.name(); err != nil {
			return 0, err
		}
		kind, err := s.byte()
		if err != nil {
			return 0, err
		}
		switch kind {
		case 0: // function: type index
			funcs++
			_, err = s.uleb()
		case 1: // table: reference type, limits
			if _, err = s.byte(); err == nil {
				err = skipLimits(s)
			}
		case 2: // memory: limits
			err = skipLimits(s)
		case 3: // global: value type, mutability
			if _, err = s.byte(); err == nil {
				_, err = s.byte()
			}
		default:
			return 0, fmt.Errorf("unknown import kind %d", kind)
		}
		if err != nil {
			return 0, err
		}
	}
	return funcs, nil
}

func skipLimits(s *reader) error {
	flag, err := s.byte()
	if err != nil {
		return err
	}
	if _, err := s.uleb(); err != nil {
		return err
	}
	if flag&1 != 0 {
		_, err = s.uleb()
	}
	return err
}

func readBodies(s *reader) ([]int, error) {
	n, err := s.uleb()
	if err != nil {
		return nil, err
	}
	if int(n) > len(s.b) {
		return nil, fmt.Errorf("%d bodies in %d bytes", n, len(s.b))
	}
	out := make([]int, 0, n)
	for i := uint32(0); i < n; i++ {
		size, err := s.uleb()
		if err != nil {
			return nil, err
		}
		if _, err := s.bytes(size); err != nil {
			return nil, err
		}
		out = append(out, int(size))
	}
	return out, nil
}

// readNames reads the function names subsection (id 1) of a name section.
func readNames(s *reader, names map[uint32]string) error {
	for s.off < len(s.b) {
		id, err := s.byte()
		if err != nil {
			return err
		}
		size, err := s.uleb()
		if err != nil {
			return err
		}
		sub, err := s.bytes(size)
		if err != nil {
			return err
		}
		if id != 1 {
			continue
		}
		r := &reader{b: sub}
		n, err := r.uleb()
		if err != nil {
			return err
		}
		for i := uint32(0); i < n; i++ {
			idx, err := r.uleb()
			if err != nil {
				return err
			}
			name, err := r.name()
			if err != nil {
				return err
			}
			names[idx] = name
		}
	}
	return nil
}

// Mangle returns a package path as Go's wasm linker writes it in function
// names: every character other than a letter, digit or '.' becomes '_'
// ("github.com/google/cel-go/cel" → "github.com_google_cel_go_cel").
func Mangle(pkg string) string {
	return strings.Map(func(r rune) rune {
		if r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, pkg)
}

// Packages maps mangled package paths to real ones.
type Packages map[string]string

// NewPackages indexes import paths by their mangled form.
func NewPackages(paths []string) Packages {
	p := Packages{}
	for _, path := range paths {
		p[Mangle(path)] = path
	}
	return p
}

// Package returns the Go package of a function name of Go's wasm linker,
// e.g. "github.com/google/cel-go/parser" for
// "github.com_google_cel_go_parser.__parser_.Visit": the longest known
// package whose mangled path prefixes the name, else the mangled prefix
// up to the first '.' after the domain.
func (p Packages) Package(sym string) string {
	sym = strings.TrimPrefix(sym, "type_.eq.")
	best := ""
	for i := 0; i < len(sym); i++ {
		if sym[i] != '.' {
			continue
		}
		if real, ok := p[sym[:i]]; ok && i > len(best) {
			best = real
		}
	}
	if best != "" {
		return best
	}
	start := 0
	if u := strings.IndexByte(sym, '_'); u >= 0 && strings.Contains(sym[:u], ".") {
		start = u
	}
	if d := strings.IndexByte(sym[start:], '.'); d >= 0 {
		return sym[:start+d]
	}
	return sym
}

// Group returns the module-level group of a package: "std" for the
// standard library, else the first three path elements for github.com and
// golang.org/x paths and the first two for others.
func Group(pkg string) string {
	parts := strings.Split(pkg, "/")
	if !strings.Contains(parts[0], ".") {
		return "std"
	}
	n := 2
	if parts[0] == "github.com" || parts[0] == "golang.org" {
		n = 3
	}
	if parts[0] == "github.com" && len(parts) > 3 && parts[1] == "crdlab" {
		n = 4
	}
	if len(parts) < n {
		n = len(parts)
	}
	return strings.Join(parts[:n], "/")
}
