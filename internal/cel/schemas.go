package cel

import (
	"github.com/google/cel-go/cel"

	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/schema"
)

// nameMaxLength is DNS1123SubdomainMaxLength, the cap upstream applies to
// metadata.name of resource roots for cost estimation.
const nameMaxLength = int64(253)

// SchemaDeclType converts a structural schema into its CEL DeclType exactly as
// upstream's common.SchemaDeclType does (via model.Structural). isResourceRoot
// adds the implicit apiVersion, kind and metadata.name/generateName. It
// returns nil when the schema has no CEL representation.
func SchemaDeclType(s *schema.Structural, isResourceRoot bool) *DeclType {
	return SchemaDeclTypeAt(s, isResourceRoot, kubeversion.Release{})
}

// SchemaDeclTypeAt is SchemaDeclType as Kubernetes release rel derives it
// (before 1.37 metadata.name and generateName are not capped).
func SchemaDeclTypeAt(s *schema.Structural, isResourceRoot bool, rel kubeversion.Release) *DeclType {
	if s == nil {
		return nil
	}
	vv := s.ValueValidation
	if s.XIntOrString {
		dyn := newSimpleType("dyn", cel.DynType, 1)
		if vv != nil && vv.MaxLength != nil {
			dyn.MaxElements = zeroIfNegative(*vv.MaxLength) * 4
		} else {
			dyn.MaxElements = estimateMaxStringLengthPerRequest(s)
		}
		return dyn
	}
	if isResourceRoot {
		s = withTypeAndObjectMeta(s, rel)
		vv = s.ValueValidation
	}
	switch s.Type {
	case "array":
		if s.Items == nil {
			return nil
		}
		itemsType := SchemaDeclTypeAt(s.Items, s.Items.XEmbeddedResource, rel)
		if itemsType == nil {
			return nil
		}
		var maxItems int64
		if vv != nil && vv.MaxItems != nil {
			maxItems = zeroIfNegative(*vv.MaxItems)
		} else {
			maxItems = (limits.MaxRequestSizeBytes - 2) / (itemsType.MinSerializedSize + 1)
		}
		return newListType(itemsType, maxItems)
	case "object":
		if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
			ap := s.AdditionalProperties.Structural
			propsType := SchemaDeclTypeAt(ap, ap.XEmbeddedResource, rel)
			if propsType == nil {
				return nil
			}
			var maxProps int64
			if vv != nil && vv.MaxProperties != nil {
				maxProps = zeroIfNegative(*vv.MaxProperties)
			} else {
				maxProps = (limits.MaxRequestSizeBytes - 2) / (propsType.MinSerializedSize + 6)
			}
			return newMapType(stringDeclType, propsType, maxProps)
		}
		fields := make(map[string]*DeclField, len(s.Properties))
		required := map[string]bool{}
		if vv != nil {
			for _, r := range vv.Required {
				required[r] = true
			}
		}
		minSize := int64(2)
		for name := range s.Properties {
			prop := s.Properties[name]
			ft := SchemaDeclTypeAt(&prop, prop.XEmbeddedResource, rel)
			if ft == nil {
				continue
			}
			if esc, ok := Escape(name); ok {
				fields[esc] = &DeclField{Name: esc, Type: ft, Required: required[name]}
			}
			if required[name] && prop.Default.Object == nil {
				minSize += int64(len(name)) + ft.MinSerializedSize + 4
			}
		}
		obj := newObjectType("object", fields)
		obj.MinSerializedSize = minSize
		return obj
	case "string":
		format := ""
		if vv != nil {
			format = vv.Format
		}
		switch format {
		case "byte":
			t := newSimpleType("bytes", cel.BytesType, minStringSize)
			if vv.MaxLength != nil {
				t.MaxElements = zeroIfNegative(*vv.MaxLength)
			} else {
				t.MaxElements = estimateMaxStringLengthPerRequest(s)
			}
			return t
		case "duration":
			t := newSimpleType("duration", cel.DurationType, minDurationSizeJSON)
			t.MaxElements = estimateMaxStringLengthPerRequest(s)
			return t
		case "date":
			t := newSimpleType("timestamp", cel.TimestampType, jsonDateSize)
			t.MaxElements = estimateMaxStringLengthPerRequest(s)
			return t
		case "date-time":
			t := newSimpleType("timestamp", cel.TimestampType, minDatetimeSizeJSON)
			t.MaxElements = estimateMaxStringLengthPerRequest(s)
			return t
		}
		t := newSimpleType("string", cel.StringType, minStringSize)
		switch {
		case vv != nil && vv.MaxLength != nil:
			t.MaxElements = zeroIfNegative(*vv.MaxLength) * 4
		case vv != nil && len(vv.Enum) > 0:
			var m int64
			for _, e := range vv.Enum {
				if str, ok := e.Object.(string); ok && int64(len(str)) > m {
					m = int64(len(str))
				}
			}
			t.MaxElements = m
		default:
			t.MaxElements = estimateMaxStringLengthPerRequest(s)
		}
		return t
	case "boolean":
		return boolDeclType
	case "number":
		return doubleDeclType
	case "integer":
		return intDeclType
	}
	return nil
}

