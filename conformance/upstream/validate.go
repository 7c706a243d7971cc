//go:build !kube_pre137

package upstream

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
)

// validateCreate is the validation step of rest.BeforeCreate. From
// k8s.io/apiserver v0.37 it is rest.ValidateCreate; validate_pre137.go is
// the same step for the older releases (conformance/versions), which inline
// it in BeforeCreate.
func validateCreate(ctx context.Context, obj runtime.Object, strategy rest.RESTCreateStrategy) field.ErrorList {
	return rest.ValidateCreate(ctx, obj, strategy)
}

// validateUpdate is the validation step of rest.BeforeUpdate
// (rest.ValidateUpdate from v0.37).
func validateUpdate(ctx context.Context, obj, old runtime.Object, strategy rest.RESTUpdateStrategy) field.ErrorList {
	return rest.ValidateUpdate(ctx, obj, old, strategy)
}
