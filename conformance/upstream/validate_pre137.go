//go:build kube_pre137

package upstream

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	genericvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
)

// Before k8s.io/apiserver v0.37, rest.BeforeCreate and rest.BeforeUpdate
// inline their validation step (there is no rest.ValidateCreate or
// rest.ValidateUpdate). These functions are that step, in the order of
// k8s.io/apiserver v0.31–v0.36 pkg/registry/rest/create.go and update.go;
// the oracles of conformance/versions build with -tags kube_pre137.

// validatePathSegment mirrors pkg/registry/rest/create.go's unexported
// validatePathSegment.
func validatePathSegment(name string, prefix bool) []string {
	if prefix {
		return path.IsValidPathSegmentPrefix(name)
	}
	return path.IsValidPathSegmentName(name)
}

// validateCreate: BeforeCreate returns strategy.Validate's errors; only
// when there are none does it validate the ObjectMeta.
func validateCreate(ctx context.Context, obj runtime.Object, strategy rest.RESTCreateStrategy) field.ErrorList {
	if errs := strategy.Validate(ctx, obj); len(errs) > 0 {
		return errs
	}
	objectMeta, err := meta.Accessor(obj)
	if err != nil {
		return field.ErrorList{field.InternalError(field.NewPath("metadata"), err)}
	}
	return genericvalidation.ValidateObjectMetaAccessor(objectMeta, strategy.NamespaceScoped(), validatePathSegment, field.NewPath("metadata"))
}

// validateUpdate: BeforeUpdate's validateCommonFields (ObjectMeta, then
// ObjectMeta update), then strategy.ValidateUpdate.
func validateUpdate(ctx context.Context, obj, old runtime.Object, strategy rest.RESTUpdateStrategy) field.ErrorList {
	objectMeta, err := meta.Accessor(obj)
	if err != nil {
		return field.ErrorList{field.InternalError(field.NewPath("metadata"), err)}
	}
	oldObjectMeta, err := meta.Accessor(old)
	if err != nil {
		return field.ErrorList{field.InternalError(field.NewPath("metadata"), err)}
	}
	errs := genericvalidation.ValidateObjectMetaAccessor(objectMeta, strategy.NamespaceScoped(), validatePathSegment, field.NewPath("metadata"))
	errs = append(errs, genericvalidation.ValidateObjectMetaAccessorUpdate(objectMeta, oldObjectMeta, field.NewPath("metadata"))...)
	return append(errs, strategy.ValidateUpdate(ctx, obj, old)...)
}
