package defaulting

import (
	"fmt"
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"reflect"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/objectmeta"
	"github.com/crdlab/crdlab/internal/openapi"
	"github.com/crdlab/crdlab/internal/pruning"
	"github.com/crdlab/crdlab/internal/schema"
)

// Surrounding TypeMeta of the object a default in metadata, apiVersion or
// kind is validated in (upstream's ValidateDefaults uses these literals).
const (
	validationAPIVersion = "validation/v1"
	validationKind       = "Validation"
)

// celDefaultValidator checks a default value against the
// x-kubernetes-validations rules of s and of every schema below it and
// returns the errors and the remaining cost budget (negative when exhausted;
// the "running out of cost budget" error is the validator's to report).
// ValidateDefaults uses celValidator; tests substitute a fake.
//
// The walk calls it for each default (at pth = <schema path>.default) that
// passed the pruning, ObjectMeta and OpenAPI checks: first with oldObj = obj
// (the default as both self and oldSelf); then, if that gave no errors, with
// oldObj = nil (an update from nothing to the default, because
// CRDValidationRatcheting is locked on in 1.37 and rules may use
// optionalOldSelf). The smaller of the two remaining budgets is kept.
type celDefaultValidator func(pth *field.Path, s *schema.Structural, isResourceRoot bool, obj, oldObj interface{}, costBudget int64) (field.ErrorList, int64)

// celValidator is upstream's
// cel.NewValidator(s, isResourceRoot, celconfig.PerCallLimit).Validate(ctx,
// pth, s, obj, oldObj, costBudget) in defaulting's validation: no
// ratcheting; a schema without rules anywhere gives a nil validator, that
// is (nil, costBudget). Compilations go through cache (nil: none).
func celValidator(cache *cel.CompileCache) celDefaultValidator {
	return func(pth *field.Path, s *schema.Structural, isResourceRoot bool, obj, oldObj interface{}, costBudget int64) (field.ErrorList, int64) {
		v := cel.NewValidatorWithCache(s, isResourceRoot, limits.PerCallLimit, cache)
		errs, remaining, _ := v.Validate(pth, obj, oldObj, costBudget)
		return errs, remaining
	}
}

// ValidateOptions are the knobs of ValidateDefaults.
type ValidateOptions struct {
	// CompileCache memoizes the compilations of the CEL rules (nil: none).
	CompileCache *cel.CompileCache
	// Patterns memoizes the compiled schema patterns (nil: none).
	Patterns *openapi.Patterns
	// CostBudget is the total CEL cost budget; 0 means
	// limits.RuntimeCELCostBudget.
	CostBudget int64
	// Release is the Kubernetes release whose validation runs (the zero
	// Release: the newest); the CEL rules compile in CompileCache's.
	Release kubeversion.Release
}

// ValidateDefaults checks, at CRD creation or update, that every default
// value of s is pruned (when requirePrunedDefaults), results in valid
// apiVersion/kind/ObjectMeta where it is or contains them, passes the
// OpenAPI validation of its schema and satisfies its CEL rules
// (internal/cel). The errors are upstream's: at <pth>...default, in schema
// order with properties visited in sorted key order (upstream visits
// them in map order, so only the order across sibling properties may differ
// from one upstream run to another). The error result reports internal
// failures, as upstream's does. opts carries a compile cache and a cost
// budget (the zero ValidateOptions: none).
func ValidateDefaults(pth *field.Path, s *schema.Structural, isResourceRoot, requirePrunedDefaults bool, opts ValidateOptions) (field.ErrorList, error) {
	s = schema.ResourceRoot(s, isResourceRoot)
	budget := opts.CostBudget
	if budget == 0 {
		budget = limits.RuntimeCELCostBudget
	}
	v := defaultValidator{
		requirePruned: requirePrunedDefaults,
		coerce:        objectmeta.Coerce,
		validateMeta: func(pth *field.Path, obj interface{}, s *schema.Structural, isResourceRoot bool) field.ErrorList {
			return objectmeta.ValidateAt(opts.Release, pth, obj, s, isResourceRoot)
		},
		validateOpenAPI: func(pth *field.Path, s *schema.Structural, obj interface{}) field.ErrorList {
			return openapi.NewValidatorFromStructuralAt(s, opts.Patterns, opts.Release).Validate(pth, obj)
		},
		cel:           celValidator(opts.CompileCache),
		goSyntaxInner: !opts.Release.Has(kubeversion.FieldValueJSON),
	}
	f := NewRootObjectFunc().WithTypeMeta(validationAPIVersion, validationKind)
	errs, err, _ := v.validate(pth, s, s, f, false, budget)
	return errs, err
}

// defaultValidator holds the checks ValidateDefaults runs, so that tests can
// observe the walk independently of the other packages.
type defaultValidator struct {
	requirePruned   bool
	coerce          func(pth *field.Path, obj interface{}, s *schema.Structural, isResourceRoot, dropInvalidFields bool) *field.Error
	validateMeta    func(pth *field.Path, obj interface{}, s *schema.Structural, isResourceRoot bool) field.ErrorList
	validateOpenAPI func(pth *field.Path, s *schema.Structural, obj interface{}) field.ErrorList
	cel             celDefaultValidator
	// goSyntaxInner renders the bad values of the ObjectMeta errors quoted
	// in a metadata default's detail ("must result in valid metadata: …")
	// in Go syntax, as k8s.io/apimachinery before v0.34 prints them
	// (kubeversion.FieldValueJSON): the outer error's value is rendered
	// at the release by the caller, the quoted ones are text by then.
	goSyntaxInner bool
}