func zeroIfNegative(v int64) int64 {
	if v < 0 {
		return 0
	}
	return v
}

func estimateMaxStringLengthPerRequest(s *schema.Structural) int64 {
	if s.XIntOrString {
		return limits.MaxRequestSizeBytes - 2
	}
	format := ""
	if s.ValueValidation != nil {
		format = s.ValueValidation.Format
	}
	switch format {
	case "duration":
		return maxDurationSizeJSON
	case "date":
		return jsonDateSize
	case "date-time":
		return maxDatetimeSizeJSON
	}
	return limits.MaxRequestSizeBytes - 2
}

// WithTypeAndObjectMeta returns s with the implicit string properties kind
// and apiVersion and an object metadata with name (maxLength 253) and
// generateName (252), unless s already declares all of them as upstream's
// model.WithTypeAndObjectMeta checks.
func WithTypeAndObjectMeta(s *schema.Structural) *schema.Structural {
	return withTypeAndObjectMeta(s, kubeversion.Release{})
}

func withTypeAndObjectMeta(s *schema.Structural, rel kubeversion.Release) *schema.Structural {
	if s.Properties != nil &&
		s.Properties["kind"].Type == "string" &&
		s.Properties["apiVersion"].Type == "string" &&
		s.Properties["metadata"].Type == "object" &&
		s.Properties["metadata"].Properties != nil &&
		s.Properties["metadata"].Properties["name"].Type == "string" &&
		s.Properties["metadata"].Properties["generateName"].Type == "string" {
		return s
	}
	out := &schema.Structural{
		AdditionalProperties: s.AdditionalProperties,
		Generic:              s.Generic,
		Extensions:           s.Extensions,
		ValueValidation:      s.ValueValidation,
		ValidationExtensions: s.ValidationExtensions,
	}
	props := make(map[string]schema.Structural, len(s.Properties)+3)
	for k, p := range s.Properties {
		props[k] = p
	}
	str := schema.Structural{Generic: schema.Generic{Type: "string"}}
	props["kind"] = str
	props["apiVersion"] = str
	meta := s.Properties["metadata"].Properties
	if !rel.Has(kubeversion.MetadataNameSizeCap) {
		props["metadata"] = schema.Structural{
			Generic:    schema.Generic{Type: "object"},
			Properties: map[string]schema.Structural{"name": str, "generateName": str},
		}
		out.Properties = props
		return out
	}
	props["metadata"] = schema.Structural{
		Generic: schema.Generic{Type: "object"},
		Properties: map[string]schema.Structural{
			"name":         cappedString(meta["name"], nameMaxLength),
			"generateName": cappedString(meta["generateName"], nameMaxLength-1),
		},
	}
	out.Properties = props
	return out
}

func cappedString(existing schema.Structural, maxLength int64) schema.Structural {
	if existing.ValueValidation != nil && existing.ValueValidation.MaxLength != nil && *existing.ValueValidation.MaxLength < maxLength {
		maxLength = *existing.ValueValidation.MaxLength
	}
	return schema.Structural{Generic: schema.Generic{Type: "string"}, ValueValidation: &schema.ValueValidation{MaxLength: &maxLength}}
}
