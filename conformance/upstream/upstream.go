// Package upstream is the differential suite's oracle: it runs a
// CustomResourceDefinition and a custom resource through the functions
// kube-apiserver 1.37 calls (k8s.io/apiextensions-apiserver v0.37.2,
// k8s.io/apiserver v0.37.2), in the same order, and renders the outcome in
// crdlab's report types (package wire, what engine.NewReport builds).
//
// CRD side (a create of the CRD, as `kubectl create` sends it, i.e. with
// fieldValidation=Strict): YAML→JSON with sigs.k8s.io/yaml, strict JSON
// decoding into apiextensions.k8s.io/v1 through a versioning codec (so the v1
// defaults, SetObjectDefaults_CustomResourceDefinition, are applied),
// conversion to the internal version, then the CRD registry strategy
// (pkg/registry/customresourcedefinition): PrepareForCreate,
// rest.ValidateCreate (strategy.Validate, then ObjectMeta validation) and
// WarningsOnCreate.
//
// Object side: see object.go. Where the handler's glue is unexported
// (pkg/apiserver/customresource_handler.go), it is reimplemented here with a
// comment naming the upstream function mirrored.
package upstream

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/wire"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"sigs.k8s.io/yaml"
)

// Request is one differential input.
type Request struct {
	// CRD is the CustomResourceDefinition, YAML or JSON.
	CRD []byte
	// Object is the request body (JSON, as kubectl sends it); nil means only
	// the CRD is checked.
	Object []byte
	// Old is the stored object; when set the request is an update.
	Old []byte
	// Version is the served version addressed; "" means the object's
	// apiVersion version if the CRD serves it, else the storage version.
	Version string
	// Subresource is "" or "status".
	Subresource string
	// FieldValidation is Strict (default, as kubectl), Warn or Ignore.
	FieldValidation string
	// CRDFieldValidation is the CRD create's fieldValidation: Strict
	// (default, as kubectl), Warn or Ignore.
	CRDFieldValidation string
	// OldCRD, when set, makes the CRD side an update of this CRD (see
	// UpdateCRD); StoredVersions, when not nil, sets its
	// status.storedVersions.
	OldCRD         []byte
	StoredVersions []string

	// invalid, when set, receives the request's field errors: the
	// apply steps build the 422 status from them as the store does.
	invalid *field.ErrorList
	// applied, when set, is an apply's field manager result: it goes to
	// the store as it is (Object is not decoded).
	applied *unstructured.Unstructured
}

// scheme mirrors pkg/apiserver/apiserver.go's Scheme (init): the
// apiextensions types, metav1 options at v1 and the unversioned types.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	metav1.AddToGroupVersion(s, schema.GroupVersion{Group: "", Version: "v1"})
	s.AddUnversionedTypes(schema.GroupVersion{Group: "", Version: "v1"},
		&metav1.Status{}, &metav1.WatchEvent{}, &metav1.APIVersions{},
		&metav1.APIGroupList{}, &metav1.APIGroup{}, &metav1.APIResourceList{})
	return s
}()

var codecs = serializer.NewCodecFactory(scheme, serializer.EnableStrict)

// apiCodecs is the API server's codec factory (pkg/apiserver/apiserver.go's
// Codecs, without EnableStrict): its Serializer is the non-strict one the
// handlers use with fieldValidation=Ignore.
var apiCodecs = serializer.NewCodecFactory(scheme)

// DecodeCRD decodes one CRD document as the API server does for a strict
// (kubectl default) create request. The error is a decoding failure.
func DecodeCRD(data []byte) (*apiextensionsv1.CustomResourceDefinition, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("yaml: %v", err)
	}
	info, ok := runtime.SerializerInfoForMediaType(codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	if !ok {
		return nil, fmt.Errorf("no JSON serializer")
	}
	dec := codecs.DecoderToVersion(info.StrictSerializer, apiextensionsv1.SchemeGroupVersion)
	obj, _, err := dec.Decode(js, nil, &apiextensionsv1.CustomResourceDefinition{})
	if err != nil {
		return nil, err
	}
	out, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return nil, fmt.Errorf("decoded %T, not a CustomResourceDefinition", obj)
	}
	return out, nil
}

