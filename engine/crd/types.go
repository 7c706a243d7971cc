// Package crd holds the apiextensions.k8s.io/v1 CustomResourceDefinition types
// as they travel on the wire, and their decoding from YAML or JSON.
//
// The types mirror the JSON shape of upstream's
// k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1 package field for
// field, so a CRD manifest decodes here exactly as the API server decodes it.
package crd

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Group is the API group of CustomResourceDefinitions.
const Group = "apiextensions.k8s.io"

// ObjectMeta is the subset of metav1.ObjectMeta that a CRD manifest carries.
// Unknown metadata fields are kept in Extra so that strict decoding can
// report them precisely.
type ObjectMeta struct {
	Name            string            `json:"name,omitempty"`
	GenerateName    string            `json:"generateName,omitempty"`
	Namespace       string            `json:"namespace,omitempty"`
	UID             string            `json:"uid,omitempty"`
	ResourceVersion string            `json:"resourceVersion,omitempty"`
	Generation      int64             `json:"generation,omitempty"`
	Labels          map[string]string `json:"labels,omitempty"`
	Annotations     map[string]string `json:"annotations,omitempty"`
	Finalizers      []string          `json:"finalizers,omitempty"`
	// CreationTimestamp and the remaining server-set fields are kept raw.
	CreationTimestamp json.RawMessage   `json:"creationTimestamp,omitempty"`
	DeletionTimestamp json.RawMessage   `json:"deletionTimestamp,omitempty"`
	ManagedFields     []json.RawMessage `json:"managedFields,omitempty"`
	OwnerReferences   []json.RawMessage `json:"ownerReferences,omitempty"`
}

// CustomResourceDefinition is an apiextensions.k8s.io/v1 CustomResourceDefinition.
type CustomResourceDefinition struct {
	APIVersion string                         `json:"apiVersion,omitempty"`
	Kind       string                         `json:"kind,omitempty"`
	Metadata   ObjectMeta                     `json:"metadata,omitempty"`
	Spec       CustomResourceDefinitionSpec   `json:"spec"`
	Status     CustomResourceDefinitionStatus `json:"status,omitempty"`
}

// CustomResourceDefinitionSpec describes how a user wants their resource to appear.
type CustomResourceDefinitionSpec struct {
	Group                 string                            `json:"group"`
	Names                 CustomResourceDefinitionNames     `json:"names"`
	Scope                 ResourceScope                     `json:"scope"`
	Versions              []CustomResourceDefinitionVersion `json:"versions"`
	Conversion            *CustomResourceConversion         `json:"conversion,omitempty"`
	PreserveUnknownFields bool                              `json:"preserveUnknownFields,omitempty"`
}

// ResourceScope is Cluster or Namespaced.
type ResourceScope string

const (
	ClusterScoped   ResourceScope = "Cluster"
	NamespaceScoped ResourceScope = "Namespaced"
)

// ConversionStrategyType is None or Webhook.
type ConversionStrategyType string

const (
	NoneConverter    ConversionStrategyType = "None"
	WebhookConverter ConversionStrategyType = "Webhook"
)

// CustomResourceConversion describes how to convert different versions of a CR.
type CustomResourceConversion struct {
	Strategy ConversionStrategyType `json:"strategy"`
	Webhook  *WebhookConversion     `json:"webhook,omitempty"`
}

// WebhookConversion describes how to call a conversion webhook.
type WebhookConversion struct {
	ClientConfig             *WebhookClientConfig `json:"clientConfig,omitempty"`
	ConversionReviewVersions []string             `json:"conversionReviewVersions"`
}

// WebhookClientConfig contains the information to make a TLS connection with the webhook.
type WebhookClientConfig struct {
	URL      *string           `json:"url,omitempty"`
	Service  *ServiceReference `json:"service,omitempty"`
	CABundle []byte            `json:"caBundle,omitempty"`
}

// ServiceReference holds a reference to a Service.
type ServiceReference struct {
	Namespace string  `json:"namespace"`
	Name      string  `json:"name"`
	Path      *string `json:"path,omitempty"`
	Port      *int32  `json:"port,omitempty"`
}

// CustomResourceDefinitionVersion describes a version of a CRD.
type CustomResourceDefinitionVersion struct {
	Name                     string                           `json:"name"`
	Served                   bool                             `json:"served"`
	Storage                  bool                             `json:"storage"`
	Deprecated               bool                             `json:"deprecated,omitempty"`
	DeprecationWarning       *string                          `json:"deprecationWarning,omitempty"`
	Schema                   *CustomResourceValidation        `json:"schema,omitempty"`
	Subresources             *CustomResourceSubresources      `json:"subresources,omitempty"`
	AdditionalPrinterColumns []CustomResourceColumnDefinition `json:"additionalPrinterColumns,omitempty"`
	SelectableFields         []SelectableField                `json:"selectableFields,omitempty"`
}

