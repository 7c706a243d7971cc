package crd

import "strings"

// DefaultServicePort is the conversion webhook service port the v1 API
// defaults to (upstream SetDefaults_ServiceReference).
const DefaultServicePort int32 = 443

// SetDefaults applies the defaults the API server applies when it decodes an
// apiextensions.k8s.io/v1 CustomResourceDefinition (upstream
// pkg/apis/apiextensions/v1/defaults.go): names.singular is the lower-cased
// kind, names.listKind is kind+"List", conversion defaults to strategy None,
// a conversion webhook service port defaults to 443, and status.storedVersions
// to the storage version.
func SetDefaults(c *CustomResourceDefinition) {
	if c == nil {
		return
	}
	s := &c.Spec
	if len(s.Names.Singular) == 0 {
		s.Names.Singular = strings.ToLower(s.Names.Kind)
	}
	if len(s.Names.ListKind) == 0 && len(s.Names.Kind) > 0 {
		s.Names.ListKind = s.Names.Kind + "List"
	}
	if s.Conversion == nil {
		s.Conversion = &CustomResourceConversion{Strategy: NoneConverter}
	}
	if w := s.Conversion.Webhook; w != nil && w.ClientConfig != nil && w.ClientConfig.Service != nil && w.ClientConfig.Service.Port == nil {
		p := DefaultServicePort
		w.ClientConfig.Service.Port = &p
	}
	if len(c.Status.StoredVersions) == 0 {
		for _, v := range s.Versions {
			if v.Storage {
				c.Status.StoredVersions = append(c.Status.StoredVersions, v.Name)
				break
			}
		}
	}
}
