package openapi

import (
	"github.com/crdlab/crdlab/internal/keys"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/strfmt"
)

// supportedStringFormats are the string formats CRD schemas may use at
// compatibility version 1.36/1.37 (upstream's supportedVersionedFormats: the
// 1.0 set plus k8s-short-name and k8s-long-name from 1.34), normalized.
var supportedStringFormats = map[string]bool{
	"bsonobjectid": true, "uri": true, "email": true, "hostname": true,
	"ipv4": true, "ipv6": true, "cidr": true, "mac": true,
	"uuid": true, "uuid3": true, "uuid4": true, "uuid5": true,
	"isbn": true, "isbn10": true, "isbn13": true, "creditcard": true,
	"ssn": true, "hexcolor": true, "rgbcolor": true, "byte": true,
	"password": true, "date": true, "duration": true, "datetime": true,
	"k8sshortname": true, "k8slongname": true,
}

// formatSupported reports whether format is kept for a node whose single
// type is schemaType ("" when the node has no or several types).
func formatSupported(schemaType, format string) bool {
	switch schemaType {
	case "", stringType:
		return supportedStringFormats[strfmt.Normalize(format)]
	case integerType:
		return format == "int32" || format == "int64"
	case numberType:
		return format == "float" || format == "double"
	default:
		return false
	}
}

// stripUnsupportedFormat mirrors StripUnsupportedFormatsPostProcessorForVersion.
func stripUnsupportedFormat(types []string, format string) string {
	if format == "" {
		return ""
	}
	schemaType := ""
	if len(types) == 1 {
		schemaType = types[0]
	}
	if !formatSupported(schemaType, format) {
		return ""
	}
	return format
}

// GetUnrecognizedFormats returns the formats of s and of every schema below
// it that kube-apiserver 1.37 does not recognise, in the order upstream's
// CRD strategy finds them (SchemaHas traversal; map entries in sorted key
// order). The CRD strategy warns `unrecognized format "<f>"` for each.
func GetUnrecognizedFormats(s *crd.JSONSchemaProps) []string {
	var out []string
	walkProps(s, func(p *crd.JSONSchemaProps) {
		if p.Format != "" && !formatSupported(p.Type, p.Format) {
			out = append(out, p.Format)
		}
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
