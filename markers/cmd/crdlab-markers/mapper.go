package main

import (
	"go/ast"
	"go/token"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/packages"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/crdlab/crdlab/internal/cel"
)

// mapper maps CRD field paths back to the Go declarations and the
// kubebuilder markers that generated them. controller-tools keeps no
// source positions in the schema it generates: the map follows the
// schema's path through the Go types (properties by JSON name, embedded
// and inline structs, pointers, slices and maps), and finds the markers
// in the comments above each field and type.
type mapper struct {
	roots []*loader.Package
	col   *markers.Collector
	lines map[string][]string // file → its lines
}

func newMapper(roots []*loader.Package, col *markers.Collector) *mapper {
	return &mapper{roots: roots, col: col, lines: map[string][]string{}}
}

// typeDecl is a named Go type.
type typeDecl struct {
	pkg  *loader.Package
	file *ast.File
	spec *ast.TypeSpec
	decl *ast.GenDecl
}

// goNode is the Go side of a schema node: the field it came from (nil
// at the root or for list items) and the type expression of its values.
type goNode struct {
	pkg   *loader.Package
	file  *ast.File
	field *ast.Field // the field whose markers apply to this node
	expr  ast.Expr
}

// markerLine is one `// +name...` comment line.
type markerLine struct {
	file string
	line int
	col  int    // 1-based byte column of the '+'
	text string // after the '+'
	end  int    // 1-based byte column after the line's last byte
}

func (m *mapper) fileLines(name string) []string {
	if ls, ok := m.lines[name]; ok {
		return ls
	}
	data, err := os.ReadFile(name)
	var ls []string
	if err == nil {
		ls = strings.Split(string(data), "\n")
	}
	m.lines[name] = ls
	return ls
}

func (m *mapper) lineText(file string, line int) string {
	ls := m.fileLines(file)
	if line < 1 || line > len(ls) {
		return ""
	}
	return strings.TrimSuffix(ls[line-1], "\r")
}

// markersAbove returns the marker lines of the comments directly above
// line (the doc comment and the comment groups before it, up to the
// previous code line), in source order.
func (m *mapper) markersAbove(file string, line int) []markerLine {
	var out []markerLine
	for l := line - 1; l >= 1; l-- {
		text := m.lineText(file, l)
		t := strings.TrimSpace(text)
		if t == "" {
			continue
		}
		if !strings.HasPrefix(t, "//") {
			break
		}
		c := strings.TrimSpace(strings.TrimPrefix(t, "//"))
		if !strings.HasPrefix(c, "+") {
			continue
		}
		col := strings.Index(text, "+") + 1
		out = append(out, markerLine{file: file, line: l, col: col, text: text[col:], end: len(text) + 1})
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func (m *mapper) pos(pkg *loader.Package, p token.Pos) token.Position {
	return pkg.Fset.Position(p)
}

// declLine is the position of a type's name.
func (m *mapper) declPos(d *typeDecl) token.Position { return m.pos(d.pkg, d.spec.Name.Pos()) }

// typeMarkers are the markers of a named type (above `type X` or, in a
// type ( ... ) block, above its spec).
func (m *mapper) typeMarkers(d *typeDecl) []markerLine {
	p := m.declPos(d)
	if d.decl != nil && !d.decl.Lparen.IsValid() {
		p = m.pos(d.pkg, d.decl.Pos())
	}
	return m.markersAbove(p.Filename, p.Line)
}

// fieldMarkers are the markers above a field.
func (m *mapper) fieldMarkers(n goNode) []markerLine {
	if n.field == nil {
		return nil
	}
	p := m.pos(n.pkg, n.field.Pos())
	return m.markersAbove(p.Filename, p.Line)
}

// findType finds a named type of a package.
func findType(pkg *loader.Package, name string) *typeDecl {
	pkg.NeedSyntax()
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, s := range g.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == name {
					return &typeDecl{pkg: pkg, file: f, spec: ts, decl: g}
				}
			}
		}
	}
	return nil
}

