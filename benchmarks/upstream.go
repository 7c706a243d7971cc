package benchmarks

import (
	"context"
	"fmt"

	"github.com/crdlab/crdlab/conformance/upstream"
	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
)

// UpstreamCRD is a CRD compiled by upstream's code: what kube-apiserver
// holds after accepting the CRD and building its serving info.
type UpstreamCRD struct {
	Errors   field.ErrorList
	Warnings []string

	namespaced            bool
	preserveUnknownFields bool
	gk                    schema.GroupKind
	structural            map[string]*structuralschema.Structural
	versions              map[string]*upstreamVersion
	storage               string
}

type upstreamVersion struct {
	kind     schema.GroupVersionKind
	strategy rest.RESTCreateStrategy
}

// UpstreamCompile runs what kube-apiserver runs for a CRD create and for
// serving it: strict decoding into apiextensions.k8s.io/v1 with defaults,
// conversion to internal and the CRD strategy's validation (which compiles
// every CEL rule and estimates its cost) — conformance/upstream.DecodeCRD
// and CreateCRD — then, per version, what getOrCreateServingInfoFor builds:
// structuralschema.NewStructural, PruneDefaults,
// apiservervalidation.NewSchemaValidator (object and status) and
// customresource.NewStrategy, which compiles the CEL validator
// (cel.NewValidator).
func UpstreamCompile(data []byte) (*UpstreamCRD, error) {
	v1crd, err := upstream.DecodeCRD(data)
	if err != nil {
		return nil, err
	}
	created, err := upstream.CreateCRD(v1crd)
	if err != nil {
		return nil, err
	}
	out := &UpstreamCRD{Errors: created.Errors, Warnings: created.Warnings}
	if len(created.Errors) > 0 {
		return out, nil
	}
	crd := created.V1
	crd.Status.AcceptedNames = crd.Spec.Names
	out.namespaced = crd.Spec.Scope == apiextensionsv1.NamespaceScoped
	out.preserveUnknownFields = crd.Spec.PreserveUnknownFields
	out.gk = schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}
	out.structural = map[string]*structuralschema.Structural{}
	out.versions = map[string]*upstreamVersion{}
	if out.storage, err = apihelpers.GetCRDStorageVersion(crd); err != nil {
		return nil, err
	}
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		kind := schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}
		var internal *apiextensions.CustomResourceValidation
		var props *apiextensions.JSONSchemaProps
		if v.Schema != nil {
			internal = &apiextensions.CustomResourceValidation{}
			if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(v.Schema, internal, nil); err != nil {
				return nil, err
			}
			props = internal.OpenAPIV3Schema
			st, err := structuralschema.NewStructural(props)
			if !crd.Spec.PreserveUnknownFields && err != nil {
				return nil, err
			}
			if !crd.Spec.PreserveUnknownFields {
				st = st.DeepCopy()
				if err := structuraldefaulting.PruneDefaults(st); err != nil {
					return nil, err
				}
			}
			out.structural[v.Name] = st
		}
		validator, _, err := apiservervalidation.NewSchemaValidator(props)
		if err != nil {
			return nil, err
		}
		var statusSpec *apiextensions.CustomResourceSubresourceStatus
		var statusValidator apiservervalidation.SchemaValidator
		var scaleSpec *apiextensions.CustomResourceSubresourceScale
		if v.Subresources != nil && v.Subresources.Status != nil {
			statusSpec = &apiextensions.CustomResourceSubresourceStatus{}
			if props != nil && props.Properties != nil {
				if s, ok := props.Properties["status"]; ok {
					if statusValidator, _, err = apiservervalidation.NewSchemaValidator(&s); err != nil {
						return nil, err
					}
				}
			}
		}
		if v.Subresources != nil && v.Subresources.Scale != nil {
			scaleSpec = &apiextensions.CustomResourceSubresourceScale{}
			if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceScale_To_apiextensions_CustomResourceSubresourceScale(v.Subresources.Scale, scaleSpec, nil); err != nil {
				return nil, err
			}
		}
		strategy := customresource.NewStrategy(crdserverscheme.NewUnstructuredObjectTyper(), out.namespaced, kind,
			validator, statusValidator, out.structural[v.Name], statusSpec, scaleSpec, v.SelectableFields)
		out.versions[v.Name] = &upstreamVersion{kind: kind, strategy: strategy}
	}
	return out, nil
}

