package wire

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/testsupport/tsdecl"
)

// jsDir holds the JavaScript bindings, whose op names, error codes and
// types must be this package's.
var jsDir = filepath.Join("..", "bindings", "js", "src")

// goConstants returns the constants of wire.go declared with the named
// type, by name without prefix (OpCompile → Compile), and their values.
func goConstants(t *testing.T, typ, prefix string) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "wire.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != typ {
				continue
			}
			for i, n := range v.Names {
				lit, ok := v.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING || !strings.HasPrefix(n.Name, prefix) {
					t.Fatalf("constant %s of type %s: want a string literal and the prefix %s", n.Name, typ, prefix)
				}
				val, _ := strconv.Unquote(lit.Value)
				out[strings.TrimPrefix(n.Name, prefix)] = val
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no constants of type %s in wire.go", typ)
	}
	return out
}

var (
	jsPair   = regexp.MustCompile(`(?m)^\s*(?:readonly\s+)?(\w+):\s*'([^']*)'[;,]?\s*$`)
	jsNumber = regexp.MustCompile(`(?m)^\s*(?:readonly\s+)?ABI_VERSION:\s*(\d+)[;,]?\s*$`)
)

// jsBlock returns the text of the object literal (or type) that follows
// "<name>: " in src, up to its closing brace.
func jsBlock(t *testing.T, src, file, name string) string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^\s*(?:readonly\s+)?` + name + `:\s*(?:Object\.freeze\(\s*)?\{`)
	loc := re.FindStringIndex(src)
	if loc == nil {
		t.Fatalf("%s: no %s block", file, name)
	}
	end := strings.Index(src[loc[1]:], "}")
	if end < 0 {
		t.Fatalf("%s: unterminated %s block", file, name)
	}
	return src[loc[1] : loc[1]+end]
}

func jsPairs(block string) map[string]string {
	out := map[string]string{}
	for _, m := range jsPair.FindAllStringSubmatch(block, -1) {
		out[m[1]] = m[2]
	}
	return out
}

// jsOps is WIRE.Op as Ops implies it: each op under its name with the
// first letter upper-cased (validateAll → ValidateAll), as the Go
// constants are named without their Op prefix.
func jsOps() map[string]string {
	out := map[string]string{}
	for _, o := range Ops {
		name := string(o.Op)
		out[strings.ToUpper(name[:1])+name[1:]] = name
	}
	return out
}

// TestJSConstantsAreWire: the WIRE object of bindings/js (index.js) and its
// declaration (index.d.ts) hold exactly the ops of Ops, this package's
// error codes and ABI version.
func TestJSConstantsAreWire(t *testing.T) {
	ops, codes := jsOps(), goConstants(t, "ErrorCode", "Code")
	if consts := goConstants(t, "Op", "Op"); !reflect.DeepEqual(consts, ops) {
		t.Errorf("the Op constants of wire.go %v are not the ops of Ops %v", consts, ops)
	}
	for _, file := range []string{"index.js", "index.d.ts"} {
		b, err := os.ReadFile(filepath.Join(jsDir, file))
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		wire := src[strings.Index(src, "WIRE"):]
		if got := jsPairs(jsBlock(t, wire, file, "Op")); !reflect.DeepEqual(got, ops) {
			t.Errorf("%s: WIRE.Op = %v, want %v (wire.Ops)", file, got, ops)
		}
		if got := jsPairs(jsBlock(t, wire, file, "Code")); !reflect.DeepEqual(got, codes) {
			t.Errorf("%s: WIRE.Code = %v, want %v (wire.ErrorCode constants)", file, got, codes)
		}
		if file == "index.js" && regexp.MustCompile(`op:\s*['"]|CrdlabError\(\s*['"]|code\s*\?\?\s*['"]`).MatchString(src) {
			t.Errorf("index.js spells an op or error code as a literal: use WIRE.Op, WIRE.Code")
		}
		m := jsNumber.FindStringSubmatch(wire)
		if m == nil || m[1] != strconv.Itoa(ABIVersion) {
			t.Errorf("%s: WIRE.ABI_VERSION = %v, want %d", file, m, ABIVersion)
		}
	}
}

// notDeclaredInJS are the wire types of results that index.d.ts does not
// declare as interfaces, and why.
var notDeclaredInJS = map[string]string{
	"Error":      "an error response is thrown as CrdlabError (code, message)",
	"FreeResult": "free returns nothing",
}

// resultTypes returns the struct types of this package that the results
// of Ops are made of: each result type and, recursively, the types of its
// fields (through pointers, slices and maps).
func resultTypes() []reflect.Type {
	pkg := reflect.TypeOf(Report{}).PkgPath()
	seen := map[reflect.Type]bool{}
	var out []reflect.Type
	var visit func(reflect.Type)
	visit = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map || typ.Kind() == reflect.Array {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || typ.PkgPath() != pkg || seen[typ] {
			return
		}
		seen[typ] = true
		out = append(out, typ)
		for i := 0; i < typ.NumField(); i++ {
			visit(typ.Field(i).Type)
		}
	}
	for _, o := range Ops {
		if o.Result != nil {
			visit(reflect.TypeOf(o.Result))
		}
	}
	return out
}

// TestJSTypesAreWire: index.d.ts declares every type the results of Ops
// are made of (resultTypes) as an interface with the same members,
// optional exactly where Go omits empty ones.
func TestJSTypesAreWire(t *testing.T) {
	src := tsdecl.Read(t, filepath.Join(jsDir, "index.d.ts"))
	types := resultTypes()
	if len(types) < 20 {
		t.Fatalf("only %d result types found from Ops", len(types))
	}
	for _, typ := range types {
		if _, ok := notDeclaredInJS[typ.Name()]; ok {
			continue
		}
		tsdecl.CheckInterface(t, src, typ.Name(), typ)
	}
}

// TestOpsAreEveryOp: Ops names every op once, its requests are members of
// the Request union, and OpNames lists them in order.
func TestOpsAreEveryOp(t *testing.T) {
	union := jsonMembers(reflect.TypeOf(Request{}))
	seen := map[Op]bool{}
	for _, o := range Ops {
		if seen[o.Op] {
			t.Errorf("%s: listed twice", o.Op)
		}
		seen[o.Op] = true
		if (o.Result == nil) == (o.ResultOf == "") {
			t.Errorf("%s: give exactly one of Result and ResultOf", o.Op)
		}
		for m := range jsonMembers(reflect.TypeOf(o.Request)) {
			if !union[m] {
				t.Errorf("%s: request member %q is not a member of Request", o.Op, m)
			}
		}
	}
	if got, want := OpNames(), "version, compile, lint, validate, validateAll, cost, free, upgrade, test, schema, bench, conversionReview, complete, admit or apply"; got != want {
		t.Errorf("OpNames() = %q, want %q", got, want)
	}
}

// jsonMembers returns the JSON member names of a struct type.
func jsonMembers(typ reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := 0; i < typ.NumField(); i++ {
		name := strings.Split(typ.Field(i).Tag.Get("json"), ",")[0]
		if name != "" && name != "-" {
			out[name] = true
		}
	}
	return out
}