// resolve returns the named type an expression refers to (through
// pointers), nil for a builtin or unknown one.
func resolve(pkg *loader.Package, file *ast.File, e ast.Expr) *typeDecl {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
			continue
		case *ast.ParenExpr:
			e = t.X
			continue
		case *ast.Ident:
			return findType(pkg, t.Name)
		case *ast.SelectorExpr:
			x, ok := t.X.(*ast.Ident)
			if !ok || file == nil {
				return nil
			}
			for _, imp := range file.Imports {
				path, err := strconv.Unquote(imp.Path.Value)
				if err != nil {
					continue
				}
				name := path[strings.LastIndex(path, "/")+1:]
				if imp.Name != nil {
					name = imp.Name.Name
				}
				if name != x.Name {
					continue
				}
				if ip := pkg.Imports()[path]; ip != nil {
					return findType(ip, t.Sel.Name)
				}
			}
			return nil
		}
		return nil
	}
}

// underlying returns the type expression behind e (following named
// types and pointers), with the package and file it is written in.
func underlying(pkg *loader.Package, file *ast.File, e ast.Expr) (*loader.Package, *ast.File, ast.Expr) {
	for i := 0; i < 50; i++ {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
			continue
		case *ast.ParenExpr:
			e = t.X
			continue
		case *ast.Ident, *ast.SelectorExpr:
			d := resolve(pkg, file, t)
			if d == nil {
				return pkg, file, e
			}
			pkg, file, e = d.pkg, d.file, d.spec.Type
			continue
		}
		return pkg, file, e
	}
	return pkg, file, e
}

// jsonName is a field's JSON name and whether it is inlined.
func jsonName(f *ast.Field) (name string, inline, skip bool) {
	var tag string
	if f.Tag != nil {
		if s, err := strconv.Unquote(f.Tag.Value); err == nil {
			tag = reflect.StructTag(s).Get("json")
		}
	}
	parts := strings.Split(tag, ",")
	name = parts[0]
	if name == "-" && len(parts) == 1 {
		return "", false, true
	}
	for _, p := range parts[1:] {
		if p == "inline" {
			inline = true
		}
	}
	if len(f.Names) == 0 && name == "" {
		inline = true
	}
	if name == "" && len(f.Names) > 0 {
		name = f.Names[0].Name
	}
	return name, inline, false
}

// property finds the field of n's struct whose JSON name is name
// (through embedded and inline structs).
func property(n goNode, name string, depth int) (goNode, bool) {
	if depth > 20 {
		return goNode{}, false
	}
	pkg, file, e := underlying(n.pkg, n.file, n.expr)
	st, ok := e.(*ast.StructType)
	if !ok {
		return goNode{}, false
	}
	for _, f := range st.Fields.List {
		jn, inline, skip := jsonName(f)
		if skip {
			continue
		}
		if inline {
			if got, ok := property(goNode{pkg: pkg, file: file, expr: f.Type}, name, depth+1); ok {
				return got, true
			}
			continue
		}
		if jn == name {
			return goNode{pkg: pkg, file: file, field: f, expr: f.Type}, true
		}
	}
	return goNode{}, false
}

// elem is the node of a slice's items or a map's values.
func elem(n goNode) (goNode, bool) {
	pkg, file, e := underlying(n.pkg, n.file, n.expr)
	switch t := e.(type) {
	case *ast.ArrayType:
		return goNode{pkg: pkg, file: file, expr: t.Elt}, true
	case *ast.MapType:
		return goNode{pkg: pkg, file: file, expr: t.Value}, true
	}
	return goNode{}, false
}

// nodeMarkers are the markers that apply to a node: its field's, then
// those of the named type of its values.
func (m *mapper) nodeMarkers(n goNode) []markerLine {
	out := m.fieldMarkers(n)
	if d := resolve(n.pkg, n.file, n.expr); d != nil {
		out = append(out, m.typeMarkers(d)...)
	}
	return out
}

