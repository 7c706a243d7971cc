package library

import (
	"fmt"
	"net/url"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/decls"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/internal/strfmt"
)

// Regex sizes used by the runtime cost of validate (format.go).
const (
	base64Length = 84
	urlLength    = 1103
)

// FormatLib returns the kubernetes.format library.
func FormatLib() cel.EnvOption {
	return cel.Lib(newLib("kubernetes.format", []*cel.Type{FormatType}, formatDecls))
}

// ConstantFormats are the named formats, keyed by the name used in
// format.<name>() and format.named("<name>").
var ConstantFormats = map[string]Format{
	"dns1123Label":           {Name: "DNS1123Label", ValidateFunc: func(s string) []string { return names.NameIsDNSLabel(s, false) }, MaxRegexSize: 30},
	"dns1123Subdomain":       {Name: "DNS1123Subdomain", ValidateFunc: func(s string) []string { return names.NameIsDNSSubdomain(s, false) }, MaxRegexSize: 60},
	"dns1035Label":           {Name: "DNS1035Label", ValidateFunc: func(s string) []string { return names.NameIsDNS1035Label(s, false) }, MaxRegexSize: 30},
	"qualifiedName":          {Name: "QualifiedName", ValidateFunc: names.IsQualifiedName, MaxRegexSize: 60},
	"dns1123LabelPrefix":     {Name: "DNS1123LabelPrefix", ValidateFunc: func(s string) []string { return names.NameIsDNSLabel(s, true) }, MaxRegexSize: 30},
	"dns1123SubdomainPrefix": {Name: "DNS1123SubdomainPrefix", ValidateFunc: func(s string) []string { return names.NameIsDNSSubdomain(s, true) }, MaxRegexSize: 60},
	"dns1035LabelPrefix":     {Name: "DNS1035LabelPrefix", ValidateFunc: func(s string) []string { return names.NameIsDNS1035Label(s, true) }, MaxRegexSize: 30},
	"labelValue":             {Name: "LabelValue", ValidateFunc: names.IsValidLabelValue, MaxRegexSize: 40},
	"uri": {Name: "URI", ValidateFunc: func(s string) []string {
		if _, err := url.ParseRequestURI(s); err != nil {
			return []string{err.Error()}
		}
		return nil
	}, MaxRegexSize: urlLength},
	"uuid": {Name: "uuid", ValidateFunc: func(s string) []string {
		if !strfmt.IsUUID(s) {
			return []string{"does not match the UUID format"}
		}
		return nil
	}, MaxRegexSize: len(strfmt.UUIDPattern)},
	"byte": {Name: "byte", ValidateFunc: func(s string) []string {
		if !strfmt.IsBase64(s) {
			return []string{"invalid base64"}
		}
		return nil
	}, MaxRegexSize: base64Length},
	"date": {Name: "date", ValidateFunc: func(s string) []string {
		if !strfmt.IsDate(s) {
			return []string{"invalid date"}
		}
		return nil
	}, MaxRegexSize: len(strfmt.DateTimePattern)},
	"datetime": {Name: "datetime", ValidateFunc: func(s string) []string {
		if !strfmt.IsDateTime(s) {
			return []string{"invalid datetime"}
		}
		return nil
	}, MaxRegexSize: len(strfmt.DateTimePattern)},
}

// zeroArgumentBinding is upstream's ZeroArgumentFunctionBinding.
func zeroArgumentBinding(binding func() ref.Val) decls.OverloadOpt {
	return func(o *decls.OverloadDecl) (*decls.OverloadDecl, error) {
		wrapped, err := decls.FunctionBinding(func(values ...ref.Val) ref.Val { return binding() })(o)
		if err != nil {
			return nil, err
		}
		if len(wrapped.ArgTypes()) != 0 {
			return nil, fmt.Errorf("function binding must have 0 arguments")
		}
		return o, nil
	}
}

func formatDecls() map[string][]cel.FunctionOpt {
	d := map[string][]cel.FunctionOpt{
		"validate": {cel.MemberOverload("format-validate", []*cel.Type{FormatType, cel.StringType},
			cel.OptionalType(cel.ListType(cel.StringType)), cel.BinaryBinding(formatValidate))},
		"format.named": {cel.Overload("format-named", []*cel.Type{cel.StringType}, cel.OptionalType(FormatType),
			cel.UnaryBinding(func(name ref.Val) ref.Val {
				n, ok := name.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(name)
				}
				f, ok := ConstantFormats[n]
				if !ok {
					return types.OptionalNone
				}
				return types.OptionalOf(f)
			}))},
	}
	for name, f := range ConstantFormats {
		f := f
		prefixed := "format." + name
		d[prefixed] = []cel.FunctionOpt{cel.Overload(prefixed, []*cel.Type{}, FormatType, zeroArgumentBinding(func() ref.Val { return f }))}
	}
	return d
}

func formatValidate(arg1, arg2 ref.Val) ref.Val {
	f, ok := arg1.Value().(Format)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg1)
	}
	s, ok := arg2.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg2)
	}
	res := f.ValidateFunc(s)
	if len(res) == 0 {
		return types.OptionalNone
	}
	return types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, res))
}