// validate walks s. insideMeta says that s is (below) the apiVersion, kind or
// metadata of rootSchema, the resource or embedded resource s belongs to; f
// places a value at s's position in an object of rootSchema.
func (v *defaultValidator) validate(pth *field.Path, s, rootSchema *schema.Structural, f SurroundingObjectFunc, insideMeta bool, budget int64) (allErrs field.ErrorList, err error, remaining int64) {
	remaining = budget
	if s == nil {
		return nil, nil, remaining
	}
	if s.XEmbeddedResource {
		insideMeta = false
		f = NewRootObjectFunc().WithTypeMeta(validationAPIVersion, validationKind)
		rootSchema = s
	}
	isResourceRoot := s == rootSchema

	if s.Default.Object != nil {
		dpth := pth.Child("default")
		def := s.Default.Object
		var errs field.ErrorList
		checked := false
		if insideMeta {
			// The default is checked inside a surrounding object of the
			// resource, where its metadata, apiVersion or kind are.
			obj, _, ferr := f(schema.DeepCopyJSONValue(def))
			if ferr != nil {
				return nil, fmt.Errorf("failed to validate default value inside metadata: %v", ferr), remaining
			}
			if cerr := v.coerce(nil, obj, rootSchema, true, false); cerr != nil {
				if v.goSyntaxInner {
					cerr = field.ErrorList{cerr}.WithGoSyntaxValues()[0]
				}
				errs = append(errs, field.Invalid(dpth, def, fmt.Sprintf("must result in valid metadata: %v", cerr)))
			} else if merrs := v.validateMeta(nil, obj, rootSchema, true); len(merrs) > 0 {
				if v.goSyntaxInner {
					merrs = merrs.WithGoSyntaxValues()
				}
				errs = append(errs, field.Invalid(dpth, def, fmt.Sprintf("must result in valid metadata: %v", merrs.ToAggregate())))
			} else if oerrs := v.validateOpenAPI(dpth, s, def); len(oerrs) > 0 {
				errs = append(errs, oerrs...)
			} else {
				checked = true
			}
		} else {
			// Upstream coerces the schema's default itself in place (with
			// dropInvalidFields false that only rewrites embedded metadata,
			// e.g. drops its unknown fields) and then reports and validates
			// the coerced value; errors keep a reference to it. Working on a
			// copy gives the same errors and leaves the schema untouched.
			def = schema.DeepCopyJSONValue(def)
			if v.requirePruned {
				pruned := schema.DeepCopyJSONValue(def)
				pruning.PruneWithOptions(pruned, s, s.XEmbeddedResource, pruning.Options{})
				if !reflect.DeepEqual(pruned, def) {
					errs = append(errs, field.Invalid(dpth, def, "must not have unknown fields"))
				}
			}
			if cerr := v.coerce(dpth, def, s, s.XEmbeddedResource, false); cerr != nil {
				errs = append(errs, cerr)
			} else if merrs := v.validateMeta(dpth, def, s, s.XEmbeddedResource); len(merrs) > 0 {
				errs = append(errs, merrs...)
			} else if oerrs := v.validateOpenAPI(dpth, s, def); len(oerrs) > 0 {
				errs = append(errs, oerrs...)
			} else {
				checked = true
			}
		}
		allErrs = append(allErrs, errs...)
		if checked && v.cel != nil {
			celErrs, rem := v.cel(dpth, s, isResourceRoot, def, def, remaining)
			allErrs = append(allErrs, celErrs...)
			if len(celErrs) == 0 {
				// CRDValidationRatcheting (GA, locked on): also validate the
				// transition from no value to the default.
				celErrs, remNoOld := v.cel(dpth, s, isResourceRoot, def, nil, remaining)
				allErrs = append(allErrs, celErrs...)
				if remNoOld < rem {
					rem = remNoOld
				}
			}
			remaining = rem
			if remaining < 0 {
				return allErrs, nil, remaining
			}
		}
	}

	// additionalProperties are not followed: defaults are forbidden there.

	if s.Items != nil {
		errs, err, rem := v.validate(pth.Child("items"), s.Items, rootSchema, f.Index(), insideMeta, remaining)
		remaining = rem
		allErrs = append(allErrs, errs...)
		if err != nil {
			return nil, err, remaining
		}
		if remaining < 0 {
			return allErrs, nil, remaining
		}
	}

	keys := keys.Sorted(s.Properties)
	for _, k := range keys {
		sub := s.Properties[k]
		subInsideMeta := insideMeta
		if s.XEmbeddedResource && (k == "metadata" || k == "apiVersion" || k == "kind") {
			subInsideMeta = true
		}
		errs, err, rem := v.validate(pth.Child("properties").Key(k), &sub, rootSchema, f.Child(k), subInsideMeta, remaining)
		remaining = rem
		allErrs = append(allErrs, errs...)
		if err != nil {
			return nil, err, remaining
		}
		if remaining < 0 {
			return allErrs, nil, remaining
		}
	}
	return allErrs, nil, remaining
}
