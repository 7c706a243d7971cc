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

// TestJSConstantsAreWire: the WIRE object of bindings/js (index.js) and its
// declaration (index.d.ts) hold exactly this package's ops, error codes and
// ABI version.
func TestJSConstantsAreWire(t *testing.T) {
	ops, codes := goConstants(t, "Op", "Op"), goConstants(t, "ErrorCode", "Code")
	for _, file := range []string{"index.js", "index.d.ts"} {
		b, err := os.ReadFile(filepath.Join(jsDir, file))
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		wire := src[strings.Index(src, "WIRE"):]
		if got := jsPairs(jsBlock(t, wire, file, "Op")); !reflect.DeepEqual(got, ops) {
			t.Errorf("%s: WIRE.Op = %v, want %v (wire.Op constants)", file, got, ops)
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

// TestJSTypesAreWire: the interfaces of index.d.ts named as this package's
// types have the same members, optional exactly where Go omits empty ones.
func TestJSTypesAreWire(t *testing.T) {
	src := tsdecl.Read(t, filepath.Join(jsDir, "index.d.ts"))
	for _, v := range []interface{}{Report{}, CRDReport{}, ObjectReport{}, ErrorReport{}, Position{}, VersionResult{}, CompileResult{}, LintResult{}, DocumentReport{}, ValidateAllResult{},
		UpgradeReport{}, StoredObjectReport{}, StoredReadReport{}, RequestReport{}, SchemaChange{}, TestReport{}, TestCaseResult{}, TestLoadError{}, ConversionReport{}, ConvertedObject{}} {
		typ := reflect.TypeOf(v)
		tsdecl.CheckInterface(t, src, typ.Name(), typ)
	}
}
