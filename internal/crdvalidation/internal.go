package crdvalidation

import (
	"bytes"
	"encoding/json"
	"github.com/crdlab/crdlab/internal/keys"
	"reflect"
	"strconv"

	"github.com/crdlab/crdlab/engine/crd"
)

// The types below are our own rendering of upstream's *internal*
// apiextensions types (k8s.io/apiextensions-apiserver/pkg/apis/apiextensions),
// the view the API server validates after converting a v1 object. They keep
// upstream's Go field names and order and carry no JSON tags, so that a bad
// value rendered into a field.Error (which JSON-encodes it) reads exactly as
// upstream's. Schemas stay *crd.JSONSchemaProps; Schema.MarshalJSON renders
// them in the internal shape.

type internalCRD struct {
	Metadata crd.ObjectMeta
	Spec     internalSpec
	Status   internalStatus
}

type internalStatus struct {
	AcceptedNames  crd.CustomResourceDefinitionNames
	StoredVersions []string
}

type internalSpec struct {
	Group                    string
	Version                  string
	Names                    internalNames
	Scope                    string
	Validation               *internalValidation
	Subresources             *internalSubresources
	Versions                 []internalVersion
	AdditionalPrinterColumns []internalColumn
	SelectableFields         []internalSelectableField
	Conversion               *internalConversion
	PreserveUnknownFields    *bool
}

type internalNames struct {
	Plural     string
	Singular   string
	ShortNames []string
	Kind       string
	ListKind   string
	Categories []string
}

type internalConversion struct {
	Strategy                 string
	WebhookClientConfig      *internalWebhookClientConfig
	ConversionReviewVersions []string
}

type internalWebhookClientConfig struct {
	URL      *string
	Service  *internalServiceReference
	CABundle []byte
}

type internalServiceReference struct {
	Namespace string
	Name      string
	Path      *string
	Port      int32
}

// internalVersion mirrors the internal version type.
type internalVersion struct {
	Name                     string
	Served                   bool
	Storage                  bool
	Deprecated               bool
	DeprecationWarning       *string
	Schema                   *internalValidation
	Subresources             *internalSubresources
	AdditionalPrinterColumns []internalColumn
	SelectableFields         []internalSelectableField
}

// internalSelectableField mirrors the internal selectable field type.
type internalSelectableField struct {
	JSONPath string
}

// internalColumn mirrors the internal printer column type.
type internalColumn struct {
	Name        string
	Type        string
	Format      string
	Description string
	Priority    int32
	JSONPath    string
}

// internalValidation mirrors the internal validation type.
type internalValidation struct {
	OpenAPIV3Schema *crd.JSONSchemaProps
}

