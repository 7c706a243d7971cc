package conversion

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/crdlab/crdlab/internal/jsonstrict"
	"github.com/crdlab/crdlab/internal/objectmeta"
)

// This file mirrors how the API server's webhook client decodes the
// webhook's answer into the ConversionReview of the request's version
// (rest.Result.Into with the LegacyCodec of webhook.NewClientManager: the
// json serializer, non-strict and case-sensitive, then the scheme's
// conversion into the typed review).

const group = "apiextensions.k8s.io"

// groupVersion mirrors schema.GroupVersion.String.
func groupVersion(g, v string) string {
	if g == "" {
		return v
	}
	return g + "/" + v
}

// gvkString mirrors schema.GroupVersionKind.String.
func gvkString(g, v, k string) string { return g + "/" + v + ", Kind=" + k }

// registered maps the kinds the webhook client's scheme knows in the
// ConversionReview groups (apiextensions v1 and v1beta1 AddToScheme,
// metav1.AddToGroupVersion) and in the unversioned meta group to their Go
// type names, which conversion errors quote.
func registeredType(g, v, k string) (string, bool) {
	if g == group && (v == "v1" || v == "v1beta1") {
		switch k {
		case "ConversionReview", "CustomResourceDefinition", "CustomResourceDefinitionList":
			return v + "." + k, true
		case "WatchEvent", "ListOptions", "GetOptions", "DeleteOptions", "CreateOptions", "UpdateOptions", "PatchOptions":
			return "v1." + k, true
		}
	}
	if g == "" && v == "v1" {
		switch k {
		case "Status", "APIVersions", "APIGroupList", "APIGroup", "APIResourceList":
			return "v1." + k, true
		}
	}
	return "", false
}

// decodeReview decodes body as the webhook client does into a
// ConversionReview of version; the error is the one Into returns.
func decodeReview(body []byte, version string) (map[string]interface{}, error) {
	// json.SimpleMetaFactory.Interpret reads apiVersion and kind with
	// encoding/json.
	findKind := struct {
		// +optional
		APIVersion string `json:"apiVersion,omitempty"`
		// +optional
		Kind string `json:"kind,omitempty"`
	}{}
	if err := json.Unmarshal(body, &findKind); err != nil {
		return nil, fmt.Errorf("couldn't get version/kind; json parse error: %v", err)
	}
	g, v, err := objectmeta.ParseGroupVersion(findKind.APIVersion)
	if err != nil {
		return nil, err
	}
	k := findKind.Kind
	// gvkWithDefaults with the typed review's kind.
	if k == "" {
		k = "ConversionReview"
	}
	if v == "" && g == "" {
		g, v = group, version
	}
	if v == "" && g == group {
		v = version
	}
	if v == "" {
		return nil, fmt.Errorf("Object 'apiVersion' is missing in '%s'", body)
	}
	if g != group || v != version || k != "ConversionReview" {
		// runtime.UseOrCreateObject creates the body's kind, then the
		// versioning codec converts it into the typed review.
		name, ok := registeredType(g, v, k)
		if !ok {
			return nil, fmt.Errorf("no kind %q is registered for version %q in scheme %q", k, groupVersion(g, v), schemeName)
		}
		return nil, fmt.Errorf("converting (%s) to (%s): unknown conversion", name, version+".ConversionReview")
	}
	val, _, err := jsonstrict.Decode(body, false)
	if err != nil {
		return nil, err
	}
	if val == nil {
		// null (a blank YAML answer) decodes to an empty review.
		val = map[string]interface{}{}
	}
	obj, ok := val.(map[string]interface{})
	if !ok {
		return nil, fmt.Errorf("json: cannot unmarshal %s into Go value of type %s.ConversionReview", jsonKind(val), version)
	}
	if err := checkTypes(obj, reviewFields(version), "ConversionReview", ""); err != nil {
		return nil, err
	}
	return obj, nil
}

// schemeName is the name runtime.NewScheme gives the webhook client's
// scheme in k8s.io/apimachinery v0.37.2 (naming.GetNameFromCallsite finds
// no caller outside the runtime package).
const schemeName = "pkg/runtime/scheme.go:111"

// fieldSpec is one field of the typed review, for the type errors of the
// non-strict decoding.
type fieldSpec struct {
	name   string
	goType string // as reflect renders it in UnmarshalTypeError
	kind   string // string, int32, int64, struct, structs (a slice of struct), raws (a slice of RawExtension)
	strct  string // the struct's type name, for struct and structs
	fields []fieldSpec
}

