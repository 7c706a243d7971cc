// Package engine is crdlab's public API: it compiles a CustomResourceDefinition
// and validates custom resources against it offline, reproducing what
// kube-apiserver 1.37 (k8s.io/apiextensions-apiserver v0.37.2) does.
//
// Compile mirrors the CRD create path (decoding with the v1 defaults, then
// pkg/registry/customresourcedefinition's Validate and WarningsOnCreate), and
// builds, per served version, what pkg/apiserver/customresource_handler.go's
// getOrCreateServingInfoFor builds: the structural schema with pruned
// defaults, the OpenAPI schema validators (whole object and status), the
// scale and status subresources and the deprecation warnings.
//
// Validate mirrors the request path of a create, update or status update:
// the handlers' decoding with fieldValidation Strict/Warn/Ignore (the
// schemaCoercingDecoder: strict JSON decoding, ObjectMeta coercion, pruning,
// dropping non-nullable nulls, defaulting), the group/version check, the
// owner-reference deduplication, then k8s.io/apiserver's registry
// (rest.BeforeCreate/BeforeUpdate, ValidateCreate/ValidateUpdate) with the CR
// strategy (pkg/registry/customresource strategy.go, validator.go,
// status_strategy.go): PrepareForCreate/PrepareForUpdate, Validate /
// ValidateUpdate and the finalizer warnings. The x-kubernetes-validations
// (CEL) step has one slot, Validator.validateCEL in pipeline.go.
//
// What a cluster does that cannot be reproduced offline is documented on
// Validate (server-set uid/creationTimestamp, managedFields, random
// generateName suffixes, resourceVersion conflicts).
package engine

import (
	"errors"
	"fmt"
	"github.com/crdlab/crdlab/internal/cel"
	"sort"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/crdvalidation"
	"github.com/crdlab/crdlab/internal/defaults"
	"github.com/crdlab/crdlab/internal/openapi"
	"github.com/crdlab/crdlab/internal/schema"
)

// FieldValidation is the fieldValidation request parameter.
type FieldValidation string

const (
	// Strict rejects objects with unknown or duplicate fields (kubectl's default).
	Strict FieldValidation = "Strict"
	// Warn accepts them and returns one warning per violation (the API server's default).
	Warn FieldValidation = "Warn"
	// Ignore accepts them silently.
	Ignore FieldValidation = "Ignore"
)

// CRD is a compiled CustomResourceDefinition. It is immutable and safe for
// concurrent use.
type CRD struct {
	def        *crd.CustomResourceDefinition
	errs       field.ErrorList
	warnings   []string
	validators map[string]*Validator // by version name, served or stored versions
	storage    string
	buildErr   error // set when the CRD could not be served
}

// Compile decodes one CustomResourceDefinition (YAML or JSON) and compiles
// it. The error is only about decoding: a decoded but invalid CRD compiles
// and reports its problems through Errors.
func Compile(crdYAMLorJSON []byte) (*CRD, error) {
	defs, err := crd.Decode(crdYAMLorJSON, "")
	if err != nil {
		return nil, err
	}
	if len(defs) != 1 {
		return nil, fmt.Errorf("expected exactly one CustomResourceDefinition, found %d", len(defs))
	}
	return CompileCRD(defs[0]), nil
}

// CompileCRD compiles an already decoded CustomResourceDefinition (with the
// v1 defaults applied, as crd.Decode does).
func CompileCRD(c *crd.CustomResourceDefinition) *CRD {
	out := &CRD{def: c}
	// Share rule compilations between the CRD checks, the default-value
	// checks and the serving validators (results are identical); the cache
	// is dropped with this compile.
	cache := cel.NewCompileCache()
	func() {
		defer func() {
			if r := recover(); r != nil {
				out.errs = append(out.errs, field.InternalError(nil, fmt.Errorf("crdlab: CRD validation panicked: %v", r)))
			}
		}()
		out.errs, out.warnings = crdvalidation.ValidateCustomResourceDefinition(c, crdvalidation.Options{CompileCache: cache})
	}()
	out.warnings = recordWarnings(out.warnings)
	if len(out.errs) > 0 {
		return out
	}
	out.buildErr = out.build(cache)
	return out
}

