// Command builtintypes writes internal/builtin/corev1/pod.go: the Go types
// of the workload kinds crdlab validates natively (core/v1 Pod and
// PodTemplateSpec, apps/v1 Deployment, batch/v1 ...) with k8s.io/api's JSON
// shape, Go field types and type names — the struct declarations' data
// (names, field types, JSON tags), read with go/parser from k8s.io/api's
// types.go files in the Go module cache; no comment or code is copied.
//
// The types the API server decodes a body into decide its error texts
// ("json: cannot unmarshal string into Go struct field
// ContainerPort.spec.template.spec.containers.ports.containerPort of type
// int32") and which fields strict decoding calls unknown: the generated
// types have every field of upstream's, so both come out the same.
//
// Types already declared by hand in the package (types.go, quantity.go)
// are not generated; references to other packages are mapped: metav1's
// ObjectMeta, Time and UID to objectmeta's, resource.Quantity and
// intstr.IntOrString to the package's own Quantity and IntOrString,
// metav1's LabelSelector generated beside the others (its package is named
// v1 too).
//
//	go -C tools run ./builtintypes -o ../internal/builtin/corev1/pod.go
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// apiVersion is the k8s.io/api (and apimachinery) release read.
const apiVersion = "v0.37.2"

// roots are the types generated with everything they reference.
var roots = []string{"core/v1.Pod", "core/v1.PodTemplateSpec", "apps/v1.Deployment", "apps/v1.ReplicaSet", "apps/v1.DaemonSet", "batch/v1.Job", "batch/v1.CronJob"}

// external maps a reference to another package (import path + "." + name)
// to the type written.
var external = map[string]string{
	"k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta":               "objectmeta.ObjectMeta",
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":                     "objectmeta.Time",
	"k8s.io/apimachinery/pkg/apis/meta/v1.TypeMeta":                 "TypeMeta",
	"k8s.io/apimachinery/pkg/types.UID":                             "objectmeta.UID",
	"k8s.io/apimachinery/pkg/api/resource.Quantity":                 "Quantity",
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString":               "IntOrString",
	"k8s.io/apimachinery/pkg/apis/meta/v1.LabelSelector":            "meta/v1.LabelSelector",
	"k8s.io/apimachinery/pkg/apis/meta/v1.LabelSelectorRequirement": "meta/v1.LabelSelectorRequirement",
}

type pkgSource struct {
	key, dir string
	types    map[string]*ast.TypeSpec
	imports  map[*ast.File]map[string]string
	fileOf   map[string]*ast.File
}

func moduleDir(mod string) string {
	out, err := exec.Command("go", "mod", "download", "-json", mod+"@"+apiVersion).Output()
	if err != nil {
		fail("go mod download %s: %v", mod, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		fail("go mod download %s: no Dir", mod)
	}
	return m.Dir
}

func fail(format string, a ...interface{}) {
	fmt.Fprintf(os.Stderr, "builtintypes: "+format+"\n", a...)
	os.Exit(1)
}

func load(key, file string) *pkgSource {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		fail("%v", err)
	}
	p := &pkgSource{key: key, types: map[string]*ast.TypeSpec{}, fileOf: map[string]*ast.File{}, imports: map[*ast.File]map[string]string{}}
	imps := map[string]string{}
	for _, im := range f.Imports {
		path := strings.Trim(im.Path.Value, `"`)
		name := filepath.Base(path)
		if im.Name != nil {
			name = im.Name.Name
		}
		imps[name] = path
	}
	p.imports[f] = imps
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			ts := s.(*ast.TypeSpec)
			p.types[ts.Name.Name] = ts
			p.fileOf[ts.Name.Name] = f
		}
	}
	return p
}

// declared lists the types the package's hand-written files declare.
func declared(dir, skip string) map[string]bool {
	out := map[string]bool{}
	fset := token.NewFileSet()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, fn := range files {
		if filepath.Base(fn) == skip || strings.HasSuffix(fn, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, fn, nil, 0)
		if err != nil {
			fail("%v", err)
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					out[s.(*ast.TypeSpec).Name.Name] = true
				}
			}
		}
	}
	return out
}