// UpstreamResult is the outcome of one create request.
type UpstreamResult struct {
	Object      map[string]interface{}
	DecodeError error
	Errors      field.ErrorList
	Warnings    []string
}

type unstructuredCreator struct{}

func (unstructuredCreator) New(kind schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(kind)
	return u, nil
}

// Validate runs a create request with fieldValidation=Strict (kubectl's
// default) for version ("" = storage): strict JSON decoding into
// unstructured, the schemaCoercingDecoder's work (ObjectMeta extraction,
// pruning.PruneWithOptions, PruneNonNullableNullsWithoutDefaults,
// objectmeta.CoerceWithOptions), defaulting (structuraldefaulting.Default),
// then rest.BeforeCreate's PrepareForCreate, ValidateCreate (the strategy's
// ObjectMeta, OpenAPI, list-type and CEL validation) and WarningsOnCreate.
// HTTP, admission and storage are left out, as on crdlab's side.
func (c *UpstreamCRD) Validate(body []byte, version string) (*UpstreamResult, error) {
	if len(c.Errors) > 0 {
		return nil, fmt.Errorf("the CRD is invalid: %v", c.Errors.ToAggregate())
	}
	if version == "" {
		version = c.storage
	}
	vs, ok := c.versions[version]
	if !ok {
		return nil, fmt.Errorf("version %q is not served", version)
	}
	res := &UpstreamResult{}
	ser := json.NewSerializerWithOptions(json.DefaultMetaFactory, unstructuredCreator{}, crdserverscheme.NewUnstructuredObjectTyper(), json.SerializerOptions{Strict: true})
	into := &unstructured.Unstructured{}
	into.SetGroupVersionKind(vs.kind)
	obj, _, err := ser.Decode(body, &vs.kind, into)
	if err != nil {
		res.DecodeError = err
		return res, nil
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("decoded %T", obj)
	}
	unknown, err := c.coerce(u)
	if err != nil {
		res.DecodeError = err
		return res, nil
	}
	if len(unknown) > 0 {
		res.DecodeError = fmt.Errorf("strict decoding error: unknown fields %q", unknown)
		return res, nil
	}
	if u.GroupVersionKind().GroupKind() == c.gk {
		structuraldefaulting.Default(u.Object, c.structural[u.GroupVersionKind().Version])
	}
	ns := ""
	if c.namespaced {
		if ns = u.GetNamespace(); ns == "" {
			ns = metav1.NamespaceDefault
		}
	}
	ctx := genericapirequest.WithNamespace(context.Background(), ns)
	rest.WipeObjectMetaSystemFields(u)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(ns, u); err != nil {
		res.DecodeError = err
		return res, nil
	}
	vs.strategy.PrepareForCreate(ctx, u)
	res.Errors = rest.ValidateCreate(ctx, u, vs.strategy)
	if len(res.Errors) == 0 {
		res.Warnings = vs.strategy.WarningsOnCreate(ctx, u)
	}
	res.Object = u.Object
	return res, nil
}

// coerce mirrors unstructuredSchemaCoercer.apply for a request body
// (customresource_handler.go): it returns the unknown field paths.
func (c *UpstreamCRD) coerce(u *unstructured.Unstructured) ([]string, error) {
	kind, foundKind, err := unstructured.NestedString(u.Object, "kind")
	if err != nil {
		return nil, err
	}
	apiVersion, foundAPIVersion, err := unstructured.NestedString(u.Object, "apiVersion")
	if err != nil {
		return nil, err
	}
	objectMeta, foundObjectMeta, paths, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		return nil, err
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	if gv.Group == c.gk.Group && kind == c.gk.Kind {
		st := c.structural[gv.Version]
		if !c.preserveUnknownFields {
			paths = append(paths, structuralpruning.PruneWithOptions(u.Object, st, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})...)
			structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, st)
		}
		err, more := schemaobjectmeta.CoerceWithOptions(nil, u.Object, st, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true})
		if err != nil {
			return nil, err
		}
		paths = append(paths, more...)
	}
	if foundKind {
		u.SetKind(kind)
	}
	if foundAPIVersion {
		u.SetAPIVersion(apiVersion)
	}
	if foundObjectMeta {
		if err := schemaobjectmeta.SetObjectMeta(u.Object, objectMeta); err != nil {
			return nil, err
		}
	}
	return paths, nil
}