// kindType finds the Go type of a CRD's kind in the version named
// version ("" the storage version).
func (m *mapper) kindType(def *apiextensionsv1.CustomResourceDefinition, version string) *typeDecl {
	if version == "" {
		for _, v := range def.Spec.Versions {
			if v.Storage {
				version = v.Name
			}
		}
	}
	var any *typeDecl
	for _, pkg := range m.roots {
		d := findType(pkg, def.Spec.Names.Kind)
		if d == nil {
			continue
		}
		pm, _ := markers.PackageMarkers(m.col, pkg)
		if g, ok := pm.Get("groupName").(string); ok && g != def.Spec.Group {
			continue
		}
		v := pkg.Name
		if vn, ok := pm.Get("versionName").(string); ok && vn != "" {
			v = vn
		}
		if v == version {
			return d
		}
		if any == nil {
			any = d
		}
	}
	return any
}

// pathSeg is one segment of a field path: name or name[key].
type pathSeg struct {
	name, key string
}

func parsePath(p string) []pathSeg {
	var out []pathSeg
	for len(p) > 0 {
		i := strings.IndexAny(p, ".[")
		if i < 0 {
			out = append(out, pathSeg{name: p})
			break
		}
		s := pathSeg{name: p[:i]}
		if p[i] == '[' {
			j := strings.Index(p[i:], "]")
			if j < 0 {
				s.key = p[i+1:]
				out = append(out, s)
				break
			}
			s.key = p[i+1 : i+j]
			p = p[i+j+1:]
			p = strings.TrimPrefix(p, ".")
		} else {
			p = p[i+1:]
		}
		out = append(out, s)
	}
	return out
}

// fieldError places an error on path (the CRD's field path).
func (m *mapper) fieldError(def *apiextensionsv1.CustomResourceDefinition, path, detail, msg string) Diagnostic {
	segs := parsePath(path)
	version := ""
	var schema *apiextensionsv1.JSONSchemaProps
	var rest []pathSeg
	switch {
	case len(segs) >= 3 && segs[0].name == "spec" && segs[1].name == "validation" && segs[2].name == "openAPIV3Schema":
		rest = segs[3:]
		for _, v := range def.Spec.Versions {
			if v.Storage && v.Schema != nil {
				schema = v.Schema.OpenAPIV3Schema
			}
		}
	case len(segs) >= 4 && segs[0].name == "spec" && segs[1].name == "versions" && segs[2].name == "schema" && segs[3].name == "openAPIV3Schema":
		i, err := strconv.Atoi(segs[1].key)
		if err == nil && i >= 0 && i < len(def.Spec.Versions) {
			version = def.Spec.Versions[i].Name
			if def.Spec.Versions[i].Schema != nil {
				schema = def.Spec.Versions[i].Schema.OpenAPIV3Schema
			}
		}
		rest = segs[4:]
	default:
		return m.kindDiag(def, "error", msg, path)
	}
	root := m.kindType(def, version)
	if root == nil {
		return m.packageDiag(nil, "error", msg, path)
	}
	n := goNode{pkg: root.pkg, file: root.file, expr: root.spec.Name}
	last := n // the deepest node found that has a field, or the root
	found := true
	key, ruleIdx, ruleKey := "", -1, ""
	var itemsOf goNode // the field whose items n is (its +kubebuilder:validation:items: markers)
walk:
	for i, s := range rest {
		switch s.name {
		case "properties":
			itemsOf = goNode{}
			if schema != nil {
				if p, ok := schema.Properties[s.key]; ok {
					schema = &p
				} else {
					schema = nil
				}
			}
			if found {
				n, found = property(n, s.key, 0)
				if found {
					last = n
				}
			}
		case "items", "additionalProperties":
			if schema != nil {
				switch {
				case s.name == "items" && schema.Items != nil:
					schema = schema.Items.Schema
				case s.name == "additionalProperties" && schema.AdditionalProperties != nil:
					schema = schema.AdditionalProperties.Schema
				default:
					schema = nil
				}
			}
			if found {
				var e goNode
				if e, found = elem(n); found {
					itemsOf = goNode{}
					if s.name == "items" && n.field != nil {
						itemsOf = n
					}
					e.field = nil
					n = e
				}
			}
		case "x-kubernetes-validations":
			ruleIdx, _ = strconv.Atoi(s.key)
			if i+1 < len(rest) {
				ruleKey = rest[i+1].name
			}
			break walk
		default:
			key = s.name
			break walk
		}
	}
	d := Diagnostic{Severity: "error", Message: msg, Path: path}
	if !found {
		n = last
	}
	cands := m.nodeMarkers(n)
	if ruleIdx >= 0 {
		rule := ""
		if found && schema != nil && ruleIdx < len(schema.XValidations) {
			rule = schema.XValidations[ruleIdx].Rule
		}
		if ml, xv, ok := m.ruleMarker(cands, rule, ruleIdx); ok {
			return m.ruleDiag(d, ml, xv, ruleKey, detail)
		}
	} else if key != "" {
		for _, ml := range cands {
			if markerMatchesKey(ml.text, key) {
				return placeAt(d, ml)
			}
		}
		for _, ml := range m.fieldMarkers(itemsOf) {
			if name := markerName(ml.text); strings.Contains(name, ":items:") && markerMatchesKey(strings.Replace(ml.text, ":items:", ":", 1), key) {
				return placeAt(d, ml)
			}
		}
	}
	return m.nodeDiag(d, n, last, root)
}