func str(name string) fieldSpec { return fieldSpec{name: name, goType: "string", kind: "string"} }
func named(name, goType string) fieldSpec {
	return fieldSpec{name: name, goType: goType, kind: "string"}
}

func reviewFields(version string) []fieldSpec {
	status := []fieldSpec{
		str("kind"), str("apiVersion"),
		{name: "metadata", goType: "v1.ListMeta", kind: "struct", strct: "ListMeta", fields: []fieldSpec{
			str("selfLink"), str("resourceVersion"), str("continue"),
			{name: "remainingItemCount", goType: "int64", kind: "int64"},
		}},
		str("status"), str("message"), named("reason", "v1.StatusReason"),
		{name: "details", goType: "v1.StatusDetails", kind: "struct", strct: "StatusDetails", fields: []fieldSpec{
			str("name"), str("group"), str("kind"), named("uid", "types.UID"),
			{name: "causes", goType: "[]v1.StatusCause", kind: "structs", strct: "StatusCause", fields: []fieldSpec{
				named("reason", "v1.CauseType"), str("message"), str("field"),
			}},
			{name: "retryAfterSeconds", goType: "int32", kind: "int32"},
		}},
		{name: "code", goType: "int32", kind: "int32"},
	}
	return []fieldSpec{
		{name: "request", goType: version + ".ConversionRequest", kind: "struct", strct: "ConversionRequest", fields: []fieldSpec{
			named("uid", "types.UID"), str("desiredAPIVersion"),
			{name: "objects", goType: "[]runtime.RawExtension", kind: "raws"},
		}},
		{name: "response", goType: version + ".ConversionResponse", kind: "struct", strct: "ConversionResponse", fields: []fieldSpec{
			named("uid", "types.UID"),
			{name: "convertedObjects", goType: "[]runtime.RawExtension", kind: "raws"},
			{name: "result", goType: "v1.Status", kind: "struct", strct: "Status", fields: status},
		}},
	}
}

// jsonKind names a JSON value as encoding/json's type errors do.
func jsonKind(v interface{}) string {
	switch t := v.(type) {
	case string:
		return "string"
	case bool:
		return "bool"
	case map[string]interface{}:
		return "object"
	case []interface{}:
		return "array"
	case int64:
		return "number"
	case float64:
		_ = t
		return "number"
	}
	return "null"
}

// checkTypes returns the first type error decoding obj into the struct
// strct whose fields are fields (at the dotted path prefix), in the
// fields' declaration order. Unknown fields and nulls are ignored.
func checkTypes(obj map[string]interface{}, fields []fieldSpec, strct, prefix string) error {
	for _, f := range fields {
		v, ok := obj[f.name]
		if !ok || v == nil {
			continue
		}
		path := f.name
		if prefix != "" {
			path = prefix + "." + f.name
		}
		typeErr := func(value string) error {
			return fmt.Errorf("json: cannot unmarshal %s into Go struct field %s.%s of type %s", value, strct, path, f.goType)
		}
		switch f.kind {
		case "string":
			if _, ok := v.(string); !ok {
				return typeErr(jsonKind(v))
			}
		case "int32", "int64":
			switch n := v.(type) {
			case int64:
				if f.kind == "int32" && (n < math.MinInt32 || n > math.MaxInt32) {
					return typeErr("number " + strconv.FormatInt(n, 10))
				}
			case float64:
				return typeErr("number " + strconv.FormatFloat(n, 'g', -1, 64))
			default:
				return typeErr(jsonKind(v))
			}
		case "struct":
			m, ok := v.(map[string]interface{})
			if !ok {
				return typeErr(jsonKind(v))
			}
			if err := checkTypes(m, f.fields, f.strct, path); err != nil {
				return err
			}
		case "structs", "raws":
			items, ok := v.([]interface{})
			if !ok {
				return typeErr(jsonKind(v))
			}
			if f.kind == "raws" {
				continue
			}
			for _, it := range items {
				if it == nil {
					continue
				}
				m, ok := it.(map[string]interface{})
				if !ok {
					return fmt.Errorf("json: cannot unmarshal %s into Go struct field %s.%s of type %s", jsonKind(it), strct, path, f.goType[2:])
				}
				if err := checkTypes(m, f.fields, f.strct, path); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
