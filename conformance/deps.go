// Package conformance runs the same inputs through upstream's
// k8s.io/apiextensions-apiserver and through crdlab and reports differences.
package conformance

import (
	_ "github.com/crdlab/crdlab/engine/crd"
	_ "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	_ "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	_ "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	_ "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	_ "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	_ "k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	_ "k8s.io/apiserver/pkg/cel/environment"
	_ "k8s.io/kube-openapi/pkg/validation/validate"
	_ "sigs.k8s.io/yaml"
)
