package wire

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestJSTypesAreWireSchema: index.d.ts declares the "schema" result types
// with this package's members, optional exactly where Go omits empty ones.
func TestJSTypesAreWireSchema(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(jsDir, "index.d.ts"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	member := regexp.MustCompile(`(?m)^  (?:readonly\s+)?(\w+)(\??):`)
	for _, v := range []interface{}{SchemaResult{}, SchemaDocument{}} {
		typ := reflect.TypeOf(v)
		var want []string
		for i := 0; i < typ.NumField(); i++ {
			tag := strings.Split(typ.Field(i).Tag.Get("json"), ",")
			name := tag[0]
			if len(tag) > 1 && tag[1] == "omitempty" {
				name += "?"
			}
			want = append(want, name)
		}
		m := regexp.MustCompile(`(?s)export interface ` + typ.Name() + ` \{\n(.*?)\n\}`).FindStringSubmatch(src)
		if m == nil {
			t.Errorf("index.d.ts declares no interface %s", typ.Name())
			continue
		}
		var got []string
		for _, mm := range member.FindAllStringSubmatch(m[1], -1) {
			got = append(got, mm[1]+mm[2])
		}
		sort.Strings(got)
		sort.Strings(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("index.d.ts %s has %v, wire.%s %v", typ.Name(), got, typ.Name(), want)
		}
	}
}
