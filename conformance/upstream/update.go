package upstream

import (
	"context"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
)

// AsStored completes an old CRD as the API server stores an accepted CRD,
// exactly as crdlab's engine.AsStored does (the request model of `crdlab
// lint --old`): storedVersions (explicit, else the file's, else the storage
// version), and when the file has no conditions, NamesAccepted and
// Established True with acceptedNames = spec.names; generation 1 and
// resourceVersion "1" when unset.
func AsStored(c *apiextensionsv1.CustomResourceDefinition, storedVersions []string) *apiextensionsv1.CustomResourceDefinition {
	out := c.DeepCopy()
	switch {
	case storedVersions != nil:
		out.Status.StoredVersions = append([]string(nil), storedVersions...)
	case len(out.Status.StoredVersions) == 0:
		for _, v := range c.Spec.Versions {
			if v.Storage {
				out.Status.StoredVersions = []string{v.Name}
				break
			}
		}
	}
	if len(c.Status.Conditions) == 0 {
		out.Status.Conditions = []apiextensionsv1.CustomResourceDefinitionCondition{
			{Type: apiextensionsv1.NamesAccepted, Status: apiextensionsv1.ConditionTrue, Reason: "NoConflicts", Message: "no conflicts found"},
			{Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue, Reason: "InitialNamesAccepted", Message: "the initial names have been accepted"},
		}
		if out.Status.AcceptedNames.Plural == "" {
			out.Status.AcceptedNames = c.Spec.Names
		}
	}
	if out.Generation == 0 {
		out.Generation = 1
	}
	if out.ResourceVersion == "" {
		out.ResourceVersion = "1"
	}
	return out
}

// UpdateCRD runs the CRD update path of rest.BeforeUpdate with the CRD
// registry strategy: generation kept from the old object, PrepareForUpdate,
// uid/creationTimestamp/deletionTimestamp kept from the old object,
// rest.ValidateUpdate (validateCommonFields, then strategy.ValidateUpdate,
// i.e. ValidateCustomResourceDefinitionUpdate) and, when valid,
// WarningsOnUpdate. The old CRD is first completed by AsStored; the new one
// takes the old resourceVersion when it has none (kubectl apply/replace).
func UpdateCRD(newV1, oldV1 *apiextensionsv1.CustomResourceDefinition, storedVersions []string) (c *CompiledCRD, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("upstream panicked on the CRD update: %v", r)
		}
	}()
	oldV1 = AsStored(oldV1, storedVersions)
	newV1 = newV1.DeepCopy()
	if newV1.ResourceVersion == "" {
		newV1.ResourceVersion = oldV1.ResourceVersion
	}
	obj := &apiextensions.CustomResourceDefinition{}
	if err := scheme.Convert(newV1, obj, nil); err != nil {
		return nil, fmt.Errorf("converting to internal: %v", err)
	}
	old := &apiextensions.CustomResourceDefinition{}
	if err := scheme.Convert(oldV1, old, nil); err != nil {
		return nil, fmt.Errorf("converting old to internal: %v", err)
	}
	ctx := genericapirequest.WithNamespace(context.Background(), "")
	strategy := customresourcedefinition.NewStrategy(scheme)
	// rest.BeforeUpdate without the error wrapping: the request is
	// cluster-scoped (EnsureObjectNamespaceMatchesRequestNamespace clears
	// the namespace), then the system fields are restored.
	obj.Namespace = ""
	obj.Generation = old.Generation
	strategy.PrepareForUpdate(ctx, obj, old)
	if len(obj.UID) == 0 {
		obj.UID = old.UID
	}
	if !old.CreationTimestamp.IsZero() {
		obj.CreationTimestamp = old.CreationTimestamp
	}
	if old.DeletionTimestamp != nil {
		obj.DeletionTimestamp = old.DeletionTimestamp
	}
	if old.DeletionGracePeriodSeconds != nil && obj.DeletionGracePeriodSeconds == nil {
		obj.DeletionGracePeriodSeconds = old.DeletionGracePeriodSeconds
	}
	errs := validateUpdate(ctx, obj, old, strategy)
	var warnings []string
	if len(errs) == 0 {
		warnings = strategy.WarningsOnUpdate(ctx, obj, old)
	}
	out := &apiextensionsv1.CustomResourceDefinition{}
	if err := scheme.Convert(obj.DeepCopy(), out, nil); err != nil {
		return nil, fmt.Errorf("converting back to v1: %v", err)
	}
	return &CompiledCRD{V1: out, Internal: obj, Errors: errs, Warnings: warnings}, nil
}
