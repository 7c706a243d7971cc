// Package tsdecl checks the TypeScript declarations of the JavaScript
// bindings (bindings/js/src/index.d.ts) against the Go types whose JSON
// they describe. Only tests import it; it uses the standard library only,
// so that package wire's tests stay dependency-free.
package tsdecl

import (
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// Read returns the declaration file at path.
func Read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var member = regexp.MustCompile(`(?m)^  (?:readonly\s+)?(\w+)(\??):`)

// CheckInterface fails t unless src declares `export interface iface`
// with exactly the JSON members of typ (a struct type), optional ("?")
// exactly where typ's field omits empty values.
func CheckInterface(t testing.TB, src, iface string, typ reflect.Type) {
	t.Helper()
	var want []string
	for i := 0; i < typ.NumField(); i++ {
		tag := strings.Split(typ.Field(i).Tag.Get("json"), ",")
		if tag[0] == "-" || !typ.Field(i).IsExported() {
			continue
		}
		n := tag[0]
		if len(tag) > 1 && tag[1] == "omitempty" {
			n += "?"
		}
		want = append(want, n)
	}
	m := regexp.MustCompile(`(?s)export interface ` + iface + ` \{\n(.*?)\n\}`).FindStringSubmatch(src)
	if m == nil {
		t.Errorf("index.d.ts declares no interface %s", iface)
		return
	}
	var got []string
	for _, mm := range member.FindAllStringSubmatch(m[1], -1) {
		got = append(got, mm[1]+mm[2])
	}
	sort.Strings(got)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("index.d.ts %s has %v, %s %v", iface, got, typ, want)
	}
}
