package main

// The OpenAPI v3 schemas of the built-in kinds, per release
// (internal/builtin/schemas.json.gz): every definition a served kind
// reaches, from k8s.io/kubernetes's api/openapi-spec/v3/*.json at the
// release's tag, without descriptions, annotated with the Go type of each
// node (read from k8s.io/api's, k8s.io/apimachinery's,
// k8s.io/apiextensions-apiserver's and k8s.io/kube-aggregator's Go source
// with go/parser) so that crdlab's schema decoder can say what the
// API server's json decoder says ("into Go struct field
// DeploymentSpec.spec.replicas of type int32").

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// node is one schema node, as internal/builtin reads it (the same JSON
// keys: keep both in step).
type node struct {
	Ref           string           `json:"$,omitempty"`
	Type          string           `json:"t,omitempty"`
	Format        string           `json:"f,omitempty"`
	OneOf         []string         `json:"o,omitempty"`
	Enum          []any            `json:"e,omitempty"`
	Required      []string         `json:"r,omitempty"`
	Properties    map[string]*node `json:"p,omitempty"`
	Items         *node            `json:"i,omitempty"`
	Additional    *node            `json:"a,omitempty"`
	ListType      string           `json:"lt,omitempty"`
	ListMapKeys   []string         `json:"lk,omitempty"`
	MapType       string           `json:"mt,omitempty"`
	PatchMergeKey string           `json:"pk,omitempty"`
	PatchStrategy string           `json:"ps,omitempty"`
	Preserve      bool             `json:"pu,omitempty"`
	Embedded      bool             `json:"er,omitempty"`
	IntOrString   bool             `json:"is,omitempty"`
	Nullable      bool             `json:"n,omitempty"`
	// Go is the Go type of the value the json decoder stores into (pointers
	// removed), as reflect.Type.String() prints it: "int32", "[]v1.Container",
	// "v1.ResourceList"; for a definition, its named type ("v1.Deployment").
	Go string `json:"go,omitempty"`
	// Inline is the Go field names of the embedded structs a property is
	// promoted from (["TypeMeta"] for apiVersion and kind): the json
	// decoder's error context names them.
	Inline []string `json:"in,omitempty"`
}

// schemaFile is internal/builtin/schemas.json.gz, decompressed.
type schemaFile struct {
	// Nodes are the distinct definitions of every release.
	Nodes []*node `json:"nodes"`
	// Releases are in order; each stores what differs from the one
	// before it (the first, everything).
	Releases []releaseSchemas `json:"releases"`
}

type releaseSchemas struct {
	Release string `json:"release"`
	// Kinds maps "group/version/Kind" ("core/v1/Pod") to its definition.
	Kinds map[string]string `json:"kinds,omitempty"`
	// Defs maps a definition name to its index in Nodes.
	Defs map[string]int `json:"defs,omitempty"`
	// RemovedKinds and RemovedDefs are what the release before had and this
	// one does not.
	RemovedKinds []string `json:"removedKinds,omitempty"`
	RemovedDefs  []string `json:"removedDefs,omitempty"`
}

// dropped are the OpenAPI keys the schemas leave out (documentation,
// defaults the typed decoder does not apply, group-version-kind lists).
var dropped = map[string]bool{
	"description": true, "default": true, "example": true,
	"x-kubernetes-group-version-kind": true, "x-kubernetes-unions": true,
	"x-kubernetes-action": true, "externalDocs": true, "title": true,
}