// MarshalJSON renders the schema with internal Go field names.
func (v internalValidation) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"OpenAPIV3Schema":`)
	writeInternalSchema(&b, v.OpenAPIV3Schema)
	b.WriteString("}")
	return b.Bytes(), nil
}

// internalSubresources mirrors the internal subresources type.
type internalSubresources struct {
	Status *struct{}
	Scale  *internalScale
}

// internalScale mirrors the internal scale type.
type internalScale struct {
	SpecReplicasPath   string
	StatusReplicasPath string
	LabelSelectorPath  *string
}

// toInternal converts a v1 CRD into the internal view, as upstream's
// Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_... does: fields
// identical in every version are hoisted to the spec level.
func toInternal(c *crd.CustomResourceDefinition) *internalCRD {
	out := &internalCRD{Metadata: c.Metadata}
	out.Status.AcceptedNames = c.Status.AcceptedNames
	out.Status.StoredVersions = c.Status.StoredVersions
	s := &out.Spec
	in := &c.Spec
	s.Group = in.Group
	s.Names = internalNames{
		Plural: in.Names.Plural, Singular: in.Names.Singular, ShortNames: in.Names.ShortNames,
		Kind: in.Names.Kind, ListKind: in.Names.ListKind, Categories: in.Names.Categories,
	}
	s.Scope = string(in.Scope)
	pu := in.PreserveUnknownFields
	s.PreserveUnknownFields = &pu
	if in.Conversion != nil {
		conv := &internalConversion{Strategy: string(in.Conversion.Strategy)}
		if w := in.Conversion.Webhook; w != nil {
			conv.ConversionReviewVersions = w.ConversionReviewVersions
			if cc := w.ClientConfig; cc != nil {
				icc := &internalWebhookClientConfig{URL: cc.URL, CABundle: cc.CABundle}
				if svc := cc.Service; svc != nil {
					isvc := &internalServiceReference{Namespace: svc.Namespace, Name: svc.Name, Path: svc.Path}
					if svc.Port != nil {
						isvc.Port = *svc.Port
					}
					icc.Service = isvc
				}
				conv.WebhookClientConfig = icc
			}
		}
		s.Conversion = conv
	}
	if in.Versions != nil {
		s.Versions = make([]internalVersion, 0, len(in.Versions))
	}
	for _, v := range in.Versions {
		iv := internalVersion{
			Name: v.Name, Served: v.Served, Storage: v.Storage, Deprecated: v.Deprecated,
			DeprecationWarning: v.DeprecationWarning,
		}
		if v.Schema != nil {
			iv.Schema = &internalValidation{OpenAPIV3Schema: v.Schema.OpenAPIV3Schema}
		}
		if v.Subresources != nil {
			sr := &internalSubresources{}
			if v.Subresources.Status != nil {
				sr.Status = &struct{}{}
			}
			if sc := v.Subresources.Scale; sc != nil {
				sr.Scale = &internalScale{SpecReplicasPath: sc.SpecReplicasPath, StatusReplicasPath: sc.StatusReplicasPath, LabelSelectorPath: sc.LabelSelectorPath}
			}
			iv.Subresources = sr
		}
		if v.AdditionalPrinterColumns != nil {
			iv.AdditionalPrinterColumns = make([]internalColumn, len(v.AdditionalPrinterColumns))
			for i, col := range v.AdditionalPrinterColumns {
				iv.AdditionalPrinterColumns[i] = internalColumn(col)
			}
		}
		if v.SelectableFields != nil {
			iv.SelectableFields = make([]internalSelectableField, len(v.SelectableFields))
			for i, f := range v.SelectableFields {
				iv.SelectableFields[i] = internalSelectableField(f)
			}
		}
		s.Versions = append(s.Versions, iv)
	}
	if len(s.Versions) == 0 {
		return out
	}
	s.Version = s.Versions[0].Name
	first := s.Versions[0]
	subSame, schemaSame, colsSame, selSame := true, true, true, true
	for _, v := range s.Versions[1:] { // the first is equal to itself
		subSame = subSame && semanticEqual(v.Subresources, first.Subresources)
		schemaSame = schemaSame && semanticEqual(v.Schema, first.Schema)
		colsSame = colsSame && semanticEqual(v.AdditionalPrinterColumns, first.AdditionalPrinterColumns)
		selSame = selSame && semanticEqual(v.SelectableFields, first.SelectableFields)
	}
	if subSame {
		s.Subresources = first.Subresources
	}
	if schemaSame {
		s.Validation = first.Schema
	}
	if colsSame {
		s.AdditionalPrinterColumns = first.AdditionalPrinterColumns
	}
	if selSame {
		s.SelectableFields = first.SelectableFields
	}
	for i := range s.Versions {
		if subSame {
			s.Versions[i].Subresources = nil
		}
		if schemaSame {
			s.Versions[i].Schema = nil
		}
		if colsSame {
			s.Versions[i].AdditionalPrinterColumns = nil
		}
		if selSame {
			s.Versions[i].SelectableFields = nil
		}
	}
	return out
}

var rawJSONType = reflect.TypeOf(crd.JSON{})

// semanticEqual is upstream's apiequality.Semantic.DeepEqual for these
// types: reflect.DeepEqual except that nil and empty slices and maps are
// equal. crd.JSON values compare by their decoded value.
func semanticEqual(a, b interface{}) bool {
	return deepEqual(reflect.ValueOf(a), reflect.ValueOf(b), 0)
}

func deepEqual(a, b reflect.Value, depth int) bool {
	if depth > 10000 {
		return false
	}
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	if a.Type() == rawJSONType {
		ja, jb := a.Interface().(crd.JSON), b.Interface().(crd.JSON)
		if bytes.Equal(ja.Raw, jb.Raw) {
			return true // the same bytes decode to the same value
		}
		va, erra := ja.Value()
		vb, errb := jb.Value()
		if erra != nil || errb != nil {
			return bytes.Equal(ja.Raw, jb.Raw)
		}
		return reflect.DeepEqual(va, vb)
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return deepEqual(a.Elem(), b.Elem(), depth+1)
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !deepEqual(a.Index(i), b.Index(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() || !deepEqual(a.MapIndex(k), bv, depth+1) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !deepEqual(a.Field(i), b.Field(i), depth+1) {
				return false
			}
		}
		return true
	default:
		if a.CanInterface() {
			return a.Interface() == b.Interface()
		}
		return false
	}
}

// internalSchema renders a schema in the internal shape when it appears as
// a bad value.
type internalSchema struct{ s *crd.JSONSchemaProps }

func (v internalSchema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	writeInternalSchema(&b, v.s)
	return b.Bytes(), nil
}

// writeInternalSchema writes s as encoding/json would write upstream's
// internal JSONSchemaProps (Go field names, internal field order, JSON
// values decoded).
func writeInternalSchema(b *bytes.Buffer, s *crd.JSONSchemaProps) {
	if s == nil {
		b.WriteString("null")
		return
	}
	field := func(name string, first bool) {
		if !first {
			b.WriteString(",")
		}
		b.WriteString(strconv.Quote(name))
		b.WriteString(":")
	}
	val := func(v interface{}) {
		j, err := json.Marshal(v)
		if err != nil {
			b.WriteString("null")
			return
		}
		b.Write(j)
	}
	jsonPtr := func(j *crd.JSON) {
		if j == nil {
			b.WriteString("null")
			return
		}
		v, _ := j.Value()
		val(v)
	}
	schemas := func(list []crd.JSONSchemaProps) {
		if list == nil {
			b.WriteString("null")
			return
		}
		b.WriteString("[")
		for i := range list {
			if i > 0 {
				b.WriteString(",")
			}
			writeInternalSchema(b, &list[i])
		}
		b.WriteString("]")
	}
	schemaMap := func(m map[string]crd.JSONSchemaProps) {
		if m == nil {
			b.WriteString("null")
			return
		}
		keys := keys.Sorted(m)
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(strconv.Quote(k))
			b.WriteString(":")
			p := m[k]
			writeInternalSchema(b, &p)
		}
		b.WriteString("}")
	}
	orBool := func(o *crd.JSONSchemaPropsOrBool) {
		if o == nil {
			b.WriteString("null")
			return
		}
		b.WriteString(`{"Allows":` + strconv.FormatBool(o.Allows) + `,"Schema":`)
		writeInternalSchema(b, o.Schema)
		b.WriteString("}")
	}
	b.WriteString("{")
	field("ID", true)
	val(s.ID)
	field("Schema", false)
	val(s.Schema)
	field("Ref", false)
	val(s.Ref)
	field("Description", false)
	val(s.Description)
	field("Type", false)
	val(s.Type)
	field("Nullable", false)
	val(s.Nullable)
	field("Format", false)
	val(s.Format)
	field("Title", false)
	val(s.Title)
	field("Default", false)
	jsonPtr(s.Default)
	field("Maximum", false)
	val(s.Maximum)
	field("ExclusiveMaximum", false)
	val(s.ExclusiveMaximum)
	field("Minimum", false)
	val(s.Minimum)
	field("ExclusiveMinimum", false)
	val(s.ExclusiveMinimum)
	field("MaxLength", false)
	val(s.MaxLength)
	field("MinLength", false)
	val(s.MinLength)
	field("Pattern", false)
	val(s.Pattern)
	field("MaxItems", false)
	val(s.MaxItems)
	field("MinItems", false)
	val(s.MinItems)
	field("UniqueItems", false)
	val(s.UniqueItems)
	field("MultipleOf", false)
	val(s.MultipleOf)
	field("Enum", false)
	if s.Enum == nil {
		b.WriteString("null")
	} else {
		b.WriteString("[")
		for i := range s.Enum {
			if i > 0 {
				b.WriteString(",")
			}
			v, _ := s.Enum[i].Value()
			val(v)
		}
		b.WriteString("]")
	}
	field("MaxProperties", false)
	val(s.MaxProperties)
	field("MinProperties", false)
	val(s.MinProperties)
	field("Required", false)
	val(s.Required)
	field("Items", false)
	writeInternalItems(b, s.Items)
	field("AllOf", false)
	schemas(s.AllOf)
	field("OneOf", false)
	schemas(s.OneOf)
	field("AnyOf", false)
	schemas(s.AnyOf)
	field("Not", false)
	writeInternalSchema(b, s.Not)
	field("Properties", false)
	schemaMap(s.Properties)
	field("AdditionalProperties", false)
	orBool(s.AdditionalProperties)
	field("PatternProperties", false)
	schemaMap(s.PatternProperties)
	field("Dependencies", false)
	if s.Dependencies == nil {
		b.WriteString("null")
	} else {
		keys := keys.Sorted(s.Dependencies)
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(strconv.Quote(k) + `:{"Schema":`)
			d := s.Dependencies[k]
			writeInternalSchema(b, d.Schema)
			b.WriteString(`,"Property":`)
			val(d.Property)
			b.WriteString("}")
		}
		b.WriteString("}")
	}
	field("AdditionalItems", false)
	orBool(s.AdditionalItems)
	field("Definitions", false)
	schemaMap(s.Definitions)
	field("ExternalDocs", false)
	if s.ExternalDocs == nil {
		b.WriteString("null")
	} else {
		b.WriteString(`{"Description":`)
		val(s.ExternalDocs.Description)
		b.WriteString(`,"URL":`)
		val(s.ExternalDocs.URL)
		b.WriteString("}")
	}
	field("Example", false)
	jsonPtr(s.Example)
	field("XPreserveUnknownFields", false)
	val(s.XPreserveUnknownFields)
	field("XEmbeddedResource", false)
	val(s.XEmbeddedResource)
	field("XIntOrString", false)
	val(s.XIntOrString)
	field("XListMapKeys", false)
	val(s.XListMapKeys)
	field("XListType", false)
	val(s.XListType)
	field("XMapType", false)
	val(s.XMapType)
	field("XValidations", false)
	if s.XValidations == nil {
		b.WriteString("null")
	} else {
		b.WriteString("[")
		for i, r := range s.XValidations {
			if i > 0 {
				b.WriteString(",")
			}
			val(internalRule(r))
		}
		b.WriteString("]")
	}
	b.WriteString("}")
}

// writeInternalItems writes items as upstream's internal
// JSONSchemaPropsOrArray (no custom marshaller: both fields).
func writeInternalItems(b *bytes.Buffer, items *crd.JSONSchemaPropsOrArray) {
	if items == nil {
		b.WriteString("null")
		return
	}
	b.WriteString(`{"Schema":`)
	writeInternalSchema(b, items.Schema)
	b.WriteString(`,"JSONSchemas":`)
	if items.JSONSchemas == nil {
		b.WriteString("null")
	} else {
		b.WriteString("[")
		for i := range items.JSONSchemas {
			if i > 0 {
				b.WriteString(",")
			}
			writeInternalSchema(b, &items.JSONSchemas[i])
		}
		b.WriteString("]")
	}
	b.WriteString("}")
}

// internalRuleT mirrors the internal ValidationRule (no JSON tags).
type internalRuleT struct {
	Rule              string
	Message           string
	MessageExpression string
	Reason            *crd.FieldValueErrorReason
	FieldPath         string
	OptionalOldSelf   *bool
}

func internalRule(r crd.ValidationRule) internalRuleT {
	return internalRuleT(r)
}
