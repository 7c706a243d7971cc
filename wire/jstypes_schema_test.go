package wire

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/crdlab/crdlab/internal/testsupport/tsdecl"
)

// TestJSTypesAreWireSchema: index.d.ts declares the "schema" result types
// with this package's members, optional exactly where Go omits empty ones.
func TestJSTypesAreWireSchema(t *testing.T) {
	src := tsdecl.Read(t, filepath.Join(jsDir, "index.d.ts"))
	for _, v := range []interface{}{SchemaResult{}, SchemaDocument{}} {
		typ := reflect.TypeOf(v)
		tsdecl.CheckInterface(t, src, typ.Name(), typ)
	}
}