func main() {
	outPath := flag.String("o", "", "output file")
	flag.Parse()
	if *outPath == "" {
		fail("-o is required")
	}
	api, apim := moduleDir("k8s.io/api"), moduleDir("k8s.io/apimachinery")
	pkgs := map[string]*pkgSource{
		"core/v1":             load("core/v1", filepath.Join(api, "core/v1/types.go")),
		"apps/v1":             load("apps/v1", filepath.Join(api, "apps/v1/types.go")),
		"batch/v1":            load("batch/v1", filepath.Join(api, "batch/v1/types.go")),
		"scheduling/v1alpha3": load("scheduling/v1alpha3", filepath.Join(api, "scheduling/v1alpha3/types.go")),
		"meta/v1":             load("meta/v1", filepath.Join(apim, "pkg/apis/meta/v1/types.go")),
	}
	importKey := map[string]string{
		"k8s.io/api/core/v1":                   "core/v1",
		"k8s.io/api/apps/v1":                   "apps/v1",
		"k8s.io/api/batch/v1":                  "batch/v1",
		"k8s.io/api/scheduling/v1alpha3":       "scheduling/v1alpha3",
		"k8s.io/apimachinery/pkg/apis/meta/v1": "meta/v1",
	}
	have := declared(filepath.Dir(*outPath), filepath.Base(*outPath))
	emitted := map[string]string{} // name → pkg key
	var order []string
	var queue []string
	queue = append(queue, roots...)
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		key, name, _ := strings.Cut(q, ".")
		if have[name] {
			continue
		}
		if k, ok := emitted[name]; ok {
			if k != key {
				fail("%s declared in %s and %s", name, k, key)
			}
			continue
		}
		p := pkgs[key]
		ts := p.types[name]
		if ts == nil {
			fail("%s: no type %s", key, name)
		}
		emitted[name] = key
		order = append(order, q)
		refs := map[string]bool{}
		collect(ts.Type, p, p.fileOf[name], importKey, refs)
		var rs []string
		for r := range refs {
			rs = append(rs, r)
		}
		sort.Strings(rs)
		queue = append(queue, rs...)
	}
	sort.Strings(order)
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by tools/builtintypes from k8s.io/api %s; DO NOT EDIT.\n\npackage v1\n\nimport \"github.com/crdlab/crdlab/internal/objectmeta\"\n\n", apiVersion)
	for _, q := range order {
		key, name, _ := strings.Cut(q, ".")
		p := pkgs[key]
		ts := p.types[name]
		fmt.Fprintf(&b, "// %s mirrors %s %s.\ntype %s %s\n\n", name, key, name, name, render(ts.Type, p, p.fileOf[name], importKey))
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		os.Stderr.Write(b.Bytes())
		fail("format: %v", err)
	}
	if err := os.WriteFile(*outPath, src, 0o644); err != nil {
		fail("%v", err)
	}
}

// resolve names a referenced type: a generated one ("core/v1.X"), a mapped
// external one, or a predeclared one ("").
func resolve(e ast.Expr, p *pkgSource, f *ast.File, importKey map[string]string) (ref, written string) {
	switch t := e.(type) {
	case *ast.Ident:
		if _, ok := p.types[t.Name]; ok {
			return p.key + "." + t.Name, t.Name
		}
		return "", t.Name
	case *ast.SelectorExpr:
		path := p.imports[f][t.X.(*ast.Ident).Name]
		full := path + "." + t.Sel.Name
		if m, ok := external[full]; ok {
			if strings.Contains(m, "/") {
				_, n, _ := strings.Cut(m, ".")
				return m, n
			}
			return "", m
		}
		if k, ok := importKey[path]; ok {
			return k + "." + t.Sel.Name, t.Sel.Name
		}
		fail("unmapped reference %s", full)
	}
	return "", ""
}

func collect(e ast.Expr, p *pkgSource, f *ast.File, importKey map[string]string, refs map[string]bool) {
	switch t := e.(type) {
	case *ast.Ident, *ast.SelectorExpr:
		if r, _ := resolve(t, p, f, importKey); r != "" {
			refs[r] = true
		}
	case *ast.StarExpr:
		collect(t.X, p, f, importKey, refs)
	case *ast.ArrayType:
		collect(t.Elt, p, f, importKey, refs)
	case *ast.MapType:
		collect(t.Key, p, f, importKey, refs)
		collect(t.Value, p, f, importKey, refs)
	case *ast.StructType:
		for _, fld := range t.Fields.List {
			collect(fld.Type, p, f, importKey, refs)
		}
	default:
		fail("unsupported type expression %T", e)
	}
}

func render(e ast.Expr, p *pkgSource, f *ast.File, importKey map[string]string) string {
	switch t := e.(type) {
	case *ast.Ident, *ast.SelectorExpr:
		_, w := resolve(t, p, f, importKey)
		return w
	case *ast.StarExpr:
		return "*" + render(t.X, p, f, importKey)
	case *ast.ArrayType:
		return "[]" + render(t.Elt, p, f, importKey)
	case *ast.MapType:
		return "map[" + render(t.Key, p, f, importKey) + "]" + render(t.Value, p, f, importKey)
	case *ast.StructType:
		var b strings.Builder
		b.WriteString("struct {\n")
		for _, fld := range t.Fields.List {
			typ := render(fld.Type, p, f, importKey)
			tag := ""
			if fld.Tag != nil {
				tag = " " + keepJSONTag(fld.Tag.Value)
			}
			if len(fld.Names) == 0 {
				b.WriteString(typ + tag + "\n")
				continue
			}
			for _, n := range fld.Names {
				b.WriteString(n.Name + " " + typ + tag + "\n")
			}
		}
		b.WriteString("}")
		return b.String()
	}
	fail("unsupported type expression %T", e)
	return ""
}

// keepJSONTag keeps only the json key of a struct tag (protobuf tags are
// upstream's wire format, not the JSON shape).
func keepJSONTag(tag string) string {
	s := strings.Trim(tag, "`")
	i := strings.Index(s, `json:"`)
	if i < 0 {
		return ""
	}
	rest := s[i+len(`json:"`):]
	j := strings.Index(rest, `"`)
	return "`json:\"" + rest[:j] + "\"`"
}
