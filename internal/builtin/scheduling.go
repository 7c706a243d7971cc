package builtin

// scheduling.k8s.io/v1 PriorityClass: its scheme default
// (pkg/apis/scheduling/v1/defaults.go), registry strategy
// (pkg/registry/scheduling/priorityclass) and validation
// (pkg/apis/scheduling/validation).

import (
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/names"
)

// The priorities of pkg/apis/scheduling.
const (
	highestUserDefinablePriority = int32(1000000000)
	systemCriticalPriority       = 2 * highestUserDefinablePriority
	systemPriorityClassPrefix    = "system-"
)

// systemPriorityClasses are the predefined classes a "system-" name must
// be one of (pkg/apis/scheduling/v1 helpers.go), in upstream's order.
var systemPriorityClasses = []struct {
	name          string
	value         int32
	globalDefault bool
}{
	{"system-node-critical", systemCriticalPriority + 1000, false},
	{"system-cluster-critical", systemCriticalPriority, false},
}

// knownSystemPriorityClass mirrors IsKnownSystemPriorityClass's error ("" when known).
func knownSystemPriorityClass(name string, value int32, globalDefault bool) string {
	for _, s := range systemPriorityClasses {
		if s.name != name {
			continue
		}
		if s.value != value {
			return fmt.Sprintf("value of %v PriorityClass must be %v", s.name, s.value)
		}
		if s.globalDefault != globalDefault {
			return fmt.Sprintf("globalDefault of %v PriorityClass must be %v", s.name, s.globalDefault)
		}
		return ""
	}
	return fmt.Sprintf("%v is not a known system priority class", name)
}

// priorityClassStrategy is pkg/registry/scheduling/priorityclass's strategy.
type priorityClassStrategy struct{}

func (priorityClassStrategy) NamespaceScoped() bool { return false }
func (priorityClassStrategy) New() Object           { return &v1.PriorityClass{} }

// Decoded mirrors SetDefaults_PriorityClass: preemptionPolicy
// PreemptLowerPriority.
func (priorityClassStrategy) Decoded(o Object) {
	if pc := o.(*v1.PriorityClass); pc.PreemptionPolicy == nil {
		p := v1.PreemptLowerPriority
		pc.PreemptionPolicy = &p
	}
}

// PrepareForCreate sets the generation to 1.
func (priorityClassStrategy) PrepareForCreate(o Object)    { o.Meta().Generation = 1 }
func (priorityClassStrategy) PrepareForUpdate(_, _ Object) {}
func (priorityClassStrategy) Canonicalize(Object)          {}
func (priorityClassStrategy) WarningsOnCreate(kubeversion.Release, Object) []string {
	return nil
}
func (priorityClassStrategy) WarningsOnUpdate(kubeversion.Release, Object, Object) []string {
	return nil
}

// Validate mirrors ValidatePriorityClass.
func (priorityClassStrategy) Validate(rel kubeversion.Release, o Object) field.ErrorList {
	pc := o.(*v1.PriorityClass)
	errs := validateObjectMeta(rel, &pc.ObjectMeta, false, names.NameIsDNSSubdomain)
	if strings.HasPrefix(pc.ObjectMeta.Name, systemPriorityClassPrefix) {
		if msg := knownSystemPriorityClass(pc.ObjectMeta.Name, pc.Value, pc.GlobalDefault); msg != "" {
			errs = append(errs, field.Forbidden(field.NewPath("metadata", "name"), "priority class names with '"+systemPriorityClassPrefix+"' prefix are reserved for system use only. error: "+msg))
		}
	} else if pc.Value > highestUserDefinablePriority {
		errs = append(errs, field.Forbidden(field.NewPath("value"), fmt.Sprintf("maximum allowed value of a user defined priority is %v", highestUserDefinablePriority)))
	}
	if pc.PreemptionPolicy != nil {
		errs = append(errs, validatePreemptionPolicy(*pc.PreemptionPolicy, field.NewPath("preemptionPolicy"))...)
	}
	return errs
}

// validatePreemptionPolicy mirrors core validation's ValidatePreemptionPolicy.
func validatePreemptionPolicy(p v1.PreemptionPolicy, path *field.Path) field.ErrorList {
	switch p {
	case v1.PreemptLowerPriority, v1.PreemptNever:
		return nil
	case "":
		return field.ErrorList{field.Required(path, "")}
	}
	return field.ErrorList{field.NotSupported(path, string(p), []v1.PreemptionPolicy{v1.PreemptLowerPriority, v1.PreemptNever})}
}

// ValidateUpdate mirrors ValidatePriorityClassUpdate (which does not
// validate the new object again).
func (priorityClassStrategy) ValidateUpdate(rel kubeversion.Release, o, old Object) field.ErrorList {
	pc, oldPC := o.(*v1.PriorityClass), old.(*v1.PriorityClass)
	errs := objectmetaUpdate(rel, pc, oldPC)
	if pc.Value != oldPC.Value {
		errs = append(errs, field.Forbidden(field.NewPath("value"), "may not be changed in an update."))
	}
	if !equalPolicy(pc.PreemptionPolicy, oldPC.PreemptionPolicy) {
		errs = append(errs, field.Invalid(field.NewPath("preemptionPolicy"), policyValue(pc.PreemptionPolicy), "field is immutable"))
	}
	return errs
}

func objectmetaUpdate(rel kubeversion.Release, pc, old *v1.PriorityClass) field.ErrorList {
	return validateObjectMetaUpdate(rel, &pc.ObjectMeta, &old.ObjectMeta)
}

func equalPolicy(a, b *v1.PreemptionPolicy) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// policyValue is the value an Invalid error renders for the policy (JSON
// of the pointer: its string, or null).
func policyValue(p *v1.PreemptionPolicy) interface{} {
	if p == nil {
		return nil
	}
	return string(*p)
}