// DecodeCRDRequest decodes one CRD document as the create handler
// (k8s.io/apiserver/pkg/endpoints/handlers/create.go) does with the
// request's fieldValidation fv: a JSON document is the body as is (its
// duplicate fields reach the server), YAML is converted with
// sigs.k8s.io/yaml first, as kubectl does. Strict and Warn decode with the
// strict serializer, Ignore with the non-strict one. With Strict a strict
// decoding error fails the request: rejected is the handler's message
// (transformDecodeError); with Warn the strict errors are the returned
// warnings (addStrictDecodingWarnings). err is any other decoding failure.
func DecodeCRDRequest(data []byte, fv string) (crd *apiextensionsv1.CustomResourceDefinition, warnings []string, rejected string, err error) {
	if fv == "" {
		fv = metav1.FieldValidationStrict
	}
	js := data
	if !looksLikeJSON(data) {
		if js, err = yaml.YAMLToJSON(data); err != nil {
			return nil, nil, "", fmt.Errorf("yaml: %v", err)
		}
	}
	info, ok := runtime.SerializerInfoForMediaType(apiCodecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	if !ok {
		return nil, nil, "", fmt.Errorf("no JSON serializer")
	}
	ser := info.Serializer
	switch fv {
	case metav1.FieldValidationStrict, metav1.FieldValidationWarn:
		ser = info.StrictSerializer
	case metav1.FieldValidationIgnore:
	default:
		return nil, nil, "", fmt.Errorf("invalid fieldValidation %q", fv)
	}
	dec := apiCodecs.DecoderToVersion(ser, apiextensionsv1.SchemeGroupVersion)
	obj, gvk, err := dec.Decode(js, nil, &apiextensionsv1.CustomResourceDefinition{})
	if err != nil {
		strictErr, isStrict := runtime.AsStrictDecodingError(err)
		switch {
		case isStrict && obj != nil && fv == metav1.FieldValidationWarn:
			for _, e := range strictErr.Errors() {
				warnings = append(warnings, e.Error())
			}
		case isStrict && fv == metav1.FieldValidationStrict && gvk != nil && len(gvk.Kind) > 0:
			// transformDecodeError (handlers/rest.go) with the CRD kind.
			return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, "CustomResourceDefinition", err)).Error(), nil
		default:
			return nil, nil, "", err
		}
	}
	out, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return nil, nil, "", fmt.Errorf("decoded %T, not a CustomResourceDefinition", obj)
	}
	return out, warnings, "", nil
}

// CompiledCRD is a CRD after the create path.
type CompiledCRD struct {
	V1       *apiextensionsv1.CustomResourceDefinition // after PrepareForCreate, as stored
	Internal *apiextensions.CustomResourceDefinition
	Errors   field.ErrorList
	Warnings []string
}

// CreateCRD runs the CRD create path: PrepareForCreate, rest.ValidateCreate,
// WarningsOnCreate (rest.BeforeCreate's order).
func CreateCRD(v1crd *apiextensionsv1.CustomResourceDefinition) (c *CompiledCRD, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("upstream panicked on the CRD: %v", r)
		}
	}()
	internal := &apiextensions.CustomResourceDefinition{}
	if err := scheme.Convert(v1crd.DeepCopy(), internal, nil); err != nil {
		return nil, fmt.Errorf("converting to internal: %v", err)
	}
	ctx := genericapirequest.WithNamespace(context.Background(), "")
	strategy := customresourcedefinition.NewStrategy(scheme)
	// The create handler wipes the system fields (rest.WipeObjectMetaSystemFields)
	// and the store fills them (FillObjectMetaSystemFields) before BeforeCreate.
	rest.WipeObjectMetaSystemFields(&internal.ObjectMeta)
	strategy.PrepareForCreate(ctx, internal)
	errs := validateCreate(ctx, internal, strategy)
	var warnings []string
	if len(errs) == 0 {
		warnings = strategy.WarningsOnCreate(ctx, internal)
	}
	out := &apiextensionsv1.CustomResourceDefinition{}
	if err := scheme.Convert(internal.DeepCopy(), out, nil); err != nil {
		return nil, fmt.Errorf("converting back to v1: %v", err)
	}
	return &CompiledCRD{V1: out, Internal: internal, Errors: errs, Warnings: warnings}, nil
}

// Run produces the report of one request. The error is a CRD decoding
// failure (crdlab's Compile error) or a misuse of the request.
func Run(req Request) (*wire.Report, error) {
	v1crd, decodeWarnings, rejected, err := DecodeCRDRequest(req.CRD, req.CRDFieldValidation)
	if err != nil {
		return nil, err
	}
	if rejected != "" {
		return &wire.Report{CRD: wire.CRDReport{DecodeError: rejected, Errors: []wire.ErrorReport{}, Warnings: []string{}}}, nil
	}
	var c *CompiledCRD
	if req.OldCRD != nil {
		old, err := DecodeCRD(req.OldCRD)
		if err != nil {
			return nil, err
		}
		c, err = UpdateCRD(v1crd, old, req.StoredVersions)
		if err != nil {
			return nil, err
		}
	} else if c, err = CreateCRD(v1crd); err != nil {
		return nil, err
	}
	// The decoding warnings are recorded first, then the strategy's.
	rep := &wire.Report{CRD: wire.CRDReport{Errors: errorReports(c.Errors), Warnings: recordWarnings(append(decodeWarnings, c.Warnings...))}}
	if len(c.Errors) > 0 || req.Object == nil {
		return rep, nil
	}
	srv, err := newServer(c.V1)
	if err != nil {
		return nil, err
	}
	obj, err := srv.request(req)
	if err != nil {
		return nil, err
	}
	rep.Object = obj
	return rep, nil
}

func errorReports(errs field.ErrorList) []wire.ErrorReport {
	out := make([]wire.ErrorReport, 0, len(errs))
	for _, e := range errs {
		out = append(out, wire.ErrorReport{Type: string(e.Type), Field: e.Field, Detail: e.Detail, Message: e.Error()})
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Normalize turns any report (ours or crdlab's) into plain decoded JSON so
// that the two can be compared value by value.
func Normalize(v interface{}) (interface{}, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out interface{}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}