// nodeDiag places d on n's field line, the line of its values' type,
// the last field above it, or the kind's type line.
func (m *mapper) nodeDiag(d Diagnostic, n, last goNode, root *typeDecl) Diagnostic {
	var p token.Position
	if n.field != nil {
		p = m.pos(n.pkg, n.field.Pos())
	} else if t := resolve(n.pkg, n.file, n.expr); t != nil {
		p = m.declPos(t)
	} else if last.field != nil {
		p = m.pos(last.pkg, last.field.Pos())
	} else {
		p = m.declPos(root)
	}
	ld := lineDiag(p, m.lineText(p.Filename, p.Line))
	ld.Severity, ld.Message, ld.Path = d.Severity, d.Message, d.Path
	return ld
}

func placeAt(d Diagnostic, ml markerLine) Diagnostic {
	d.File, d.Line, d.Column, d.EndLine, d.EndColumn = ml.file, ml.line, ml.col, ml.line, ml.end
	return d
}

// markerName is a marker's name: the text before its value or
// arguments ("kubebuilder:validation:Pattern").
func markerName(text string) string {
	if i := strings.IndexAny(text, "= "); i >= 0 {
		text = text[:i]
	}
	return text
}

func normKey(s string) string {
	s = strings.TrimPrefix(s, "x-kubernetes-")
	return strings.ToLower(strings.ReplaceAll(s, "-", ""))
}

// markerMatchesKey reports whether a marker sets the schema key (the
// last segment of an error's path: pattern, maxLength, default, ...).
func markerMatchesKey(text, key string) bool {
	name := markerName(text)
	if strings.Contains(name, ":items:") || strings.Contains(name, "XValidation") {
		return false
	}
	last := normKey(name[strings.LastIndex(name, ":")+1:])
	k := normKey(key)
	return last != "" && (last == k || strings.HasPrefix(k, last))
}

const xvalidationName = "kubebuilder:validation:XValidation"

// parseXValidation decodes an XValidation marker as controller-tools does.
func (m *mapper) parseXValidation(text string) (crdmarkers.XValidation, bool) {
	if !strings.HasPrefix(text, xvalidationName) {
		return crdmarkers.XValidation{}, false
	}
	for _, target := range []markers.TargetType{markers.DescribesField, markers.DescribesType} {
		def := m.col.Registry.Lookup("+"+text, target)
		if def == nil {
			continue
		}
		v, err := def.Parse("+" + text)
		if err != nil {
			continue
		}
		if xv, ok := v.(crdmarkers.XValidation); ok {
			return xv, true
		}
	}
	return crdmarkers.XValidation{}, false
}

