package dra

import (
	"strings"
	"testing"
)

func TestDecodeNamesTheBadFieldAndWhatWasExpected(t *testing.T) {
	const head = `{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},`
	for _, tc := range []struct{ name, body, want string }{
		{"unknown version", `{"apiVersion":"resource.k8s.io/v9","kind":"ResourceSlice"}`, `apiVersion "resource.k8s.io/v9": expected one of resource.k8s.io/v1, resource.k8s.io/v1beta2, resource.k8s.io/v1beta1`},
		{"unknown kind", `{"apiVersion":"resource.k8s.io/v1","kind":"DeviceTaintRule","spec":{}}`, `kind "DeviceTaintRule": expected DeviceClass, ResourceClaim, ResourceClaimTemplate or ResourceSlice`},
		{"no spec", head + `"spec":null}`, `spec: Required value`},
		{"devices not a list", head + `"spec":{"driver":"d","devices":3}}`, `spec.devices: expected a list, got a JSON number`},
		{"attribute of the wrong type", head + `"spec":{"driver":"d","devices":[{"name":"x","attributes":{"a":{"int":"x"}}}]}}`, `spec.devices.attributes.int: expected an integer, got a JSON string`},
		{"attribute without a value", head + `"spec":{"driver":"d","devices":[{"name":"x","attributes":{"a":{}}}]}}`, `spec.devices[0].attributes[a]: expected exactly one of int, bool, string, version (or their lists), got 0`},
		{"attribute with two values", head + `"spec":{"driver":"d","devices":[{"name":"x","attributes":{"a":{"int":1,"bool":true}}}]}}`, `got 2`},
		{"capacity not a quantity", head + `"spec":{"driver":"d","devices":[{"name":"x","capacity":{"c":{"value":"12xyz"}}}]}}`, `spec.devices[0].capacity[c].value: quantities must match the regular expression`},
		{"capacity an object", head + `"spec":{"driver":"d","devices":[{"name":"x","capacity":{"c":{"value":{"x":1}}}}]}}`, `spec.devices[0].capacity[c].value: expected a quantity ("40Gi"), got {"x":1}`},
		{"request without exactly or firstAvailable", `{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c"},"spec":{"devices":{"requests":[{"name":"r"}]}}}`, `spec.devices.requests[0]: exactly or firstAvailable: Required value`},
		{"not JSON", `{`, `unexpected end of JSON input`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte(tc.body))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestDecodeReadsEveryServedShape(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"v1 slice", `{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","spec":{"driver":"d","pool":{"name":"p"},"devices":[{"name":"x","attributes":{"a":{"int":1}},"capacity":{"m":{"value":"1Gi"}}}]}}`, "d p x 1 1Gi"},
		{"v1beta1 slice (basic)", `{"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceSlice","spec":{"driver":"d","pool":{"name":"p"},"devices":[{"name":"x","basic":{"attributes":{"a":{"int":1}},"capacity":{"m":{"value":2}}}}]}}`, "d p x 1 2"},
		{"v1 claim", `{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"c","selectors":[{"cel":{"expression":"true"}}]}}]}}}`, "r c spec.devices.requests[0].exactly true"},
		{"v1beta1 claim (flat)", `{"apiVersion":"resource.k8s.io/v1beta1","kind":"ResourceClaim","spec":{"devices":{"requests":[{"name":"r","deviceClassName":"c","selectors":[{"cel":{"expression":"true"}}]}]}}}`, "r c spec.devices.requests[0] true"},
		{"v1 template firstAvailable", `{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate","spec":{"spec":{"devices":{"requests":[{"name":"r","firstAvailable":[{"name":"a","deviceClassName":"c","selectors":[{"cel":{"expression":"true"}}]}]}]}}}}`, "r/a c spec.spec.devices.requests[0].firstAvailable[0] true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := Decode([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			var got string
			switch {
			case len(o.Devices) == 1:
				d := o.Devices[0]
				got = strings.Join([]string{o.Driver, o.Pool, d.Name, "1", d.Capacity["m"]}, " ")
				if *d.Attributes["a"].Int != 1 {
					t.Errorf("attribute a = %+v", d.Attributes["a"])
				}
			case len(o.Requests) == 1:
				r := o.Requests[0]
				if len(r.FirstAvailable) == 1 {
					r = r.FirstAvailable[0]
				}
				got = strings.Join([]string{r.Name, r.DeviceClassName, r.Path, r.Selectors[0].CEL.Expression}, " ")
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