// SelectableField specifies the JSON path of a field that may be used with field selectors.
type SelectableField struct {
	JSONPath string `json:"jsonPath"`
}

// CustomResourceColumnDefinition specifies a column for server side printing.
type CustomResourceColumnDefinition struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Format      string `json:"format,omitempty"`
	Description string `json:"description,omitempty"`
	Priority    int32  `json:"priority,omitempty"`
	JSONPath    string `json:"jsonPath"`
}

// CustomResourceDefinitionNames indicates the names to serve this CRD.
type CustomResourceDefinitionNames struct {
	Plural     string   `json:"plural"`
	Singular   string   `json:"singular,omitempty"`
	ShortNames []string `json:"shortNames,omitempty"`
	Kind       string   `json:"kind"`
	ListKind   string   `json:"listKind,omitempty"`
	Categories []string `json:"categories,omitempty"`
}

// CustomResourceDefinitionStatus is kept so that manifests carrying a status decode.
type CustomResourceDefinitionStatus struct {
	Conditions     []json.RawMessage             `json:"conditions,omitempty"`
	AcceptedNames  CustomResourceDefinitionNames `json:"acceptedNames,omitempty"`
	StoredVersions []string                      `json:"storedVersions,omitempty"`
}

// CustomResourceValidation is a list of validation methods for CustomResources.
type CustomResourceValidation struct {
	OpenAPIV3Schema *JSONSchemaProps `json:"openAPIV3Schema,omitempty"`
}

// CustomResourceSubresources defines the status and scale subresources.
type CustomResourceSubresources struct {
	Status *CustomResourceSubresourceStatus `json:"status,omitempty"`
	Scale  *CustomResourceSubresourceScale  `json:"scale,omitempty"`
}

// CustomResourceSubresourceStatus is an empty object: its presence enables /status.
type CustomResourceSubresourceStatus struct{}

// CustomResourceSubresourceScale defines how to serve the scale subresource.
type CustomResourceSubresourceScale struct {
	SpecReplicasPath   string  `json:"specReplicasPath"`
	StatusReplicasPath string  `json:"statusReplicasPath"`
	LabelSelectorPath  *string `json:"labelSelectorPath,omitempty"`
}

// JSONSchemaProps is a JSON-Schema following Specification Draft 4, as the
// apiextensions.k8s.io/v1 API spells it.
type JSONSchemaProps struct {
	ID                     string                     `json:"id,omitempty"`
	Schema                 string                     `json:"$schema,omitempty"`
	Ref                    *string                    `json:"$ref,omitempty"`
	Description            string                     `json:"description,omitempty"`
	Type                   string                     `json:"type,omitempty"`
	Format                 string                     `json:"format,omitempty"`
	Title                  string                     `json:"title,omitempty"`
	Default                *JSON                      `json:"default,omitempty"`
	Maximum                *float64                   `json:"maximum,omitempty"`
	ExclusiveMaximum       bool                       `json:"exclusiveMaximum,omitempty"`
	Minimum                *float64                   `json:"minimum,omitempty"`
	ExclusiveMinimum       bool                       `json:"exclusiveMinimum,omitempty"`
	MaxLength              *int64                     `json:"maxLength,omitempty"`
	MinLength              *int64                     `json:"minLength,omitempty"`
	Pattern                string                     `json:"pattern,omitempty"`
	MaxItems               *int64                     `json:"maxItems,omitempty"`
	MinItems               *int64                     `json:"minItems,omitempty"`
	UniqueItems            bool                       `json:"uniqueItems,omitempty"`
	MultipleOf             *float64                   `json:"multipleOf,omitempty"`
	Enum                   []JSON                     `json:"enum,omitempty"`
	MaxProperties          *int64                     `json:"maxProperties,omitempty"`
	MinProperties          *int64                     `json:"minProperties,omitempty"`
	Required               []string                   `json:"required,omitempty"`
	Items                  *JSONSchemaPropsOrArray    `json:"items,omitempty"`
	AllOf                  []JSONSchemaProps          `json:"allOf,omitempty"`
	OneOf                  []JSONSchemaProps          `json:"oneOf,omitempty"`
	AnyOf                  []JSONSchemaProps          `json:"anyOf,omitempty"`
	Not                    *JSONSchemaProps           `json:"not,omitempty"`
	Properties             map[string]JSONSchemaProps `json:"properties,omitempty"`
	AdditionalProperties   *JSONSchemaPropsOrBool     `json:"additionalProperties,omitempty"`
	PatternProperties      map[string]JSONSchemaProps `json:"patternProperties,omitempty"`
	Dependencies           JSONSchemaDependencies     `json:"dependencies,omitempty"`
	AdditionalItems        *JSONSchemaPropsOrBool     `json:"additionalItems,omitempty"`
	Definitions            JSONSchemaDefinitions      `json:"definitions,omitempty"`
	ExternalDocs           *ExternalDocumentation     `json:"externalDocs,omitempty"`
	Example                *JSON                      `json:"example,omitempty"`
	Nullable               bool                       `json:"nullable,omitempty"`
	XPreserveUnknownFields *bool                      `json:"x-kubernetes-preserve-unknown-fields,omitempty"`
	XEmbeddedResource      bool                       `json:"x-kubernetes-embedded-resource,omitempty"`
	XIntOrString           bool                       `json:"x-kubernetes-int-or-string,omitempty"`
	XListMapKeys           []string                   `json:"x-kubernetes-list-map-keys,omitempty"`
	XListType              *string                    `json:"x-kubernetes-list-type,omitempty"`
	XMapType               *string                    `json:"x-kubernetes-map-type,omitempty"`
	XValidations           ValidationRules            `json:"x-kubernetes-validations,omitempty"`
}