// schemasOf returns a release's definitions (those a served kind reaches)
// and its kinds ("group/version/Kind" → definition).
func schemasOf(rel releaseDirs, res []resource) (map[string]*node, map[string]string, error) {
	files, err := filepath.Glob(filepath.Join(rel.kubernetes, "api", "openapi-spec", "v3", "api*__*_openapi.json"))
	if err != nil {
		return nil, nil, err
	}
	raw := map[string]map[string]any{}
	var gvk = map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		var doc struct {
			Components struct {
				Schemas map[string]map[string]any `json:"schemas"`
			} `json:"components"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", f, err)
		}
		for name, s := range doc.Components.Schemas {
			if _, ok := raw[name]; !ok {
				raw[name] = s
			}
			list, _ := s["x-kubernetes-group-version-kind"].([]any)
			for _, e := range list {
				m, _ := e.(map[string]any)
				g, _ := m["group"].(string)
				v, _ := m["version"].(string)
				k, _ := m["kind"].(string)
				if g == "" {
					g = "core"
				}
				key := g + "/" + v + "/" + k
				// several definitions carry a group-version-kind (DeleteOptions,
				// WatchEvent); the kind's own is the one named after it.
				if strings.HasSuffix(name, "."+k) {
					gvk[key] = name
				}
			}
		}
	}
	kinds := map[string]string{}
	for _, r := range res {
		g := r.Group
		if g == "" {
			g = "core"
		}
		key := g + "/" + r.Version + "/" + r.Kind
		def, ok := gvk[key]
		if !ok {
			return nil, nil, fmt.Errorf("%s: no OpenAPI definition for %s", rel.kubernetes, key)
		}
		kinds[key] = def
	}
	gs := newGoSource(rel)
	defs := map[string]*node{}
	var visit func(name string) error
	visit = func(name string) error {
		if _, ok := defs[name]; ok {
			return nil
		}
		s, ok := raw[name]
		if !ok {
			return fmt.Errorf("%s: definition %s not found", rel.kubernetes, name)
		}
		n, err := convert(s)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		defs[name] = n
		if err := gs.annotate(name, n); err != nil {
			return fmt.Errorf("%s: %s: %v", rel.kubernetes, name, err)
		}
		for _, ref := range refs(n, nil) {
			if err := visit(ref); err != nil {
				return err
			}
		}
		return nil
	}
	names := make([]string, 0, len(kinds))
	for _, d := range kinds {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, d := range names {
		if err := visit(d); err != nil {
			return nil, nil, err
		}
	}
	return defs, kinds, nil
}

func refs(n *node, out []string) []string {
	if n == nil {
		return out
	}
	if n.Ref != "" {
		out = append(out, n.Ref)
	}
	keys := make([]string, 0, len(n.Properties))
	for k := range n.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = refs(n.Properties[k], out)
	}
	out = refs(n.Items, out)
	return refs(n.Additional, out)
}

const refPrefix = "#/components/schemas/"

// convert reads one OpenAPI v3 schema object, failing on a key it does
// not know (so that nothing is dropped silently).
func convert(s map[string]any) (*node, error) {
	n := &node{}
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := s[k]
		var err error
		switch k {
		case "$ref":
			n.Ref = strings.TrimPrefix(v.(string), refPrefix)
		case "allOf":
			list, _ := v.([]any)
			if len(list) != 1 {
				return nil, fmt.Errorf("allOf with %d schemas", len(list))
			}
			m, _ := list[0].(map[string]any)
			ref, ok := m["$ref"].(string)
			if !ok || len(m) != 1 {
				return nil, fmt.Errorf("allOf without a lone $ref")
			}
			n.Ref = strings.TrimPrefix(ref, refPrefix)
		case "oneOf":
			list, _ := v.([]any)
			for _, e := range list {
				m, _ := e.(map[string]any)
				t, ok := m["type"].(string)
				if !ok || len(m) != 1 {
					return nil, fmt.Errorf("oneOf other than types")
				}
				n.OneOf = append(n.OneOf, t)
			}
		case "type":
			n.Type = v.(string)
		case "format":
			n.Format = v.(string)
		case "enum":
			n.Enum, _ = v.([]any)
		case "required":
			for _, r := range v.([]any) {
				n.Required = append(n.Required, r.(string))
			}
		case "properties":
			n.Properties = map[string]*node{}
			for name, p := range v.(map[string]any) {
				pm, _ := p.(map[string]any)
				if n.Properties[name], err = convert(pm); err != nil {
					return nil, fmt.Errorf("%s: %v", name, err)
				}
			}
		case "items":
			m, _ := v.(map[string]any)
			if n.Items, err = convert(m); err != nil {
				return nil, fmt.Errorf("items: %v", err)
			}
		case "additionalProperties":
			m, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("additionalProperties %v", v)
			}
			if n.Additional, err = convert(m); err != nil {
				return nil, fmt.Errorf("additionalProperties: %v", err)
			}
		case "x-kubernetes-list-type":
			n.ListType = v.(string)
		case "x-kubernetes-list-map-keys":
			for _, r := range v.([]any) {
				n.ListMapKeys = append(n.ListMapKeys, r.(string))
			}
		case "x-kubernetes-map-type":
			n.MapType = v.(string)
		case "x-kubernetes-patch-merge-key":
			n.PatchMergeKey = v.(string)
		case "x-kubernetes-patch-strategy":
			n.PatchStrategy = v.(string)
		case "x-kubernetes-preserve-unknown-fields":
			n.Preserve = v.(bool)
		case "x-kubernetes-embedded-resource":
			n.Embedded = v.(bool)
		case "x-kubernetes-int-or-string":
			n.IntOrString = v.(bool)
		case "nullable":
			n.Nullable = v.(bool)
		default:
			if !dropped[k] {
				return nil, fmt.Errorf("unknown OpenAPI key %q", k)
			}
		}
	}
	return n, nil
}

// goSource resolves a definition name to its Go type declaration.
type goSource struct {
	rel  releaseDirs
	pkgs map[string]*goPkg // by directory
}

type goPkg struct {
	name  string
	types map[string]*ast.TypeSpec
	// imports per type: the file's import names → paths.
	imports map[string]map[string]string
}

func newGoSource(rel releaseDirs) *goSource {
	return &goSource{rel: rel, pkgs: map[string]*goPkg{}}
}

// dirOf maps a definition name's package part to a directory and import
// path: io.k8s.api.apps.v1 → k8s.io/api/apps/v1.
func (g *goSource) dirOf(pkg string) (dir, importPath string, err error) {
	switch {
	case strings.HasPrefix(pkg, "io.k8s.api."):
		rest := strings.ReplaceAll(strings.TrimPrefix(pkg, "io.k8s.api."), ".", "/")
		return filepath.Join(g.rel.api, rest), "k8s.io/api/" + rest, nil
	case strings.HasPrefix(pkg, "io.k8s.apimachinery."):
		rest := strings.ReplaceAll(strings.TrimPrefix(pkg, "io.k8s.apimachinery."), ".", "/")
		return filepath.Join(g.rel.apimachinery, rest), "k8s.io/apimachinery/" + rest, nil
	case strings.HasPrefix(pkg, "io.k8s.apiextensions-apiserver."):
		rest := strings.ReplaceAll(strings.TrimPrefix(pkg, "io.k8s.apiextensions-apiserver."), ".", "/")
		return filepath.Join(g.rel.apiextensions, rest), "k8s.io/apiextensions-apiserver/" + rest, nil
	case strings.HasPrefix(pkg, "io.k8s.kube-aggregator."):
		rest := strings.ReplaceAll(strings.TrimPrefix(pkg, "io.k8s.kube-aggregator."), ".", "/")
		return filepath.Join(g.rel.aggregator, rest), "k8s.io/kube-aggregator/" + rest, nil
	}
	return "", "", fmt.Errorf("no Go package for %s", pkg)
}

// importDir maps an import path to its directory in the module cache.
func (g *goSource) importDir(path string) (string, error) {
	for prefix, dir := range map[string]string{
		"k8s.io/api/":                     g.rel.api,
		"k8s.io/apimachinery/":            g.rel.apimachinery,
		"k8s.io/apiextensions-apiserver/": g.rel.apiextensions,
		"k8s.io/kube-aggregator/":         g.rel.aggregator,
		"k8s.io/apiextensions-api/":       g.rel.apiextensionsAPI,
	} {
		if strings.HasPrefix(path, prefix) && dir != "" {
			return filepath.Join(dir, strings.TrimPrefix(path, prefix)), nil
		}
	}
	return "", fmt.Errorf("import %s: not a Kubernetes API package", path)
}

func (g *goSource) pkg(dir string) (*goPkg, error) {
	if p, ok := g.pkgs[dir]; ok {
		return p, nil
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	p := &goPkg{types: map[string]*ast.TypeSpec{}, imports: map[string]map[string]string{}}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		p.name = file.Name.Name
		imps := map[string]string{}
		for _, im := range file.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			name := path[strings.LastIndex(path, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			imps[name] = path
		}
		for _, d := range file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				p.types[ts.Name.Name] = ts
				p.imports[ts.Name.Name] = imps
			}
		}
	}
	if p.name == "" {
		return nil, fmt.Errorf("%s: no Go files", dir)
	}
	g.pkgs[dir] = p
	return p, nil
}

// goType is a type expression in the package it appears in.
type goType struct {
	expr ast.Expr
	pkg  *goPkg
	imps map[string]string
}

// render prints t as reflect.Type.String() does: named types qualified by
// their package's name, byte as uint8.
func (g *goSource) render(t goType) (string, error) {
	switch e := t.expr.(type) {
	case *ast.Ident:
		switch e.Name {
		case "byte":
			return "uint8", nil
		case "string", "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8",
			"uint16", "uint32", "uint64", "float32", "float64":
			return e.Name, nil
		}
		return t.pkg.name + "." + e.Name, nil
	case *ast.SelectorExpr:
		x := e.X.(*ast.Ident)
		path, ok := t.imps[x.Name]
		if !ok {
			return "", fmt.Errorf("unknown import %s", x.Name)
		}
		dir, err := g.importDir(path)
		if err != nil {
			return "", err
		}
		p, err := g.pkg(dir)
		if err != nil {
			return "", err
		}
		return p.name + "." + e.Sel.Name, nil
	case *ast.StarExpr:
		s, err := g.render(goType{e.X, t.pkg, t.imps})
		return "*" + s, err
	case *ast.ArrayType:
		s, err := g.render(goType{e.Elt, t.pkg, t.imps})
		return "[]" + s, err
	case *ast.MapType:
		k, err := g.render(goType{e.Key, t.pkg, t.imps})
		if err != nil {
			return "", err
		}
		v, err := g.render(goType{e.Value, t.pkg, t.imps})
		return "map[" + k + "]" + v, err
	case *ast.InterfaceType:
		return "interface {}", nil
	}
	return "", fmt.Errorf("type expression %T", t.expr)
}

// underlying resolves a named type to its declaration (deref'ing pointers
// first); basic types and literals come back as they are.
func (g *goSource) underlying(t goType) (goType, error) {
	for {
		switch e := t.expr.(type) {
		case *ast.StarExpr:
			t.expr = e.X
			continue
		case *ast.Ident:
			ts, ok := t.pkg.types[e.Name]
			if !ok {
				return t, nil
			}
			t = goType{ts.Type, t.pkg, t.pkg.imports[e.Name]}
			continue
		case *ast.SelectorExpr:
			x := e.X.(*ast.Ident)
			dir, err := g.importDir(t.imps[x.Name])
			if err != nil {
				return t, err
			}
			p, err := g.pkg(dir)
			if err != nil {
				return t, err
			}
			ts, ok := p.types[e.Sel.Name]
			if !ok {
				return t, fmt.Errorf("%s.%s not found", x.Name, e.Sel.Name)
			}
			t = goType{ts.Type, p, p.imports[e.Sel.Name]}
			continue
		}
		return t, nil
	}
}

func stripPointers(e ast.Expr) ast.Expr {
	for {
		s, ok := e.(*ast.StarExpr)
		if !ok {
			return e
		}
		e = s.X
	}
}

// annotate sets the Go types of a definition and its properties.
func (g *goSource) annotate(name string, n *node) error {
	i := strings.LastIndex(name, ".")
	dir, _, err := g.dirOf(name[:i])
	if err != nil {
		return err
	}
	p, err := g.pkg(dir)
	if err != nil {
		return err
	}
	ts, ok := p.types[name[i+1:]]
	if !ok {
		return fmt.Errorf("Go type %s not found in %s", name[i+1:], dir)
	}
	for ts.Assign != 0 {
		// an alias (1.38's apiextensions types moved to k8s.io/apiextensions-api)
		sel, ok := ts.Type.(*ast.SelectorExpr)
		if !ok {
			return fmt.Errorf("alias %s of a %T", ts.Name.Name, ts.Type)
		}
		dir, err := g.importDir(p.imports[ts.Name.Name][sel.X.(*ast.Ident).Name])
		if err != nil {
			return err
		}
		if p, err = g.pkg(dir); err != nil {
			return err
		}
		if ts, ok = p.types[sel.Sel.Name]; !ok {
			return fmt.Errorf("Go type %s not found in %s", sel.Sel.Name, dir)
		}
	}
	n.Go = p.name + "." + ts.Name.Name
	st, ok := ts.Type.(*ast.StructType)
	if ok && len(n.Properties) == 0 {
		// a struct with its own JSON form (metav1.Time, RawExtension)
		return nil
	}
	if !ok {
		if len(n.Properties) > 0 {
			return fmt.Errorf("properties on a non-struct Go type")
		}
		return nil
	}
	fields := map[string]goField{}
	if err := g.fields(goType{st, p, p.imports[ts.Name.Name]}, nil, fields); err != nil {
		return err
	}
	for prop, pn := range n.Properties {
		f, ok := fields[prop]
		if !ok {
			return fmt.Errorf("property %s has no Go field", prop)
		}
		pn.Inline = f.inline
		if err := g.annotateNode(pn, f.t); err != nil {
			return fmt.Errorf("%s: %v", prop, err)
		}
	}
	return nil
}

type goField struct {
	t      goType
	inline []string
}

// fields lists a struct's JSON fields, the inline ones' promoted.
func (g *goSource) fields(t goType, inline []string, out map[string]goField) error {
	st := t.expr.(*ast.StructType)
	for _, f := range st.Fields.List {
		tag := ""
		if f.Tag != nil {
			s, _ := strconv.Unquote(f.Tag.Value)
			tag = reflect.StructTag(s).Get("json")
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" && opts == "" {
			continue
		}
		if len(f.Names) == 0 && name == "" {
			// embedded: its fields are promoted
			u, err := g.underlying(goType{f.Type, t.pkg, t.imps})
			if err != nil {
				return err
			}
			s, ok := u.expr.(*ast.StructType)
			if !ok {
				return fmt.Errorf("embedded non-struct")
			}
			ename := embeddedName(f.Type)
			if err := g.fields(goType{s, u.pkg, u.imps}, append(append([]string(nil), inline...), ename), out); err != nil {
				return err
			}
			continue
		}
		if name == "" {
			if len(f.Names) == 0 {
				name = embeddedName(f.Type)
			} else {
				name = f.Names[0].Name
			}
		}
		if _, dup := out[name]; !dup {
			out[name] = goField{goType{f.Type, t.pkg, t.imps}, inline}
		}
	}
	return nil
}

func embeddedName(e ast.Expr) string {
	switch x := stripPointers(e).(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	}
	return ""
}

// annotateNode sets the Go type of a property's node and of its items and
// additional properties, down to a $ref (whose definition carries its own).
func (g *goSource) annotateNode(n *node, t goType) error {
	s, err := g.render(goType{stripPointers(t.expr), t.pkg, t.imps})
	if err != nil {
		return err
	}
	n.Go = s
	if n.Items == nil && n.Additional == nil {
		return nil
	}
	u, err := g.underlying(t)
	if err != nil {
		return err
	}
	switch e := u.expr.(type) {
	case *ast.ArrayType:
		if n.Items != nil {
			return g.annotateNode(n.Items, goType{e.Elt, u.pkg, u.imps})
		}
	case *ast.MapType:
		if n.Additional != nil {
			return g.annotateNode(n.Additional, goType{e.Value, u.pkg, u.imps})
		}
	}
	return fmt.Errorf("schema with items or additionalProperties on Go type %s", s)
}

// writeSchemas encodes the releases' definitions, each release storing
// what differs from the one before, distinct definitions stored once.
func writeSchemas(perRelease []releaseData) ([]byte, error) {
	var f schemaFile
	index := map[string]int{}
	var prevDefs map[string]int
	var prevKinds map[string]string
	for _, rd := range perRelease {
		rs := releaseSchemas{Release: rd.minor, Kinds: map[string]string{}, Defs: map[string]int{}}
		defs := map[string]int{}
		names := make([]string, 0, len(rd.defs))
		for name := range rd.defs {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			b, err := json.Marshal(rd.defs[name])
			if err != nil {
				return nil, err
			}
			i, ok := index[string(b)]
			if !ok {
				i = len(f.Nodes)
				index[string(b)] = i
				f.Nodes = append(f.Nodes, rd.defs[name])
			}
			defs[name] = i
			if pi, ok := prevDefs[name]; !ok || pi != i {
				rs.Defs[name] = i
			}
		}
		for name := range prevDefs {
			if _, ok := defs[name]; !ok {
				rs.RemovedDefs = append(rs.RemovedDefs, name)
			}
		}
		for k, d := range rd.kinds {
			if pd, ok := prevKinds[k]; !ok || pd != d {
				rs.Kinds[k] = d
			}
		}
		for k := range prevKinds {
			if _, ok := rd.kinds[k]; !ok {
				rs.RemovedKinds = append(rs.RemovedKinds, k)
			}
		}
		sort.Strings(rs.RemovedDefs)
		sort.Strings(rs.RemovedKinds)
		f.Releases = append(f.Releases, rs)
		prevDefs, prevKinds = defs, rd.kinds
	}
	data, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	return data, nil
}

// gzipped compresses deterministically (no name, no time).
func gzipped(data []byte) ([]byte, error) {
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

type releaseData struct {
	minor string
	defs  map[string]*node
	kinds map[string]string
}
