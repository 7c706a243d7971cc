package wasmfile

import (
	"strings"
	"testing"
)

// module builds a minimal module: one imported function, two defined
// functions with bodies of 2 and 3 bytes, and a name section.
func module(names bool) []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	sec := func(id byte, payload []byte) {
		b = append(b, id, byte(len(payload)))
		b = append(b, payload...)
	}
	sec(1, []byte{1, 0x60, 0, 0})                                // type: () -> ()
	sec(2, append([]byte{1, 1, 'm', 1, 'f', 0, 0}, []byte{}...)) // import m.f func type 0
	sec(3, []byte{2, 0, 0})                                      // two functions of type 0
	sec(10, []byte{2, 2, 0, 0x0b, 3, 0, 0x01, 0x0b})             // bodies
	if names {
		sub := []byte{3, 0, 3, 'i', 'm', 'p', 1, 5, 'a', '/', 'b', '.', 'F', 2, 7, 'r', 't', '.', 'm', 'a', 'i', 'n'}
		payload := append([]byte{4, 'n', 'a', 'm', 'e', 1, byte(len(sub))}, sub...)
		sec(0, payload)
	}
	return b
}

func TestParseAttributesBodiesToNames(t *testing.T) {
	m, err := Parse(module(true))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Funcs) != 2 || m.Funcs[0] != (Func{"a/b.F", 2}) || m.Funcs[1] != (Func{"rt.main", 3}) {
		t.Fatalf("funcs = %+v", m.Funcs)
	}
	var got []string
	for _, s := range m.Sections {
		got = append(got, s.Name)
	}
	if strings.Join(got, ",") != "type,import,function,code,custom:name" {
		t.Fatalf("sections = %v", got)
	}
}

func TestParseWithoutNamesListsNoFuncs(t *testing.T) {
	m, err := Parse(module(false))
	if err != nil {
		t.Fatal(err)
	}
	if m.Funcs != nil {
		t.Fatalf("funcs = %+v", m.Funcs)
	}
}

func TestParseRejectsMalformedInputWithoutPanicking(t *testing.T) {
	good := module(true)
	for n := 0; n < len(good); n++ {
		if _, err := Parse(good[:n]); err == nil && n < 8 {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	for _, bad := range []string{"", "\x00asm", "\x00asm\x02\x00\x00\x00", "\x00asm\x01\x00\x00\x00\x0d\x00", "\x00asm\x01\x00\x00\x00\x0a\x05\xff\xff\xff\xff\xff"} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q): no error", bad)
		}
	}
}

func TestPackageOfMangledGoSymbols(t *testing.T) {
	known := NewPackages([]string{"runtime", "github.com/google/cel-go/parser", "github.com/google/cel-go/parser/gen",
		"go.yaml.in/yaml/v2", "encoding/json", "github.com/crdlab/crdlab/engine/field", "internal/runtime/maps"})
	tests := map[string]string{
		"runtime.mallocgc": "runtime",
		"github.com_google_cel_go_parser.__parser_.Visit":       "github.com/google/cel-go/parser",
		"github.com_google_cel_go_parser_gen.__CELParser_.Expr": "github.com/google/cel-go/parser/gen",
		"go.yaml.in_yaml_v2.yaml_insert_token":                  "go.yaml.in/yaml/v2",
		"encoding_json.__decodeState_.object":                   "encoding/json",
		"type_.eq.github.com_crdlab_crdlab_engine_field.Error":  "github.com/crdlab/crdlab/engine/field",
		"internal_runtime_maps.__Map_.getWithKey":               "internal/runtime/maps",
		"example.com_unknown_pkg.F":                             "example.com_unknown_pkg",
		"unknown_std.F":                                         "unknown_std",
	}
	for sym, want := range tests {
		if got := known.Package(sym); got != want {
			t.Errorf("Package(%q) = %q, want %q", sym, got, want)
		}
	}
}

func TestGroupByModule(t *testing.T) {
	tests := map[string]string{
		"runtime":                               "std",
		"encoding/json":                         "std",
		"github.com/google/cel-go/parser":       "github.com/google/cel-go",
		"golang.org/x/text/unicode/norm":        "golang.org/x/text",
		"google.golang.org/protobuf/proto":      "google.golang.org/protobuf",
		"github.com/crdlab/crdlab/internal/cel": "github.com/crdlab/crdlab/internal",
		"sigs.k8s.io/yaml":                      "sigs.k8s.io/yaml",
	}
	for pkg, want := range tests {
		if got := Group(pkg); got != want {
			t.Errorf("Group(%q) = %q, want %q", pkg, got, want)
		}
	}
}