// ValidationRules is the list of x-kubernetes-validations rules of a schema node.
type ValidationRules []ValidationRule

// FieldValueErrorReason is the machine-readable reason of a failed validation rule.
type FieldValueErrorReason string

const (
	FieldValueRequired  FieldValueErrorReason = "FieldValueRequired"
	FieldValueDuplicate FieldValueErrorReason = "FieldValueDuplicate"
	FieldValueInvalid   FieldValueErrorReason = "FieldValueInvalid"
	FieldValueForbidden FieldValueErrorReason = "FieldValueForbidden"
)

// ValidationRule describes a CEL validation rule.
type ValidationRule struct {
	Rule              string                 `json:"rule"`
	Message           string                 `json:"message,omitempty"`
	MessageExpression string                 `json:"messageExpression,omitempty"`
	Reason            *FieldValueErrorReason `json:"reason,omitempty"`
	FieldPath         string                 `json:"fieldPath,omitempty"`
	OptionalOldSelf   *bool                  `json:"optionalOldSelf,omitempty"`
}

// JSON is an arbitrary JSON value kept as raw bytes, as in upstream's v1 API.
type JSON struct {
	Raw []byte
}

var nullLiteral = []byte("null")

// UnmarshalJSON keeps the raw bytes; a literal null leaves Raw empty, as upstream does.
func (s *JSON) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && !bytes.Equal(data, nullLiteral) {
		s.Raw = append(s.Raw[0:0], data...)
	}
	return nil
}

// MarshalJSON writes the raw bytes back, or null.
func (s JSON) MarshalJSON() ([]byte, error) {
	if len(s.Raw) > 0 {
		return s.Raw, nil
	}
	return []byte("null"), nil
}

// Value decodes the raw bytes the way upstream's v1-to-internal conversion
// does (k8s.io/apimachinery/pkg/util/json.Unmarshal, which preserves
// integers: integral numbers that fit become int64, other numbers float64).
// An absent or null value is nil.
func (s *JSON) Value() (interface{}, error) {
	if s == nil || len(s.Raw) == 0 || bytes.Equal(s.Raw, nullLiteral) {
		return nil, nil
	}
	if v, ok := plainJSONValue(s.Raw); ok {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(s.Raw))
	dec.UseNumber()
	var v interface{}
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return convertNumbers(v)
}

// plainJSONValue decodes the literals most enum items and defaults are,
// without a JSON decoder: a string without escapes (valid UTF-8, no control
// characters), true, false, or an integer that fits int64 written as JSON
// writes it. ok is false for anything else (Value then decodes).
func plainJSONValue(raw []byte) (v interface{}, ok bool) {
	switch raw[0] {
	case '"':
		if len(raw) < 2 || raw[len(raw)-1] != '"' {
			return nil, false
		}
		body := raw[1 : len(raw)-1]
		for _, c := range body {
			if c == '"' || c == '\\' || c < 0x20 {
				return nil, false
			}
		}
		if !utf8.Valid(body) {
			return nil, false
		}
		return string(body), true
	case 't':
		return true, string(raw) == "true"
	case 'f':
		return false, string(raw) == "false"
	}
	digits := raw
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 || (digits[0] == '0' && len(digits) > 1) {
		return nil, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return nil, false
		}
	}
	i, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return nil, false
	}
	return i, true
}

