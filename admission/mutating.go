package admission

import (
	"fmt"

	"github.com/crdlab/crdlab/engine/crd"
	iadm "github.com/crdlab/crdlab/internal/admission"
	"github.com/crdlab/crdlab/internal/defaulting"
	crdschema "github.com/crdlab/crdlab/internal/schema"
	"github.com/crdlab/crdlab/internal/ssa"
)

// Mutating admission policies: MutatingAdmissionPolicy and
// MutatingAdmissionPolicyBinding (admissionregistration.k8s.io/v1) run on a
// request as the API server 1.37's MutatingAdmissionPolicy plugin does:
// matching, params, matchConditions and variables as for validating
// policies, then each policy's mutations in order (ApplyConfiguration
// merged with server-side apply's structured merge over the CRD's schema,
// JSONPatch), the reinvocation pass, and failure policies, with the API
// server's texts.
type (
	MutatingPolicy  = iadm.MutatingPolicy
	MutatingBinding = iadm.MutatingBinding
	MutatingConfig  = iadm.MutatingConfig
	Mutator         = iadm.Mutator
	// MutationTarget is the schema side of a request's kind; build it
	// with TargetFor.
	MutationTarget  = iadm.MutationTarget
	MutationResult  = iadm.MutationResult
	AppliedMutation = iadm.AppliedMutation
)

// NewMutator compiles the mutating policies of cfg.
func NewMutator(cfg MutatingConfig) (*Mutator, error) { return iadm.NewMutator(cfg) }

// TargetFor is the mutation target of the objects of def: its versions'
// schemas as structured-merge-diff types (ApplyConfiguration merges with
// them) and the structural defaulting the API server applies after each
// patch.
func TargetFor(def *crd.CustomResourceDefinition) (MutationTarget, error) {
	tc, err := ssa.NewTypeConverter(def)
	if err != nil {
		return MutationTarget{}, fmt.Errorf("%s: typed schema: %w", def.Metadata.Name, err)
	}
	structural := map[string]*crdschema.Structural{}
	for _, v := range def.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		if s, err := crdschema.NewStructural(v.Schema.OpenAPIV3Schema); err == nil {
			structural[v.Name] = s
		}
	}
	group := def.Spec.Group
	kind := def.Spec.Names.Kind
	return MutationTarget{TypeConverter: tc, Default: func(obj map[string]interface{}) {
		g := ssa.ObjectGVK(obj)
		if g.Group != group || g.Kind != kind {
			return
		}
		if s := structural[g.Version]; s != nil {
			defaulting.Default(obj, s)
		}
	}}, nil
}