// ruleMarker finds the XValidation marker of a rule: the one whose rule
// is the CRD's rule, else the idx-th XValidation marker.
func (m *mapper) ruleMarker(cands []markerLine, rule string, idx int) (markerLine, crdmarkers.XValidation, bool) {
	type xm struct {
		ml markerLine
		xv crdmarkers.XValidation
	}
	var xs []xm
	for _, ml := range cands {
		if xv, ok := m.parseXValidation(ml.text); ok {
			xs = append(xs, xm{ml, xv})
		}
	}
	if rule != "" {
		for _, x := range xs {
			if x.xv.Rule == rule {
				return x.ml, x.xv, true
			}
		}
	}
	if idx < len(xs) {
		return xs[idx].ml, xs[idx].xv, true
	}
	return markerLine{}, crdmarkers.XValidation{}, false
}

// ruleDiag places an error of a rule on its marker: inside the argument
// it is about (rule, messageExpression) and, for a CEL compile error, at
// CEL's column in the rule.
func (m *mapper) ruleDiag(d Diagnostic, ml markerLine, xv crdmarkers.XValidation, ruleKey, detail string) Diagnostic {
	d = placeAt(d, ml)
	arg := "rule"
	if ruleKey == "messageExpression" {
		arg = ruleKey
	}
	offs, ok := argValue(ml.text[len(xvalidationName):], arg)
	if !ok {
		return d
	}
	base := ml.col + 1 + len(xvalidationName) // 1-based column of the text after the marker's name
	d.Column = base + offs[0]
	d.EndColumn = base + offs[len(offs)-1]
	expr := xv.Rule
	if arg == "messageExpression" {
		expr = xv.MessageExpression
	}
	if k, named := cel.CompileErrorOffset(expr, detail); named && k >= 0 && k+1 < len(offs) {
		d.Column = base + offs[k+1]
	}
	return d
}

// argValue finds the argument name=value of a marker's arguments
// (":rule=\"...\",message=..."): offs[0] is the byte offset of the value
// (its opening quote), offs[1+i] that of its i-th decoded rune, the last
// the offset after the value.
func argValue(args, name string) ([]int, bool) {
	s := strings.TrimPrefix(args, ":")
	off := len(args) - len(s)
	for len(s) > 0 {
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			return nil, false
		}
		argName := strings.TrimSpace(s[:eq])
		vs := eq + 1
		offs := []int{off + vs}
		i := vs
		switch {
		case i < len(s) && s[i] == '"':
			i++
			for i < len(s) && s[i] != '"' {
				_, _, tail, err := strconv.UnquoteChar(s[i:], '"')
				if err != nil {
					return nil, false
				}
				offs = append(offs, off+i)
				i = len(s) - len(tail)
			}
			i++ // the closing quote
		case i < len(s) && s[i] == '`':
			i++
			for i < len(s) && s[i] != '`' {
				offs = append(offs, off+i)
				_, size := utf8.DecodeRuneInString(s[i:])
				i += size
			}
			i++
		default:
			for i < len(s) && s[i] != ',' {
				offs = append(offs, off+i)
				_, size := utf8.DecodeRuneInString(s[i:])
				i += size
			}
		}
		if i > len(s) {
			i = len(s)
		}
		offs = append(offs, off+i)
		if argName == name {
			return offs, true
		}
		s = s[i:]
		off += i
		if strings.HasPrefix(s, ",") {
			s = s[1:]
			off++
		}
	}
	return nil, false
}

var unrecognizedFormatRE = regexp.MustCompile(`^unrecognized format "(.*)"$`)