// convertNumbers replaces json.Number by int64 when the number parses as
// one, float64 otherwise (upstream's convertNumber).
func convertNumbers(v interface{}) (interface{}, error) {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, nil
		}
		return t.Float64()
	case map[string]interface{}:
		for k, e := range t {
			c, err := convertNumbers(e)
			if err != nil {
				return nil, err
			}
			t[k] = c
		}
	case []interface{}:
		for i, e := range t {
			c, err := convertNumbers(e)
			if err != nil {
				return nil, err
			}
			t[i] = c
		}
	}
	return v, nil
}

// JSONSchemaPropsOrArray is a schema or an array of schemas.
type JSONSchemaPropsOrArray struct {
	Schema      *JSONSchemaProps
	JSONSchemas []JSONSchemaProps
}

// MarshalJSON writes the schema or the array.
func (s JSONSchemaPropsOrArray) MarshalJSON() ([]byte, error) {
	if len(s.JSONSchemas) > 0 {
		return json.Marshal(s.JSONSchemas)
	}
	return json.Marshal(s.Schema)
}

// UnmarshalJSON reads a schema or an array of schemas.
func (s *JSONSchemaPropsOrArray) UnmarshalJSON(data []byte) error {
	var nw JSONSchemaPropsOrArray
	switch {
	case len(data) > 0 && data[0] == '{':
		var sch JSONSchemaProps
		if err := json.Unmarshal(data, &sch); err != nil {
			return err
		}
		nw.Schema = &sch
	case len(data) > 0 && data[0] == '[':
		if err := json.Unmarshal(data, &nw.JSONSchemas); err != nil {
			return err
		}
	}
	*s = nw
	return nil
}

// JSONSchemaPropsOrBool is a schema or a boolean.
type JSONSchemaPropsOrBool struct {
	Allows bool
	Schema *JSONSchemaProps
}

// MarshalJSON writes the schema or the boolean.
func (s JSONSchemaPropsOrBool) MarshalJSON() ([]byte, error) {
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	if s.Schema == nil && !s.Allows {
		return []byte("false"), nil
	}
	return []byte("true"), nil
}

// UnmarshalJSON reads a schema (which allows) or a boolean.
func (s *JSONSchemaPropsOrBool) UnmarshalJSON(data []byte) error {
	var nw JSONSchemaPropsOrBool
	switch {
	case len(data) == 0:
	case data[0] == '{':
		var sch JSONSchemaProps
		if err := json.Unmarshal(data, &sch); err != nil {
			return err
		}
		nw.Allows = true
		nw.Schema = &sch
	case len(data) == 4 && string(data) == "true":
		nw.Allows = true
	case len(data) == 5 && string(data) == "false":
		nw.Allows = false
	default:
		return &json.UnmarshalTypeError{Value: string(data), Type: nil}
	}
	*s = nw
	return nil
}

// JSONSchemaDependencies represent a dependencies property.
type JSONSchemaDependencies map[string]JSONSchemaPropsOrStringArray

// JSONSchemaPropsOrStringArray is a schema or a string array.
type JSONSchemaPropsOrStringArray struct {
	Schema   *JSONSchemaProps
	Property []string
}

// MarshalJSON writes the property list or the schema.
func (s JSONSchemaPropsOrStringArray) MarshalJSON() ([]byte, error) {
	if len(s.Property) > 0 {
		return json.Marshal(s.Property)
	}
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	return []byte("null"), nil
}

// UnmarshalJSON reads a schema or a string array.
func (s *JSONSchemaPropsOrStringArray) UnmarshalJSON(data []byte) error {
	var first byte
	if len(data) > 1 {
		first = data[0]
	}
	var nw JSONSchemaPropsOrStringArray
	if first == '{' {
		var sch JSONSchemaProps
		if err := json.Unmarshal(data, &sch); err != nil {
			return err
		}
		nw.Schema = &sch
	}
	if first == '[' {
		if err := json.Unmarshal(data, &nw.Property); err != nil {
			return err
		}
	}
	*s = nw
	return nil
}

// JSONSchemaDefinitions contains the models explicitly defined in this spec.
type JSONSchemaDefinitions map[string]JSONSchemaProps

// ExternalDocumentation allows referencing an external resource for extended documentation.
type ExternalDocumentation struct {
	Description string `json:"description,omitempty"`
	URL         string `json:"url,omitempty"`
}
