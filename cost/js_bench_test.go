package cost

import (
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestJSTypesAreBench: the benchmark interfaces of index.d.ts (BenchReport,
// RuleBench, ...) have this package's JSON members, optional exactly where
// Go omits empty ones.
func TestJSTypesAreBench(t *testing.T) {
	b, err := os.ReadFile("../bindings/js/src/index.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	member := regexp.MustCompile(`(?m)^  (?:readonly\s+)?(\w+)(\??):`)
	names := map[string]interface{}{"BenchReport": BenchReport{}, "BenchMachine": Machine{}, "RuleBench": RuleBench{},
		"ObjectBench": ObjectBench{}, "PhaseBench": PhaseBench{}, "BenchTiming": Timing{}}
	for name, v := range names {
		typ := reflect.TypeOf(v)
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
		m := regexp.MustCompile(`(?s)export interface ` + name + ` \{\n(.*?)\n\}`).FindStringSubmatch(src)
		if m == nil {
			t.Errorf("index.d.ts declares no interface %s", name)
			continue
		}
		var got []string
		for _, mm := range member.FindAllStringSubmatch(m[1], -1) {
			got = append(got, mm[1]+mm[2])
		}
		sort.Strings(got)
		sort.Strings(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("index.d.ts %s has %v, cost.%s %v", name, got, typ.Name(), want)
		}
	}
}
