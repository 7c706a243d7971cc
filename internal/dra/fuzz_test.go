package dra

import (
	"context"
	"testing"

	kcel "github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// FuzzDecodeAndMatch: any body and expression decode, compile and match
// with an error or an answer, never a panic.
func FuzzDecodeAndMatch(f *testing.F) {
	f.Add(`{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","spec":{"driver":"d","devices":[{"name":"x","attributes":{"a":{"int":1},"o/v":{"version":"1.2.3"}},"capacity":{"m":{"value":"1Gi"}}}]}}`, `device.attributes["d"].a == 1`)
	f.Add(`{"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceSlice","spec":{"devices":[{"basic":{"attributes":{"s":{"strings":["a"]}}}}]}}`, `device.attributes["o"].v.isGreaterThan(semver("1.0.0"))`)
	f.Add(`{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","spec":{"devices":[{"attributes":{"v":{"version":"x"}}}]}}`, `device.capacity["d"].m.isInteger()`)
	rel := kubeversion.Of(37)
	env, err := NewEnv(rel, kcel.StoredExpressions, Defaults(rel))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body, expr string) {
		o, err := Decode([]byte(body))
		sel, cerr := env.Compile(expr)
		if err != nil || cerr != nil {
			return
		}
		for i := range o.Devices {
			r := sel.Matches(context.Background(), o.Device(i))
			if r.Err == nil && r.Cost == nil {
				t.Fatalf("%s on %+v: no error and no cost", expr, o.Devices[i])
			}
		}
	})
}
