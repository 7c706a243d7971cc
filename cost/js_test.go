package cost

import (
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestJSTypesAreCost: the cost interfaces of the JavaScript bindings'
// index.d.ts (CostReport, CostRule, ...) have this package's JSON members,
// optional exactly where Go omits empty ones.
func TestJSTypesAreCost(t *testing.T) {
	b, err := os.ReadFile("../bindings/js/src/index.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	member := regexp.MustCompile(`(?m)^  (?:readonly\s+)?(\w+)(\??):`)
	for _, v := range []interface{}{Report{}, Limits{}, Rule{}, Suggestion{}, SchemaTotal{}, ObjectCosts{}, Advice{}} {
		typ := reflect.TypeOf(v)
		name := "Cost" + typ.Name()
		switch typ.Name() {
		case "ObjectCosts":
			name = "CostObject"
		case "Limits":
			name = "CostLimits"
		}
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
