package admission

import (
	"fmt"
	"strings"

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

// BuiltinTarget is the mutation target of a built-in kind (apps/v1
// Deployment, v1 ConfigMap, ...) served as the resource plural, namespaced
// or not: an ApplyConfiguration merges over apiVersion, kind and ObjectMeta
// typed as the API server types them, and over the rest of the object as
// structured-merge-diff deduces it (maps merged key by key, lists replaced
// whole: the built-in kinds' published schemas, which key containers by
// name and ports by containerPort and protocol, are not modelled yet).
// After each patch redefault, when not nil, gives the object the
// dispatcher's conversion to the typed object and the scheme's defaulting
// make of it (crdlab's CLI gives internal/builtin's for the kinds it
// validates natively).
func BuiltinTarget(apiVersion, kind, plural string, namespaced bool, redefault func(map[string]interface{}) map[string]interface{}) (MutationTarget, error) {
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group, version = "", apiVersion
	}
	preserve := true
	def := &crd.CustomResourceDefinition{}
	def.Metadata.Name = plural + "." + group
	def.Spec.Group = group
	def.Spec.Scope = "Namespaced"
	if !namespaced {
		def.Spec.Scope = "Cluster"
	}
	def.Spec.Names.Kind, def.Spec.Names.Plural = kind, plural
	def.Spec.Versions = []crd.CustomResourceDefinitionVersion{{Name: version, Served: true, Storage: true,
		Schema: &crd.CustomResourceValidation{OpenAPIV3Schema: &crd.JSONSchemaProps{Type: "object", XPreserveUnknownFields: &preserve}}}}
	tc, err := ssa.NewTypeConverter(def)
	if err != nil {
		return MutationTarget{}, fmt.Errorf("%s %s: typed schema: %w", apiVersion, kind, err)
	}
	t := MutationTarget{TypeConverter: tc}
	if redefault != nil {
		t.Default = func(obj map[string]interface{}) {
			g := ssa.ObjectGVK(obj)
			if g.Group != group || g.Version != version || g.Kind != kind {
				return
			}
			d := redefault(obj)
			if d == nil {
				return
			}
			for k := range obj {
				delete(obj, k)
			}
			for k, v := range d {
				obj[k] = v
			}
		}
	}
	return t, nil
}

// BuiltinKinds is the request path of Kubernetes' built-in kinds around
// the admission chain, at one release: what the handler does to a body
// before mutating admission, what the dispatcher does after a patch, and
// what the registry strategy does between mutating and validating
// admission. crdlab's native build implements it (internal/builtin, given
// to crdtest by the CLI); the WebAssembly module does not link it, and
// there an object of a built-in kind reaches the policies as written.
type BuiltinKinds interface {
	// Resource is the resource serving apiVersion and kind (its plural
	// name and scope); ok is false when the release serves none that can
	// be created.
	Resource(apiVersion, kind string) (plural string, namespaced, ok bool)
	// Admitted is the object mutating admission sees (decoded, defaulted,
	// converted, in the request's namespace); ok is false when the body
	// does not decode under fieldValidation (the request fails before
	// admission: Serve answers it).
	Admitted(apiVersion, kind string, obj map[string]interface{}, fieldValidation string) (admitted map[string]interface{}, ok bool)
	// Redefault is the object a mutating policy patched, converted back
	// to its Go type and defaulted; nil when nothing is modelled.
	Redefault(apiVersion, kind string, obj map[string]interface{}) map[string]interface{}
	// Serve is the strategy's answer to the create (old nil) or update of
	// obj after mutating admission.
	Serve(apiVersion, kind string, obj, old map[string]interface{}, fieldValidation string) (BuiltinAnswer, error)
}

// BuiltinAnswer is the registry's answer to a built-in object between
// mutating and validating admission.
type BuiltinAnswer struct {
	// Modelled is set when the kind's native validation ran; otherwise
	// Object is the object as given.
	Modelled bool
	// Object is what validating admission sees (nil when refused).
	Object map[string]interface{}
	// Message, Reason and Code are the refusal's status (Code 0: none).
	Message, Reason string
	Code            int
	Warnings        []string
}

// StoredObjects is objects (params, Namespaces, RBAC objects given as
// inputs) as the API server stores them once `kubectl apply` created them:
// each object of a built-in kind bk validates natively replaced by its
// stored form (a Namespace with its kubernetes.io/metadata.name label and
// phase, a Secret's stringData merged into data and its type, the namespace
// "default" when it has none); the others, and objects the API server
// would refuse, as they are.
func StoredObjects(objects []map[string]interface{}, bk BuiltinKinds) []map[string]interface{} {
	if bk == nil {
		return objects
	}
	out := make([]map[string]interface{}, len(objects))
	for i, o := range objects {
		out[i] = o
		apiVersion, _ := o["apiVersion"].(string)
		kind, _ := o["kind"].(string)
		if _, _, ok := bk.Resource(apiVersion, kind); !ok {
			continue
		}
		a, err := bk.Serve(apiVersion, kind, o, nil, "Strict")
		if err != nil || !a.Modelled || a.Code != 0 || a.Object == nil {
			continue
		}
		if stored, err := ObjectOf(a.Object); err == nil && stored != nil {
			out[i] = stored
		}
	}
	return out
}
