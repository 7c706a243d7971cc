package dra

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/crdlab/crdlab/internal/cel/library"
)

// The resource.k8s.io objects a selector lives in, in the JSON shape of
// k8s.io/api/resource/v1 (and v1beta2, the same shape; v1beta1 wraps a
// device's attributes and capacity in "basic" and has its requests flat),
// reduced to what selectors and devices need. Decode reads them.

// Selector source: one CEL selector of a class or a request.
type DeviceSelector struct {
	CEL *struct {
		Expression string `json:"expression"`
	} `json:"cel,omitempty"`
}

// Request is one device request of a claim, normalized across versions:
// Exactly's class and selectors, or the alternatives of FirstAvailable.
type Request struct {
	Name            string           `json:"name"`
	DeviceClassName string           `json:"deviceClassName,omitempty"`
	Selectors       []DeviceSelector `json:"selectors,omitempty"`
	// Path is the request's field path in its object
	// (spec.devices.requests[0].exactly).
	Path string `json:"-"`
	// FirstAvailable holds the prioritized alternatives (subrequests).
	FirstAvailable []Request `json:"-"`
}

// SliceDevice is one device of a ResourceSlice.
type SliceDevice struct {
	Name                     string
	AllowMultipleAllocations *bool
	Attributes               map[string]Attribute
	Capacity                 map[string]string
}

// Object is a decoded DeviceClass, ResourceClaim, ResourceClaimTemplate or
// ResourceSlice.
type Object struct {
	APIVersion, Kind, Name, Namespace string
	// ClassSelectors: a DeviceClass's selectors (spec.selectors).
	ClassSelectors []DeviceSelector
	// Requests: a claim's (or a template's spec.spec) requests.
	Requests []Request
	// Driver, Pool and Devices: a ResourceSlice's.
	Driver, Pool string
	Devices      []SliceDevice
}

type attributeJSON struct {
	Int      *int64   `json:"int,omitempty"`
	Bool     *bool    `json:"bool,omitempty"`
	String   *string  `json:"string,omitempty"`
	Version  *string  `json:"version,omitempty"`
	Ints     []int64  `json:"ints,omitempty"`
	Bools    []bool   `json:"bools,omitempty"`
	Strings  []string `json:"strings,omitempty"`
	Versions []string `json:"versions,omitempty"`
}

type capacityJSON struct {
	Value json.RawMessage `json:"value"`
}

type deviceJSON struct {
	Name                     string                   `json:"name"`
	AllowMultipleAllocations *bool                    `json:"allowMultipleAllocations,omitempty"`
	Attributes               map[string]attributeJSON `json:"attributes,omitempty"`
	Capacity                 map[string]capacityJSON  `json:"capacity,omitempty"`
	Basic                    *struct {
		Attributes map[string]attributeJSON `json:"attributes,omitempty"`
		Capacity   map[string]capacityJSON  `json:"capacity,omitempty"`
	} `json:"basic,omitempty"`
}

type requestJSON struct {
	Name            string           `json:"name"`
	DeviceClassName string           `json:"deviceClassName,omitempty"`
	Selectors       []DeviceSelector `json:"selectors,omitempty"`
	Exactly         *struct {
		DeviceClassName string           `json:"deviceClassName"`
		Selectors       []DeviceSelector `json:"selectors,omitempty"`
	} `json:"exactly,omitempty"`
	FirstAvailable []struct {
		Name            string           `json:"name"`
		DeviceClassName string           `json:"deviceClassName"`
		Selectors       []DeviceSelector `json:"selectors,omitempty"`
	} `json:"firstAvailable,omitempty"`
}

type claimSpecJSON struct {
	Devices struct {
		Requests []requestJSON `json:"requests,omitempty"`
	} `json:"devices"`
}

type objectJSON struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
	Spec json.RawMessage `json:"spec"`
}

// Versions are the resource.k8s.io versions Decode reads.
var Versions = []string{"resource.k8s.io/v1", "resource.k8s.io/v1beta2", "resource.k8s.io/v1beta1"}

