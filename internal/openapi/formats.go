package openapi

import (
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/kubeversion"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/strfmt"
)

// formatSupported reports whether format is kept for a node whose single
// type is schemaType ("" when the node has no or several types).
func formatSupported(schemaType, format string, rel kubeversion.Release) bool {
	if !rel.Has(kubeversion.NumericFormats) {
		// before 1.36 only string formats exist, whatever the type
		return stringFormatSupported(format, rel)
	}
	switch schemaType {
	case "", stringType:
		return stringFormatSupported(format, rel)
	case integerType:
		return format == "int32" || format == "int64"
	case numberType:
		return format == "float" || format == "double"
	default:
		return false
	}
}

// stringFormatSupported reports whether a string format is recognized at
// rel (k8s-short-name and k8s-long-name from 1.35, K8sNameFormats).
func stringFormatSupported(format string, rel kubeversion.Release) bool {
	if !rel.Has(kubeversion.K8sNameFormats) {
		if n := strfmt.Normalize(format); n == "k8sshortname" || n == "k8slongname" {
			return false
		}
	}
	return strfmt.SupportedStringFormat(format)
}

// stripUnsupportedFormat mirrors StripUnsupportedFormatsPostProcessorForVersion.
func stripUnsupportedFormat(types []string, format string, rel kubeversion.Release) string {
	if format == "" {
		return ""
	}
	schemaType := ""
	if len(types) == 1 {
		schemaType = types[0]
	}
	if !formatSupported(schemaType, format, rel) {
		return ""
	}
	return format
}

// GetUnrecognizedFormats returns the formats of s and of every schema below
// it that kube-apiserver 1.37 does not recognise, in the order upstream's
// CRD strategy finds them (SchemaHas traversal; map entries in sorted key
// order). The CRD strategy warns `unrecognized format "<f>"` for each.
func GetUnrecognizedFormats(s *crd.JSONSchemaProps) []string {
	return GetUnrecognizedFormatsAt(s, kubeversion.Release{})
}

// GetUnrecognizedFormatsAt is GetUnrecognizedFormats at Kubernetes release
// rel: before 1.36 only the formats of nodes of type string are warned
// about.
func GetUnrecognizedFormatsAt(s *crd.JSONSchemaProps, rel kubeversion.Release) []string {
	var out []string
	walkProps(s, func(p *crd.JSONSchemaProps) {
		if p.Format == "" || formatSupported(p.Type, p.Format, rel) {
			return
		}
		if !rel.Has(kubeversion.NumericFormats) && p.Type != "string" {
			return
		}
		out = append(out, p.Format)
	})
	return out
}

func walkProps(s *crd.JSONSchemaProps, f func(*crd.JSONSchemaProps)) {
	if s == nil {
		return
	}
	f(s)
	if s.Items != nil {
		walkProps(s.Items.Schema, f)
		for i := range s.Items.JSONSchemas {
			walkProps(&s.Items.JSONSchemas[i], f)
		}
	}
	for i := range s.AllOf {
		walkProps(&s.AllOf[i], f)
	}
	for i := range s.AnyOf {
		walkProps(&s.AnyOf[i], f)
	}
	for i := range s.OneOf {
		walkProps(&s.OneOf[i], f)
	}
	walkProps(s.Not, f)
	for _, k := range keys.Sorted(s.Properties) {
		p := s.Properties[k]
		walkProps(&p, f)
	}
	if s.AdditionalProperties != nil {
		walkProps(s.AdditionalProperties.Schema, f)
	}
	for _, k := range keys.Sorted(s.PatternProperties) {
		p := s.PatternProperties[k]
		walkProps(&p, f)
	}
	if s.AdditionalItems != nil {
		walkProps(s.AdditionalItems.Schema, f)
	}
	for _, k := range keys.Sorted(s.Definitions) {
		p := s.Definitions[k]
		walkProps(&p, f)
	}
	deps := keys.Sorted(s.Dependencies)
	for _, k := range deps {
		walkProps(s.Dependencies[k].Schema, f)
	}
}
