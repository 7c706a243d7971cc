// Command upstreamwasm is the size and start-up anchor of issue 4: a program
// that links what crdlab's engine replaces, from upstream's own packages
// (k8s.io/apiextensions-apiserver v0.37.2), so that its WebAssembly build can
// be measured next to build/crdlab.wasm (`make -f bench.mk wasm-anchor`).
//
// It links and calls, in kube-apiserver's order:
//   - CRD decoding: YAML→JSON, strict JSON decoding into
//     apiextensions.k8s.io/v1 with defaults, conversion to internal
//     (pkg/apis/apiextensions/install, /v1);
//   - CRD validation (pkg/apis/apiextensions/validation), which compiles every
//     CEL rule and estimates its cost;
//   - per served version: structural schema (pkg/apiserver/schema), default
//     pruning (schema/defaulting), the OpenAPI validator
//     (pkg/apiserver/validation) and the CEL validator (schema/cel);
//   - per object: strict decoding into unstructured, ObjectMeta extraction
//     and coercion (schema/objectmeta), pruning (schema/pruning), null
//     pruning and defaulting (schema/defaulting), then validation: ObjectMeta,
//     OpenAPI, embedded resources, list types (schema/listtype), CEL.
//
// It leaves out pkg/registry/* (the REST strategies), as crdlab's wasm
// module does: they link the storage layer (etcd client, gRPC). Where the
// strategy's glue is unexported it is reduced to the calls above.
//
// Usage: upstreamwasm CRD.yaml [OBJECT.yaml]; with one argument the object is
// read from stdin if stdin is not empty. The output is one JSON document.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	"k8s.io/apimachinery/pkg/api/operation"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"sigs.k8s.io/yaml"
)

var (
	scheme = runtime.NewScheme()
	codecs = serializer.NewCodecFactory(scheme, serializer.EnableStrict)
)

func init() { install.Install(scheme) }

// report is the program's output.
type report struct {
	CRDErrors    []string       `json:"crdErrors"`
	Versions     []string       `json:"versions,omitempty"`
	ObjectErrors []string       `json:"objectErrors,omitempty"`
	Pruned       []string       `json:"pruned,omitempty"`
	Object       map[string]any `json:"object,omitempty"`
}

// version is what the API server builds per served version
// (getOrCreateServingInfoFor).
type version struct {
	kind       schema.GroupVersionKind
	structural *structuralschema.Structural
	openapi    apiservervalidation.SchemaValidator
	cel        *cel.Validator
}

// decodeCRD decodes one CRD as a strict create does: into v1 with defaults,
// then to the internal version.
func decodeCRD(data []byte) (*apiextensionsv1.CustomResourceDefinition, *apiextensions.CustomResourceDefinition, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, nil, fmt.Errorf("yaml: %v", err)
	}
	info, ok := runtime.SerializerInfoForMediaType(codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	if !ok {
		return nil, nil, errors.New("no JSON serializer")
	}
	obj, _, err := codecs.DecoderToVersion(info.StrictSerializer, apiextensionsv1.SchemeGroupVersion).Decode(js, nil, &apiextensionsv1.CustomResourceDefinition{})
	if err != nil {
		return nil, nil, err
	}
	v1crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return nil, nil, fmt.Errorf("decoded %T, not a CustomResourceDefinition", obj)
	}
	internal := &apiextensions.CustomResourceDefinition{}
	if err := scheme.Convert(v1crd.DeepCopy(), internal, nil); err != nil {
		return nil, nil, fmt.Errorf("converting to internal: %v", err)
	}
	return v1crd, internal, nil
}

// compile validates the CRD and builds each served version's validators.
func compile(ctx context.Context, v1crd *apiextensionsv1.CustomResourceDefinition, internal *apiextensions.CustomResourceDefinition) (field.ErrorList, map[string]*version, error) {
	if errs := crdvalidation.ValidateCustomResourceDefinition(ctx, internal); len(errs) > 0 {
		return errs, nil, nil
	}
	out := map[string]*version{}
	for _, v := range v1crd.Spec.Versions {
		if !v.Served {
			continue
		}
		vs := &version{kind: schema.GroupVersionKind{Group: v1crd.Spec.Group, Version: v.Name, Kind: v1crd.Spec.Names.Kind}}
		var props *apiextensions.JSONSchemaProps
		if v.Schema != nil {
			in := &apiextensions.CustomResourceValidation{}
			if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(v.Schema, in, nil); err != nil {
				return nil, nil, err
			}
			props = in.OpenAPIV3Schema
			st, err := structuralschema.NewStructural(props)
			if err != nil && !v1crd.Spec.PreserveUnknownFields {
				return nil, nil, err
			}
			if st != nil && !v1crd.Spec.PreserveUnknownFields {
				st = st.DeepCopy()
				if err := structuraldefaulting.PruneDefaults(st); err != nil {
					return nil, nil, err
				}
			}
			vs.structural = st
			if st != nil {
				vs.cel = cel.NewValidator(st, true, celconfig.PerCallLimit)
			}
		}
		validator, _, err := apiservervalidation.NewSchemaValidator(props)
		if err != nil {
			return nil, nil, err
		}
		vs.openapi = validator
		out[v.Name] = vs
	}
	return nil, out, nil
}