// warning places a CRD warning: one that names a field path as the
// field's errors, an unrecognized format on the first Format marker
// that names it, others on the kind's type.
func (m *mapper) warning(def *apiextensionsv1.CustomResourceDefinition, w string) Diagnostic {
	if strings.HasPrefix(w, "spec.") {
		if i := strings.Index(w, ": "); i > 0 && !strings.Contains(w[:i], " ") {
			d := m.fieldError(def, w[:i], "", w)
			d.Severity = "warning"
			return d
		}
	}
	if mm := unrecognizedFormatRE.FindStringSubmatch(w); mm != nil {
		for _, pkg := range m.roots {
			pkg.NeedSyntax()
			for _, f := range pkg.Syntax {
				name := pkg.Fset.Position(f.Pos()).Filename
				for i, line := range m.fileLines(name) {
					t := strings.TrimSpace(line)
					if !strings.HasPrefix(t, "//") {
						continue
					}
					c := strings.TrimSpace(strings.TrimPrefix(t, "//"))
					if c == "+kubebuilder:validation:Format="+mm[1] || c == "+kubebuilder:validation:Format=\""+mm[1]+"\"" {
						col := strings.Index(line, "+") + 1
						ml := markerLine{file: name, line: i + 1, col: col, text: line[col:], end: len(strings.TrimSuffix(line, "\r")) + 1}
						return placeAt(Diagnostic{Severity: "warning", Message: w}, ml)
					}
				}
			}
		}
	}
	return m.kindDiag(def, "warning", w, "")
}

// kindDiag places a diagnostic on the line of the CRD's kind type.
func (m *mapper) kindDiag(def *apiextensionsv1.CustomResourceDefinition, sev, msg, path string) Diagnostic {
	if d := m.kindType(def, ""); d != nil {
		p := m.declPos(d)
		ld := lineDiag(p, m.lineText(p.Filename, p.Line))
		ld.Severity, ld.Message, ld.Path = sev, msg, path
		return ld
	}
	return m.packageDiag(nil, sev, msg, path)
}

// packageDiag places a diagnostic on the package clause of pkg (nil:
// the first package loaded).
func (m *mapper) packageDiag(pkg *loader.Package, sev, msg, path string) Diagnostic {
	if pkg == nil && len(m.roots) > 0 {
		pkg = m.roots[0]
	}
	d := Diagnostic{Severity: sev, Message: msg, Path: path, Line: 1, Column: 1, EndLine: 1, EndColumn: 1}
	if pkg != nil {
		pkg.NeedSyntax()
		if len(pkg.Syntax) > 0 {
			p := pkg.Fset.Position(pkg.Syntax[0].Package)
			ld := lineDiag(p, m.lineText(p.Filename, p.Line))
			ld.Severity, ld.Message, ld.Path = sev, msg, path
			return ld
		}
		if len(pkg.GoFiles) > 0 {
			d.File = pkg.GoFiles[0]
		}
	}
	return d
}

// loadError places one of a package's errors at its position
// ("file:line:col"), else on the package.
func (m *mapper) loadError(p *packages.Package, e packages.Error) Diagnostic {
	file, line, col := splitPos(e.Pos)
	if file == "" || line == 0 {
		var pkg *loader.Package
		for _, r := range m.roots {
			if r.Package == p {
				pkg = r
			}
		}
		d := m.packageDiag(pkg, "error", e.Msg, "")
		if pkg == nil && len(p.GoFiles) > 0 {
			d.File, d.Line, d.Column, d.EndLine, d.EndColumn = p.GoFiles[0], 1, 1, 1, 1
		}
		return d
	}
	if col == 0 {
		col = 1
	}
	text := m.lineText(file, line)
	return Diagnostic{File: file, Line: line, Column: col, EndLine: line, EndColumn: max(len(text)+1, col), Severity: "error", Message: e.Msg}
}

// splitPos splits "file:line:col" or "file:line".
func splitPos(pos string) (file string, line, col int) {
	parts := strings.Split(pos, ":")
	nums := []int{}
	for len(parts) > 1 && len(nums) < 2 {
		n, err := strconv.Atoi(parts[len(parts)-1])
		if err != nil {
			break
		}
		nums = append([]int{n}, nums...)
		parts = parts[:len(parts)-1]
	}
	if len(nums) == 0 {
		return "", 0, 0
	}
	file = strings.Join(parts, ":")
	line = nums[0]
	if len(nums) > 1 {
		col = nums[1]
	}
	return file, line, col
}