// Errors returns the CRD validation errors, in upstream's order.
func (c *CRD) Errors() field.ErrorList { return c.errs }

// Warnings returns the CRD warnings (e.g. unrecognized formats).
func (c *CRD) Warnings() []string { return c.warnings }

// Definition returns the decoded CRD. Callers must not modify it.
func (c *CRD) Definition() *crd.CustomResourceDefinition { return c.def }

// Validator returns the validator of a served version; "" is the storage
// version.
func (c *CRD) Validator(version string) (*Validator, error) {
	if len(c.errs) > 0 {
		return nil, fmt.Errorf("CustomResourceDefinition %q is invalid: %v", c.def.Metadata.Name, c.errs.ToAggregate())
	}
	if c.buildErr != nil {
		return nil, c.buildErr
	}
	if version == "" {
		version = c.storage
	}
	v, ok := c.validators[version]
	if !ok || !v.served {
		return nil, fmt.Errorf("version %q is not served by CustomResourceDefinition %q (served: %v)", version, c.def.Metadata.Name, c.servedVersions())
	}
	return v, nil
}

func (c *CRD) servedVersions() []string {
	var out []string
	for _, v := range c.def.Spec.Versions {
		if v.Served {
			out = append(out, v.Name)
		}
	}
	return out
}

// Validate validates one object (a JSON or YAML document). The version is
// opts.Version, else the object's apiVersion when it names a served
// version of this CRD, else the storage version. The error is only for
// misuse: an invalid CRD, an unknown version, an undecodable old object.
func (c *CRD) Validate(object []byte, opts ValidateOptions) (*Result, error) {
	version := opts.Version
	var body *jsonBody
	if version == "" {
		body = toJSONBody(object)
		version = c.pickVersion(body)
	}
	v, err := c.Validator(version)
	if err != nil {
		return nil, err
	}
	return v.validate(object, body, opts)
}

// pickVersion returns the object's version when its apiVersion names this
// CRD's group and a served version.
func (c *CRD) pickVersion(body *jsonBody) string {
	if body.err != nil {
		return ""
	}
	g, err := body.interpret()
	if err != nil || g.Group != c.def.Spec.Group {
		return ""
	}
	if v, ok := c.validators[g.Version]; ok && v.served {
		return g.Version
	}
	return ""
}

// versionInfo is what the handler keeps per version.
type servingShared struct {
	group, kind           string
	namespaced            bool
	preserveUnknownFields bool
	structural            map[string]*schema.Structural // by version; nil entry = no schema
}

// build mirrors getOrCreateServingInfoFor for every version.
func (c *CRD) build(cache *cel.CompileCache) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("crdlab: building validators panicked: %v", r)
		}
	}()
	spec := &c.def.Spec
	shared := &servingShared{
		group:                 spec.Group,
		kind:                  spec.Names.Kind,
		namespaced:            spec.Scope == crd.NamespaceScoped,
		preserveUnknownFields: spec.PreserveUnknownFields,
		structural:            map[string]*schema.Structural{},
	}
	for _, v := range spec.Versions {
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
			s = s.DeepCopy()
			if err := defaults.PruneDefaults(s); err != nil {
				return fmt.Errorf("the server could not properly serve the CR schema: failed to prune defaults: %v", err)
			}
		}
		shared.structural[v.Name] = s
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
			val.cel = cel.NewValidatorWithCache(val.structural, true, cel.PerCallLimit, cache)
		}
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			props := v.Schema.OpenAPIV3Schema
			if val.schemaValidator, err = openapi.NewSchemaValidator(props); err != nil {
				return err
			}
			if v.Subresources != nil && v.Subresources.Status != nil && props.Properties != nil {
				if st, ok := props.Properties["status"]; ok {
					if val.statusValidator, err = openapi.NewSchemaValidator(&st); err != nil {
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
