package engine

// Serving setup: what customresource_handler.go's getOrCreateServingInfoFor
// builds for every version of a CRD.

import (
	"errors"
	"fmt"
	"sort"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/defaulting"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/openapi"
	"github.com/crdlab/crdlab/internal/schema"
)

// servingShared is what the versions of one CRD share in the handler's
// crdInfo: the names and scope, and the structural schema of every version
// (the schemaCoercingDecoder of one version defaults objects of any).
type servingShared struct {
	group, kind           string
	namespaced            bool
	preserveUnknownFields bool
	structural            map[string]*schema.Structural // by version; nil entry = no schema
}

// scaleSpec is the scale subresource of a version.
type scaleSpec struct {
	specReplicasPath, statusReplicasPath string
	labelSelectorPath                    *string
}

// build mirrors getOrCreateServingInfoFor for every version.
func (c *CRD) build(cache *cel.CompileCache, patterns *openapi.Patterns, share *CompileShare) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("crdlab: building validators panicked: %v", r)
		}
	}()
	spec := &c.def.Spec
	if shared := share.servingOf(c.def); shared != nil {
		return c.buildValidators(cache, patterns, shared)
	}
	shared := &servingShared{
		group:                 spec.Group,
		kind:                  spec.Names.Kind,
		namespaced:            spec.Scope == crd.NamespaceScoped,
		preserveUnknownFields: spec.PreserveUnknownFields,
		structural:            map[string]*schema.Structural{},
	}
	for _, v := range spec.Versions {
		if err := cache.Err(); err != nil {
			// CompileContext's context ended: the CRD is dropped.
			return err
		}
		if v.Storage {
			c.storage = v.Name
		}
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		s, err := schema.NewStructural(v.Schema.OpenAPIV3Schema)
		if !spec.PreserveUnknownFields && err != nil {
			return fmt.Errorf("the server could not properly serve the CR schema: %v", err)
		}
		if !spec.PreserveUnknownFields {
			// s is this loop's own: PruneDefaults may change it in place,
			// as upstream's getOrCreateServingInfoFor does.
			if err := defaulting.PruneDefaults(s); err != nil {
				return fmt.Errorf("the server could not properly serve the CR schema: failed to prune defaults: %v", err)
			}
		}
		shared.structural[v.Name] = s
	}
	if err := c.buildValidators(cache, patterns, shared); err != nil {
		return err
	}
	share.keepServing(c.def, shared)
	return nil
}

// buildValidators builds the validator of every served or stored version
// over shared (the structural schemas, which do not depend on the
// release).
func (c *CRD) buildValidators(cache *cel.CompileCache, patterns *openapi.Patterns, shared *servingShared) (err error) {
	spec := &c.def.Spec
	for _, v := range spec.Versions {
		if v.Storage {
			c.storage = v.Name
		}
	}
	c.validators = map[string]*Validator{}
	for _, v := range spec.Versions {
		if !v.Storage && !v.Served {
			continue
		}
		val := &Validator{
			crd:     c,
			shared:  shared,
			version: v.Name,
			served:  v.Served,
		}
		val.structural = shared.structural[v.Name]
		if val.structural != nil {
			// The strategy's cel.NewValidator(structuralSchema, true, PerCallLimit):
			// nil when no node has rules.
			val.cel = cel.NewValidatorWithCache(val.structural, true, limits.PerCallLimit, cache)
		}
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			props := v.Schema.OpenAPIV3Schema
			if val.schemaValidator, err = openapi.NewSchemaValidatorAt(props, patterns, c.release); err != nil {
				return err
			}
			if v.Subresources != nil && v.Subresources.Status != nil && props.Properties != nil {
				if st, ok := props.Properties["status"]; ok {
					if val.statusValidator, err = openapi.NewSchemaValidatorAt(&st, patterns, c.release); err != nil {
						return err
					}
				}
			}
		}
		if v.Subresources != nil {
			val.hasStatus = v.Subresources.Status != nil
			if sc := v.Subresources.Scale; sc != nil {
				val.scale = &scaleSpec{specReplicasPath: sc.SpecReplicasPath, statusReplicasPath: sc.StatusReplicasPath, labelSelectorPath: sc.LabelSelectorPath}
			}
		}
		if v.Deprecated {
			if v.DeprecationWarning != nil {
				val.warnings = append(val.warnings, *v.DeprecationWarning)
			} else {
				val.warnings = append(val.warnings, defaultDeprecationWarning(v.Name, spec))
			}
		}
		c.validators[v.Name] = val
	}
	if c.storage == "" {
		return errors.New("the CustomResourceDefinition has no storage version")
	}
	return nil
}

// defaultDeprecationWarning mirrors the handler's function of the same name.
func defaultDeprecationWarning(deprecatedVersion string, spec *crd.CustomResourceDefinitionSpec) string {
	msg := fmt.Sprintf("%s/%s %s is deprecated", spec.Group, deprecatedVersion, spec.Names.Kind)
	var newer []string
	for _, v := range spec.Versions {
		if v.Served && !v.Deprecated && compareKubeAwareVersionStrings(deprecatedVersion, v.Name) < 0 {
			newer = append(newer, v.Name)
		}
	}
	if len(newer) == 0 {
		return msg
	}
	sort.Slice(newer, func(i, j int) bool { return compareKubeAwareVersionStrings(newer[i], newer[j]) > 0 })
	return msg + fmt.Sprintf("; use %s/%s %s", spec.Group, newer[0], spec.Names.Kind)
}