// Decode reads one object from its JSON form. Errors name the field that
// is wrong and what was expected.
func Decode(data []byte) (*Object, error) {
	var o objectJSON
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, decodeError("", err)
	}
	known := false
	for _, v := range Versions {
		known = known || v == o.APIVersion
	}
	if !known {
		return nil, fmt.Errorf("apiVersion %q: expected one of %s", o.APIVersion, strings.Join(Versions, ", "))
	}
	out := &Object{APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Metadata.Name, Namespace: o.Metadata.Namespace}
	if len(o.Spec) == 0 || string(o.Spec) == "null" {
		return nil, fmt.Errorf("spec: Required value")
	}
	beta1 := o.APIVersion == "resource.k8s.io/v1beta1"
	switch o.Kind {
	case "DeviceClass":
		var spec struct {
			Selectors []DeviceSelector `json:"selectors"`
		}
		if err := json.Unmarshal(o.Spec, &spec); err != nil {
			return nil, decodeError("spec", err)
		}
		out.ClassSelectors = spec.Selectors
	case "ResourceClaim", "ResourceClaimTemplate":
		raw, prefix := o.Spec, "spec"
		if o.Kind == "ResourceClaimTemplate" {
			var t struct {
				Spec json.RawMessage `json:"spec"`
			}
			if err := json.Unmarshal(o.Spec, &t); err != nil {
				return nil, decodeError("spec", err)
			}
			raw, prefix = t.Spec, "spec.spec"
		}
		var spec claimSpecJSON
		if len(raw) > 0 {
			if err := json.Unmarshal(raw, &spec); err != nil {
				return nil, decodeError(prefix, err)
			}
		}
		for i, r := range spec.Devices.Requests {
			req, err := normalizeRequest(r, fmt.Sprintf("%s.devices.requests[%d]", prefix, i), beta1)
			if err != nil {
				return nil, err
			}
			out.Requests = append(out.Requests, req)
		}
	case "ResourceSlice":
		var spec struct {
			Driver string `json:"driver"`
			Pool   struct {
				Name string `json:"name"`
			} `json:"pool"`
			Devices []deviceJSON `json:"devices"`
		}
		if err := json.Unmarshal(o.Spec, &spec); err != nil {
			return nil, decodeError("spec", err)
		}
		out.Driver, out.Pool = spec.Driver, spec.Pool.Name
		for i, d := range spec.Devices {
			dev, err := normalizeDevice(d, fmt.Sprintf("spec.devices[%d]", i), beta1)
			if err != nil {
				return nil, err
			}
			out.Devices = append(out.Devices, dev)
		}
	default:
		return nil, fmt.Errorf("kind %q: expected DeviceClass, ResourceClaim, ResourceClaimTemplate or ResourceSlice", o.Kind)
	}
	return out, nil
}

func decodeError(prefix string, err error) error {
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		p := te.Field
		if prefix != "" {
			p = prefix + "." + p
		}
		return fmt.Errorf("%s: expected %s, got a JSON %s", p, jsonKind(te.Type), te.Value)
	}
	if prefix != "" {
		return fmt.Errorf("%s: %w", prefix, err)
	}
	return err
}

// jsonKind names what a Go type reads from JSON.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int64, reflect.Int:
		return "an integer"
	case reflect.Bool:
		return "a boolean"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return t.String()
}

func normalizeRequest(r requestJSON, path string, beta1 bool) (Request, error) {
	out := Request{Name: r.Name, Path: path}
	switch {
	case beta1 && len(r.FirstAvailable) == 0:
		out.DeviceClassName, out.Selectors = r.DeviceClassName, r.Selectors
	case r.Exactly != nil:
		out.DeviceClassName, out.Selectors, out.Path = r.Exactly.DeviceClassName, r.Exactly.Selectors, path+".exactly"
	case len(r.FirstAvailable) > 0:
		for i, s := range r.FirstAvailable {
			out.FirstAvailable = append(out.FirstAvailable, Request{Name: r.Name + "/" + s.Name, DeviceClassName: s.DeviceClassName,
				Selectors: s.Selectors, Path: fmt.Sprintf("%s.firstAvailable[%d]", path, i)})
		}
	default:
		return out, fmt.Errorf("%s: exactly or firstAvailable: Required value", path)
	}
	return out, nil
}

func normalizeDevice(d deviceJSON, path string, beta1 bool) (SliceDevice, error) {
	attrs, capacity := d.Attributes, d.Capacity
	if beta1 && d.Basic != nil {
		attrs, capacity = d.Basic.Attributes, d.Basic.Capacity
	}
	out := SliceDevice{Name: d.Name, AllowMultipleAllocations: d.AllowMultipleAllocations,
		Attributes: map[string]Attribute{}, Capacity: map[string]string{}}
	for name, a := range attrs {
		n := 0
		for _, set := range []bool{a.Int != nil, a.Bool != nil, a.String != nil, a.Version != nil, a.Ints != nil, a.Bools != nil, a.Strings != nil, a.Versions != nil} {
			if set {
				n++
			}
		}
		if n != 1 {
			return out, fmt.Errorf("%s.attributes[%s]: expected exactly one of int, bool, string, version (or their lists), got %d", path, name, n)
		}
		out.Attributes[name] = Attribute(a)
	}
	for name, c := range capacity {
		v := bytes.TrimSpace(c.Value)
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			// A number is a quantity too.
			var num json.Number
			if err := json.Unmarshal(v, &num); err != nil {
				return out, fmt.Errorf("%s.capacity[%s].value: expected a quantity (\"40Gi\"), got %s", path, name, string(v))
			}
			s = num.String()
		}
		if _, err := library.ParseQuantity(s); err != nil {
			return out, fmt.Errorf("%s.capacity[%s].value: %v", path, name, err)
		}
		out.Capacity[name] = s
	}
	return out, nil
}

// Device is the selector input of a slice's device.
func (o *Object) Device(i int) Device {
	d := o.Devices[i]
	return Device{Driver: o.Driver, AllowMultipleAllocations: d.AllowMultipleAllocations, Attributes: d.Attributes, Capacity: d.Capacity}
}