type unstructuredCreator struct{}

func (unstructuredCreator) New(kind schema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(kind)
	return u, nil
}

// validateObject runs a strict create of one object.
func validateObject(ctx context.Context, versions map[string]*version, namespaced, preserveUnknown bool, data []byte, rep *report) error {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return fmt.Errorf("object yaml: %v", err)
	}
	ser := kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, unstructuredCreator{}, crdserverscheme.NewUnstructuredObjectTyper(), kjson.SerializerOptions{Strict: true})
	obj, gvk, err := ser.Decode(js, nil, &unstructured.Unstructured{})
	if err != nil {
		return err
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return fmt.Errorf("decoded %T", obj)
	}
	vs, ok := versions[gvk.Version]
	if !ok || vs.kind != *gvk {
		return fmt.Errorf("%s is not served by this CRD", gvk)
	}
	// unstructuredSchemaCoercer.apply
	meta, foundMeta, unknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		return err
	}
	rep.Pruned = append(rep.Pruned, unknown...)
	if vs.structural != nil {
		if !preserveUnknown {
			rep.Pruned = append(rep.Pruned, structuralpruning.PruneWithOptions(u.Object, vs.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})...)
			structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, vs.structural)
		}
		ferr, more := schemaobjectmeta.CoerceWithOptions(nil, u.Object, vs.structural, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true})
		if ferr != nil {
			return ferr
		}
		rep.Pruned = append(rep.Pruned, more...)
	}
	if foundMeta {
		if err := schemaobjectmeta.SetObjectMeta(u.Object, meta); err != nil {
			return err
		}
	}
	if vs.structural != nil {
		structuraldefaulting.Default(u.Object, vs.structural)
	}
	// customResourceStrategy.Validate
	var errs field.ErrorList
	if meta == nil {
		meta = &metav1.ObjectMeta{}
	}
	if namespaced && meta.Namespace == "" {
		meta.Namespace = metav1.NamespaceDefault // the request's namespace
		u.SetNamespace(meta.Namespace)
	}
	errs = append(errs, metavalidation.ValidateObjectMetaDeclaratively(ctx, operation.Create, meta, nil, namespaced, metavalidation.NameIsDNSSubdomain, field.NewPath("metadata"), utilfeature.DefaultFeatureGate.Enabled(features.DeclarativeValidationBeta))...)
	errs = append(errs, apiservervalidation.ValidateCustomResource(nil, u.UnstructuredContent(), vs.openapi)...)
	if vs.structural != nil {
		errs = append(errs, schemaobjectmeta.Validate(ctx, nil, u.Object, vs.structural, false)...)
		errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, vs.structural, u.Object)...)
	}
	if vs.cel != nil && len(errs) == 0 {
		celErrs, _ := vs.cel.Validate(ctx, nil, vs.structural, u.Object, nil, celconfig.RuntimeCELCostBudget)
		errs = append(errs, celErrs...)
	}
	rep.ObjectErrors = errorStrings(errs)
	rep.Object = u.Object
	return nil
}

func errorStrings(errs field.ErrorList) []string {
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// run compiles crdData and, if objData is not empty, validates it.
func run(crdData, objData []byte) (rep *report, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("upstream panicked: %v", r)
		}
	}()
	ctx := context.Background()
	v1crd, internal, err := decodeCRD(crdData)
	if err != nil {
		return nil, err
	}
	crdErrs, versions, err := compile(ctx, v1crd, internal)
	if err != nil {
		return nil, err
	}
	rep = &report{CRDErrors: errorStrings(crdErrs)}
	for _, v := range v1crd.Spec.Versions {
		if _, ok := versions[v.Name]; ok {
			rep.Versions = append(rep.Versions, v.Name)
		}
	}
	if len(crdErrs) > 0 || len(bytes.TrimSpace(objData)) == 0 {
		return rep, nil
	}
	namespaced := v1crd.Spec.Scope == apiextensionsv1.NamespaceScoped
	if err := validateObject(ctx, versions, namespaced, v1crd.Spec.PreserveUnknownFields, objData, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

func main() {
	if len(os.Args) < 2 || len(os.Args) > 3 {
		fmt.Fprintln(os.Stderr, "usage: upstreamwasm CRD.yaml [OBJECT.yaml]  (object from stdin if omitted)")
		os.Exit(2)
	}
	crdData, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var objData []byte
	if len(os.Args) == 3 {
		objData, err = os.ReadFile(os.Args[2])
	} else if fi, serr := os.Stdin.Stat(); serr == nil && fi.Mode()&os.ModeCharDevice == 0 {
		objData, err = io.ReadAll(os.Stdin)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	rep, err := run(crdData, objData)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if len(rep.CRDErrors) > 0 || len(rep.ObjectErrors) > 0 {
		os.Exit(1)
	}
}
