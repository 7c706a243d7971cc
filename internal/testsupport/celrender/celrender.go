// Package celrender renders CEL values as deterministic text, using only
// cel-go interfaces, so that crdlab's values (internal/cel/library's tests)
// and upstream's (conformance/cellib_test.go) render identically and their
// golden rows can be compared. Only tests import it.
package celrender

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// Render renders a CEL value deterministically: errors as error(...),
// optionals, strings quoted, bytes as b"...", doubles as double(...), uints
// with a u suffix, lists in order, maps with sorted entries, and other
// values as TypeName(...) (a leading * for pointer values).
func Render(v ref.Val) string {
	switch x := v.(type) {
	case *types.Err:
		return "error(" + x.Error() + ")"
	case *types.Optional:
		if !x.HasValue() {
			return "optional.none()"
		}
		return "optional.of(" + Render(x.GetValue()) + ")"
	case types.String:
		return fmt.Sprintf("%q", string(x))
	case types.Bytes:
		return fmt.Sprintf("b%q", []byte(x))
	case types.Double:
		return fmt.Sprintf("double(%v)", float64(x))
	case types.Uint:
		return fmt.Sprintf("%du", uint64(x))
	case types.Int, types.Bool, types.Null:
		return fmt.Sprintf("%v", x.Value())
	case traits.Lister:
		var parts []string
		for it := x.Iterator(); it.HasNext() == types.True; {
			parts = append(parts, Render(it.Next()))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case traits.Mapper:
		var parts []string
		for it := x.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			parts = append(parts, Render(k)+": "+Render(x.Get(k)))
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ", ") + "}"
	}
	name := v.Type().TypeName()
	ptr := ""
	if reflect.TypeOf(v).Kind() == reflect.Ptr {
		ptr = "*"
	}
	if s, err := v.ConvertToNative(reflect.TypeOf("")); err == nil {
		return fmt.Sprintf("%s%s(%q)", ptr, name, s)
	}
	rv := reflect.ValueOf(v.Value())
	if rv.Kind() == reflect.Struct {
		if f := rv.FieldByName("Name"); f.IsValid() {
			return fmt.Sprintf("%s%s(%s)", ptr, name, f.String())
		}
	}
	return fmt.Sprintf("%s%s(%v)", ptr, name, v.Value())
}
