package library

import (
	"fmt"
	"math"
	"net/netip"
	"net/url"
	"reflect"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// CEL types introduced by the Kubernetes libraries. Names match upstream's
// k8s.io/apiserver/pkg/cel declarations.
var (
	// URLType is kubernetes.URL (an object type, as upstream).
	URLType = cel.ObjectType("kubernetes.URL")
	// QuantityType is kubernetes.Quantity.
	QuantityType = cel.ObjectType("kubernetes.Quantity")
	// IPType is the opaque type net.IP.
	IPType = cel.OpaqueType("net.IP")
	// CIDRType is the opaque type net.CIDR.
	CIDRType = cel.OpaqueType("net.CIDR")
	// FormatType is kubernetes.NamedFormat.
	FormatType = cel.ObjectType("kubernetes.NamedFormat")
	// SemverType is kubernetes.Semver.
	SemverType = cel.ObjectType("kubernetes.Semver")

	// Authorization types (declared only; no value of these types exists in a CRD environment).
	AuthorizerType    = cel.ObjectType("kubernetes.authorization.Authorizer")
	PathCheckType     = cel.ObjectType("kubernetes.authorization.PathCheck")
	GroupCheckType    = cel.ObjectType("kubernetes.authorization.GroupCheck")
	ResourceCheckType = cel.ObjectType("kubernetes.authorization.ResourceCheck")
	DecisionType      = cel.ObjectType("kubernetes.authorization.Decision")

	// runtime type values used by ConvertToType/Type, as upstream's types.NewTypeValue.
	urlTypeValue      = types.NewTypeValue("kubernetes.URL")
	quantityTypeValue = types.NewTypeValue("kubernetes.Quantity")
)

// URL is the CEL value of kubernetes.URL.
type URL struct {
	*url.URL
}

// ConvertToNative implements ref.Val.
func (d URL) ConvertToNative(typeDesc reflect.Type) (interface{}, error) {
	if reflect.TypeOf(d.URL).AssignableTo(typeDesc) {
		return d.URL, nil
	}
	if reflect.TypeOf("").AssignableTo(typeDesc) {
		return d.URL.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'URL' to '%v'", typeDesc)
}

// ConvertToType implements ref.Val.
func (d URL) ConvertToType(typeVal ref.Type) ref.Val {
	switch typeVal {
	case urlTypeValue:
		return d
	case types.TypeType:
		return urlTypeValue
	}
	return types.NewErr("type conversion error from '%s' to '%s'", urlTypeValue, typeVal)
}

// Equal implements ref.Val.
func (d URL) Equal(other ref.Val) ref.Val {
	o, ok := other.(URL)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(d.URL.String() == o.URL.String())
}

// Type implements ref.Val.
func (d URL) Type() ref.Type { return urlTypeValue }

// Value implements ref.Val.
func (d URL) Value() interface{} { return d.URL }

// Quantity is the CEL value of kubernetes.Quantity. As upstream, add and sub
// return *Quantity while quantity() returns Quantity; equality only accepts a
// Quantity (not a pointer) on the right-hand side.
type Quantity struct {
	*ResourceQuantity
}

// ConvertToNative implements ref.Val.
func (d Quantity) ConvertToNative(typeDesc reflect.Type) (interface{}, error) {
	if reflect.TypeOf(d.ResourceQuantity).AssignableTo(typeDesc) {
		return d.ResourceQuantity, nil
	}
	if reflect.TypeOf("").AssignableTo(typeDesc) {
		return d.ResourceQuantity.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'Quantity' to '%v'", typeDesc)
}

// ConvertToType implements ref.Val.
func (d Quantity) ConvertToType(typeVal ref.Type) ref.Val {
	switch typeVal {
	case quantityTypeValue:
		return d
	case types.TypeType:
		return quantityTypeValue
	default:
		return types.NewErr("type conversion error from '%s' to '%s'", quantityTypeValue, typeVal)
	}
}

// Equal implements ref.Val.
func (d Quantity) Equal(other ref.Val) ref.Val {
	o, ok := other.(Quantity)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(d.ResourceQuantity.Equal(*o.ResourceQuantity))
}

// Type implements ref.Val.
func (d Quantity) Type() ref.Type { return quantityTypeValue }

// Value implements ref.Val.
func (d Quantity) Value() interface{} { return d.ResourceQuantity }

// IP is the CEL value of net.IP.
type IP struct {
	netip.Addr
}

// ConvertToNative implements ref.Val.
func (d IP) ConvertToNative(typeDesc reflect.Type) (any, error) {
	if reflect.TypeOf(d.Addr).AssignableTo(typeDesc) {
		return d.Addr, nil
	}
	if reflect.TypeOf("").AssignableTo(typeDesc) {
		return d.Addr.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'IP' to '%v'", typeDesc)
}

// ConvertToType implements ref.Val.
func (d IP) ConvertToType(typeVal ref.Type) ref.Val {
	switch typeVal {
	case IPType:
		return d
	case types.TypeType:
		return IPType
	case types.StringType:
		return types.String(d.Addr.String())
	}
	return types.NewErr("type conversion error from '%s' to '%s'", IPType, typeVal)
}

// Equal implements ref.Val.
func (d IP) Equal(other ref.Val) ref.Val {
	o, ok := other.(IP)
	if !ok {
		return types.ValOrErr(other, "no such overload")
	}
	return types.Bool(d.Addr == o.Addr)
}

// Type implements ref.Val.
func (d IP) Type() ref.Type { return IPType }

// Value implements ref.Val.
func (d IP) Value() any { return d.Addr }

// Size implements traits.Sizer: the address length in bytes.
func (d IP) Size() ref.Val {
	return types.Int(int(math.Ceil(float64(d.Addr.BitLen()) / 8)))
}

// CIDR is the CEL value of net.CIDR.
type CIDR struct {
	netip.Prefix
}

// ConvertToNative implements ref.Val.
func (d CIDR) ConvertToNative(typeDesc reflect.Type) (any, error) {
	if reflect.TypeOf(d.Prefix).AssignableTo(typeDesc) {
		return d.Prefix, nil
	}
	if reflect.TypeOf("").AssignableTo(typeDesc) {
		return d.Prefix.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'CIDR' to '%v'", typeDesc)
}

// ConvertToType implements ref.Val.
func (d CIDR) ConvertToType(typeVal ref.Type) ref.Val {
	switch typeVal {
	case CIDRType:
		return d
	case types.TypeType:
		return CIDRType
	case types.StringType:
		return types.String(d.Prefix.String())
	}
	return types.NewErr("type conversion error from '%s' to '%s'", CIDRType, typeVal)
}

// Equal implements ref.Val.
func (d CIDR) Equal(other ref.Val) ref.Val {
	o, ok := other.(CIDR)
	if !ok {
		return types.ValOrErr(other, "no such overload")
	}
	return types.Bool(d.Prefix == o.Prefix)
}

// Type implements ref.Val.
func (d CIDR) Type() ref.Type { return CIDRType }

// Value implements ref.Val.
func (d CIDR) Value() any { return d.Prefix }

// Size implements traits.Sizer: the prefix length in bytes (rounded up).
func (d CIDR) Size() ref.Val {
	return types.Int(int(math.Ceil(float64(d.Prefix.Bits()) / 8)))
}

// Format is the CEL value of kubernetes.NamedFormat.
type Format struct {
	Name         string
	ValidateFunc func(string) []string
	MaxRegexSize int
}

// ConvertToNative implements ref.Val.
func (d Format) ConvertToNative(typeDesc reflect.Type) (interface{}, error) {
	return nil, fmt.Errorf("type conversion error from 'Format' to '%v'", typeDesc)
}

// ConvertToType implements ref.Val.
func (d Format) ConvertToType(typeVal ref.Type) ref.Val {
	switch typeVal {
	case FormatType:
		return d
	case types.TypeType:
		return FormatType
	default:
		return types.NewErr("type conversion error from '%s' to '%s'", FormatType, typeVal)
	}
}

// Equal implements ref.Val.
func (d Format) Equal(other ref.Val) ref.Val {
	o, ok := other.(Format)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(d.Name == o.Name)
}

// Type implements ref.Val.
func (d Format) Type() ref.Type { return FormatType }

// Value implements ref.Val.
func (d Format) Value() interface{} { return d }

// Semver is the CEL value of kubernetes.Semver.
type Semver struct {
	Version SemverVersion
}

// ConvertToNative implements ref.Val.
func (v Semver) ConvertToNative(typeDesc reflect.Type) (interface{}, error) {
	if reflect.TypeOf(v.Version).AssignableTo(typeDesc) {
		return v.Version, nil
	}
	if reflect.TypeOf("").AssignableTo(typeDesc) {
		return v.Version.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'Semver' to '%v'", typeDesc)
}

// ConvertToType implements ref.Val.
func (v Semver) ConvertToType(typeVal ref.Type) ref.Val {
	switch typeVal {
	case SemverType:
		return v
	case types.TypeType:
		return SemverType
	default:
		return types.NewErr("type conversion error from '%s' to '%s'", SemverType, typeVal)
	}
}

// Equal implements ref.Val.
func (v Semver) Equal(other ref.Val) ref.Val {
	o, ok := other.(Semver)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(v.Version.Compare(o.Version) == 0)
}

// Type implements ref.Val.
func (v Semver) Type() ref.Type { return SemverType }

// Value implements ref.Val.
func (v Semver) Value() interface{} { return v.Version }
