package upstream

import (
	"context"
	"errors"
	"fmt"
	"k8s.io/apiserver/pkg/warning"
	"sort"
	"strings"

	"github.com/crdlab/crdlab/wire"
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
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/versioning"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/version"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage/names"
	"sigs.k8s.io/yaml"
)

// GeneratedNameSuffix replaces the 5 random characters of
// names.SimpleNameGenerator (crdlab uses the same constant).
const GeneratedNameSuffix = "xxxxx"

// StoredResourceVersion is given to an old object without resourceVersion
// (crdlab uses the same constant).
const StoredResourceVersion = "1"

// registryOptimisticLockErrorMsg mirrors genericregistry's OptimisticLockErrorMsg.
const registryOptimisticLockErrorMsg = "the object has been modified; please apply your changes to the latest version and try again"

// versionServing is what getOrCreateServingInfoFor keeps per version.
type versionServing struct {
	kind     schema.GroupVersionKind
	strategy interface {
		rest.RESTCreateStrategy
		rest.RESTUpdateStrategy
	}
	status   rest.RESTUpdateStrategy // nil without a status subresource
	warnings []string
}

// server is the part of crdHandler serving one CRD.
type server struct {
	crd               *apiextensionsv1.CustomResourceDefinition
	storageVersion    string
	structuralSchemas map[string]*structuralschema.Structural
	versions          map[string]*versionServing
	gk                schema.GroupKind
}

// newServer mirrors crdHandler.getOrCreateServingInfoFor
// (pkg/apiserver/customresource_handler.go:616-1080) for what matters to
// create/update/status-update requests: structural schemas with pruned
// defaults (per version), schema validators, status/scale subresources,
// the strategy per served version and the deprecation warnings.
func newServer(crd *apiextensionsv1.CustomResourceDefinition) (*server, error) {
	crd = crd.DeepCopy()
	// the naming controller accepts the requested names; the status of a
	// newly created CRD is otherwise empty.
	crd.Status.AcceptedNames = crd.Spec.Names
	storageVersion, err := apihelpers.GetCRDStorageVersion(crd)
	if err != nil {
		return nil, err
	}
	crd.Status.StoredVersions = []string{storageVersion}
	s := &server{crd: crd, storageVersion: storageVersion, structuralSchemas: map[string]*structuralschema.Structural{}, versions: map[string]*versionServing{}}
	s.gk = schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Status.AcceptedNames.Kind}

	for _, v := range crd.Spec.Versions {
		val, err := apihelpers.GetSchemaForVersion(crd, v.Name)
		if err != nil {
			return nil, err
		}
		if val == nil {
			continue
		}
		internalValidation := &apiextensions.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internalValidation, nil); err != nil {
			return nil, fmt.Errorf("failed converting CRD validation to internal version: %v", err)
		}
		st, err := structuralschema.NewStructural(internalValidation.OpenAPIV3Schema)
		if !crd.Spec.PreserveUnknownFields && err != nil {
			return nil, fmt.Errorf("the server could not properly serve the CR schema: %v", err)
		}
		if !crd.Spec.PreserveUnknownFields {
			st = st.DeepCopy()
			if err := structuraldefaulting.PruneDefaults(st); err != nil {
				return nil, fmt.Errorf("failed to prune defaults: %v", err)
			}
		}
		s.structuralSchemas[v.Name] = st
	}

	for _, v := range crd.Spec.Versions {
		if !v.Storage && !v.Served {
			continue
		}
		kind := schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Status.AcceptedNames.Kind}
		validationSchema, err := apihelpers.GetSchemaForVersion(crd, v.Name)
		if err != nil {
			return nil, err
		}
		var internalSchemaProps *apiextensions.JSONSchemaProps
		var internalValidationSchema *apiextensions.CustomResourceValidation
		if validationSchema != nil {
			internalValidationSchema = &apiextensions.CustomResourceValidation{}
			if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(validationSchema, internalValidationSchema, nil); err != nil {
				return nil, err
			}
			internalSchemaProps = internalValidationSchema.OpenAPIV3Schema
		}
		validator, _, err := apiservervalidation.NewSchemaValidator(internalSchemaProps)
		if err != nil {
			return nil, err
		}
		subresources, err := apihelpers.GetSubresourcesForVersion(crd, v.Name)
		if err != nil {
			return nil, err
		}
		var statusSpec *apiextensions.CustomResourceSubresourceStatus
		var statusValidator apiservervalidation.SchemaValidator
		if subresources != nil && subresources.Status != nil {
			statusSpec = &apiextensions.CustomResourceSubresourceStatus{}
			if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceStatus_To_apiextensions_CustomResourceSubresourceStatus(subresources.Status, statusSpec, nil); err != nil {
				return nil, err
			}
			if internalValidationSchema != nil && internalValidationSchema.OpenAPIV3Schema != nil && internalValidationSchema.OpenAPIV3Schema.Properties != nil {
				if statusSchema, ok := internalValidationSchema.OpenAPIV3Schema.Properties["status"]; ok {
					statusValidator, _, err = apiservervalidation.NewSchemaValidator(&statusSchema)
					if err != nil {
						return nil, err
					}
				}
			}
		}
		var scaleSpec *apiextensions.CustomResourceSubresourceScale
		if subresources != nil && subresources.Scale != nil {
			scaleSpec = &apiextensions.CustomResourceSubresourceScale{}
			if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceScale_To_apiextensions_CustomResourceSubresourceScale(subresources.Scale, scaleSpec, nil); err != nil {
				return nil, err
			}
		}
		strategy := customresource.NewStrategy(
			crdserverscheme.NewUnstructuredObjectTyper(),
			crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
			kind,
			validator,
			statusValidator,
			s.structuralSchemas[v.Name],
			statusSpec,
			scaleSpec,
			v.SelectableFields,
		)
		vs := &versionServing{kind: kind, strategy: strategy}
		if statusSpec != nil {
			vs.status = customresource.NewStatusStrategy(strategy)
		}
		if v.Deprecated {
			if v.DeprecationWarning != nil {
				vs.warnings = append(vs.warnings, *v.DeprecationWarning)
			} else {
				vs.warnings = append(vs.warnings, defaultDeprecationWarning(v.Name, crd.Spec))
			}
		}
		if v.Served {
			s.versions[v.Name] = vs
		}
	}
	return s, nil
}

// defaultDeprecationWarning mirrors customresource_handler.go:1146.
func defaultDeprecationWarning(deprecatedVersion string, crd apiextensionsv1.CustomResourceDefinitionSpec) string {
	msg := fmt.Sprintf("%s/%s %s is deprecated", crd.Group, deprecatedVersion, crd.Names.Kind)
	var newer []string
	for _, v := range crd.Versions {
		if v.Served && !v.Deprecated && version.CompareKubeAwareVersionStrings(deprecatedVersion, v.Name) < 0 {
			newer = append(newer, v.Name)
		}
	}
	if len(newer) == 0 {
		return msg
	}
	sort.Slice(newer, func(i, j int) bool {
		return version.CompareKubeAwareVersionStrings(newer[i], newer[j]) > 0
	})
	return msg + fmt.Sprintf("; use %s/%s %s", crd.Group, newer[0], crd.Names.Kind)
}

// pickVersion: the explicit version, else the object's apiVersion version
// when served, else the storage version (crdlab's CRD.Validate rule: the
// client addresses the endpoint of the object's apiVersion).
func (s *server) pickVersion(req Request) string {
	if req.Version != "" {
		return req.Version
	}
	var tm struct {
		APIVersion string `json:"apiVersion"`
	}
	if js, err := yaml.YAMLToJSON(req.Object); err == nil {
		if err := yaml.Unmarshal(js, &tm); err == nil {
			if gv, err := schema.ParseGroupVersion(tm.APIVersion); err == nil && gv.Group == s.crd.Spec.Group {
				if _, ok := s.versions[gv.Version]; ok {
					return gv.Version
				}
			}
		}
	}
	return s.storageVersion
}

// unstructuredCreator mirrors customresource_handler.go's unstructuredCreator.
type unstructuredCreator struct{}

func (unstructuredCreator) New(kind schema.GroupVersionKind) (runtime.Object, error) {
	ret := &unstructured.Unstructured{}
	ret.SetGroupVersionKind(kind)
	return ret, nil
}

// unstructuredDefaulter mirrors customresource_handler.go's unstructuredDefaulter.
type unstructuredDefaulter struct {
	delegate           runtime.ObjectDefaulter
	structuralSchemas  map[string]*structuralschema.Structural
	structuralSchemaGK schema.GroupKind
}

func (d unstructuredDefaulter) Default(in runtime.Object) {
	u, ok := in.(runtime.Unstructured)
	if !ok || u.GetObjectKind().GroupVersionKind().GroupKind() != d.structuralSchemaGK {
		d.delegate.Default(in)
		return
	}
	structuraldefaulting.Default(u.UnstructuredContent(), d.structuralSchemas[u.GetObjectKind().GroupVersionKind().Version])
}

// coercer mirrors customresource_handler.go's unstructuredSchemaCoercer.apply
// (the pruning/coercion order and the unknown-field paths it returns). Unlike
// upstream it always tracks the unknown paths (they become Report.Pruned);
// returnUnknownFieldPaths only decides whether they turn into strict errors.
type coercer struct {
	dropInvalidMetadata     bool
	repairGeneration        bool
	structuralSchemas       map[string]*structuralschema.Structural
	gk                      schema.GroupKind
	preserveUnknownFields   bool
	returnUnknownFieldPaths bool
}

func (v *coercer) apply(u *unstructured.Unstructured) ([]string, error) {
	var paths []string
	kind, foundKind, err := unstructured.NestedString(u.UnstructuredContent(), "kind")
	if err != nil {
		return nil, err
	}
	apiVersion, foundAPIVersion, err := unstructured.NestedString(u.UnstructuredContent(), "apiVersion")
	if err != nil {
		return nil, err
	}
	objectMeta, foundObjectMeta, metaUnknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object, schemaobjectmeta.ObjectMetaOptions{
		DropMalformedFields:     v.dropInvalidMetadata,
		ReturnUnknownFieldPaths: true,
	})
	if err != nil {
		return nil, err
	}
	paths = append(paths, metaUnknown...)
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	if gv.Group == v.gk.Group && kind == v.gk.Kind {
		if !v.preserveUnknownFields {
			paths = append(paths, structuralpruning.PruneWithOptions(u.Object, v.structuralSchemas[gv.Version], true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})...)
			structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, v.structuralSchemas[gv.Version])
		}
		err, more := schemaobjectmeta.CoerceWithOptions(nil, u.Object, v.structuralSchemas[gv.Version], false, schemaobjectmeta.CoerceOptions{
			DropInvalidFields:       v.dropInvalidMetadata,
			ReturnUnknownFieldPaths: true,
		})
		if err != nil {
			return nil, err
		}
		paths = append(paths, more...)
		if v.repairGeneration && objectMeta.Generation == 0 {
			objectMeta.Generation = 1
		}
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

// coercingDecoder mirrors customresource_handler.go's schemaCoercingDecoder;
// it also records the pruned paths.
type coercingDecoder struct {
	delegate runtime.Decoder
	c        coercer
	pruned   *[]string
}

func (d coercingDecoder) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	var strictErrs []error
	obj, gvk, err := d.delegate.Decode(data, defaults, into)
	if err != nil {
		se, ok := runtime.AsStrictDecodingError(err)
		if !ok || obj == nil {
			return nil, gvk, err
		}
		strictErrs = se.Errors()
	}
	var unknown []string
	if u, ok := obj.(*unstructured.Unstructured); ok {
		unknown, err = d.c.apply(u)
		if err != nil {
			return nil, gvk, err
		}
		*d.pruned = append(*d.pruned, unknown...)
	}
	if d.c.returnUnknownFieldPaths && (len(strictErrs) > 0 || len(unknown) > 0) {
		for _, f := range unknown {
			strictErrs = append(strictErrs, fmt.Errorf(`unknown field "%s"`, f))
		}
		return obj, gvk, runtime.NewStrictDecodingError(strictErrs)
	}
	return obj, gvk, nil
}

// decoder builds unstructuredNegotiatedSerializer.DecoderToVersion's codec
// for the JSON serializer (strict or not) and the hub version.
func (s *server) decoder(vs *versionServing, strict bool, c coercer, pruned *[]string) runtime.Decoder {
	typer := crdserverscheme.NewUnstructuredObjectTyper()
	ser := json.NewSerializerWithOptions(json.DefaultMetaFactory, unstructuredCreator{}, typer, json.SerializerOptions{Strict: strict})
	c.returnUnknownFieldPaths = strict
	d := coercingDecoder{delegate: ser, c: c, pruned: pruned}
	return versioning.NewCodec(nil, d, runtime.UnsafeObjectConvertor(scheme), scheme, scheme,
		unstructuredDefaulter{delegate: scheme, structuralSchemas: s.structuralSchemas, structuralSchemaGK: s.gk},
		nil, vs.kind.GroupVersion(), "unstructuredNegotiatedSerializer")
}

func (s *server) coercer() coercer {
	return coercer{structuralSchemas: s.structuralSchemas, gk: s.gk, preserveUnknownFields: s.crd.Spec.PreserveUnknownFields}
}

// decodeStored decodes the old object as the storage codec of the request
// version's endpoint does (crdConversionRESTOptionsGetter:
// dropInvalidMetadata, repairGeneration, the CRD's converter).
func (s *server) decodeStored(vs *versionServing, data []byte) (*unstructured.Unstructured, error) {
	js := data
	if !looksLikeJSON(js) {
		var err error
		if js, err = yaml.YAMLToJSON(data); err != nil {
			return nil, err
		}
	}
	var pruned []string
	codec, into, err := s.storageCodec(vs.kind.Version, &pruned)
	if err != nil {
		return nil, err
	}
	obj, _, err := codec.Decode(js, nil, into)
	if err != nil {
		return nil, err
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("old object decoded as %T", obj)
	}
	// a stored object always has a resourceVersion.
	if u.GetResourceVersion() == "" {
		u.SetResourceVersion(StoredResourceVersion)
	}
	return u, nil
}

// request mirrors the create and update handlers
// (k8s.io/apiserver/pkg/endpoints/handlers/create.go, update.go) followed by
// the store's rest.BeforeCreate / rest.BeforeUpdate.
func (s *server) request(req Request) (rep *wire.ObjectReport, err error) {
	defer func() {
		if r := recover(); r != nil {
			rep, err = nil, fmt.Errorf("upstream panicked on the object: %v", r)
		}
	}()
	version := s.pickVersion(req)
	vs, ok := s.versions[version]
	if !ok {
		return nil, fmt.Errorf("version %q is not served", version)
	}
	fv := req.FieldValidation
	if fv == "" {
		fv = metav1.FieldValidationStrict
	}
	switch fv {
	case metav1.FieldValidationStrict, metav1.FieldValidationWarn, metav1.FieldValidationIgnore:
	default:
		return nil, fmt.Errorf("invalid fieldValidation %q", fv)
	}
	strategy := rest.RESTUpdateStrategy(vs.strategy)
	switch req.Subresource {
	case "":
	case "status":
		if req.Old == nil {
			return nil, errors.New("a status update needs the old object")
		}
		if vs.status == nil {
			return nil, fmt.Errorf("version %q has no status subresource", version)
		}
		strategy = vs.status
	default:
		return nil, fmt.Errorf("unsupported subresource %q", req.Subresource)
	}
	var old *unstructured.Unstructured
	if req.Old != nil {
		if old, err = s.decodeStored(vs, req.Old); err != nil {
			return nil, fmt.Errorf("old object: %v", err)
		}
	}

	rep = &wire.ObjectReport{Pruned: []string{}, Errors: []wire.ErrorReport{}}
	if old != nil {
		// The stored object as read back from storage, before the update.
		rep.OldResult = old.DeepCopy().Object
	}
	// crdHandler.ServeHTTP adds the version's deprecation warnings first.
	warnings := append([]string{}, vs.warnings...)
	defer func() {
		if rep != nil {
			rep.Warnings = recordWarnings(warnings)
		}
	}()

	var obj runtime.Object
	if req.applied != nil {
		// patch.go applyPatcher: the field manager's result goes to the
		// store as it is (defaulted by the field manager, not decoded).
		obj = req.applied.DeepCopy()
	} else {
		decoded, stop, err := s.decodeBody(vs, req, fv, rep, &warnings)
		if err != nil || stop {
			return rep, err
		}
		obj = decoded
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("decoded %T", obj)
	}
	objectMeta, err := meta.Accessor(u)
	if err != nil {
		return nil, err
	}
	namespaced := s.crd.Spec.Scope == apiextensionsv1.NamespaceScoped
	requestNamespace := ""
	if namespaced {
		// kubectl sends the request to the object's namespace, or "default".
		requestNamespace = objectMeta.GetNamespace()
		if requestNamespace == "" {
			requestNamespace = metav1.NamespaceDefault
		}
	}
	// Warnings added through the request context (CEL ratcheting, ...) land
	// in the response in call order, between the handler's and the
	// strategy's, exactly as the WithWarningRecorder filter collects them.
	ctx := warning.WithWarningRecorder(genericapirequest.WithNamespace(context.Background(), requestNamespace), sliceRecorder{&warnings})
	if old == nil {
		rest.WipeObjectMetaSystemFields(objectMeta)
	}
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(requestNamespace, objectMeta); err != nil {
		rep.DecodeError = err.Error()
		return rep, nil
	}

	// handlers: dedupOwnerReferencesAndAddWarning before the store is called.
	warnings = append(warnings, dedupOwnerReferences(objectMeta)...)

	var errs field.ErrorList
	if old == nil {
		// genericregistry.Store.Create: name generation, then rest.BeforeCreate.
		if len(objectMeta.GetGenerateName()) > 0 && len(objectMeta.GetName()) == 0 {
			base := objectMeta.GetGenerateName()
			if len(base) > names.MaxGeneratedNameLength {
				base = base[:names.MaxGeneratedNameLength]
			}
			objectMeta.SetName(base + GeneratedNameSuffix)
		}
		vs.strategy.PrepareForCreate(ctx, u)
		errs = validateCreate(ctx, u, vs.strategy)
		if len(errs) == 0 {
			warnings = append(warnings, vs.strategy.WarningsOnCreate(ctx, u)...)
		}
	} else {
		// rest.BeforeUpdate.
		if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope(requestNamespace, namespaced), objectMeta); err != nil {
			rep.DecodeError = err.Error()
			return rep, nil
		}
		// genericregistry.Store.Update: an update without resourceVersion is
		// unconditional (CRs allow it) and takes the stored one; a different
		// one is a conflict.
		if objectMeta.GetResourceVersion() == "" {
			objectMeta.SetResourceVersion(old.GetResourceVersion())
		} else if objectMeta.GetResourceVersion() != old.GetResourceVersion() {
			gr := schema.GroupResource{Group: s.crd.Spec.Group, Resource: s.crd.Status.AcceptedNames.Plural}
			rep.DecodeError = apierrors.NewConflict(gr, objectMeta.GetName(), errors.New(registryOptimisticLockErrorMsg)).Error()
			return rep, nil
		}
		objectMeta.SetGeneration(old.GetGeneration())
		strategy.PrepareForUpdate(ctx, u, old)
		if len(objectMeta.GetUID()) == 0 {
			objectMeta.SetUID(old.GetUID())
		}
		if t := old.GetCreationTimestamp(); !t.IsZero() {
			objectMeta.SetCreationTimestamp(t)
		}
		if old.GetDeletionTimestamp() != nil && !old.GetDeletionTimestamp().IsZero() {
			objectMeta.SetDeletionTimestamp(old.GetDeletionTimestamp())
		}
		if old.GetDeletionGracePeriodSeconds() != nil && objectMeta.GetDeletionGracePeriodSeconds() == nil {
			objectMeta.SetDeletionGracePeriodSeconds(old.GetDeletionGracePeriodSeconds())
		}
		errs = validateUpdate(ctx, u, old, strategy)
		if len(errs) == 0 {
			warnings = append(warnings, strategy.WarningsOnUpdate(ctx, u, old)...)
		}
	}
	rep.Result = u.Object
	rep.Errors = errorReports(errs)
	if req.invalid != nil {
		*req.invalid = errs
	}
	return rep, nil
}

// decodeBody is the create and update handlers' decoding of the request
// body (through the CRD's serializer and schema coercer): stop when the
// request fails there (rep.DecodeError says why).
func (s *server) decodeBody(vs *versionServing, req Request, fv string, rep *wire.ObjectReport, warnings *[]string) (obj runtime.Object, stop bool, err error) {
	// A JSON body is sent as is (the server sees duplicate fields); a YAML
	// body is converted to JSON first, as kubectl does.
	body := req.Object
	if !looksLikeJSON(body) {
		if js, err := yaml.YAMLToJSON(body); err == nil {
			body = js
		}
	}
	original := &unstructured.Unstructured{}
	original.SetGroupVersionKind(vs.kind)
	defaultGVK := vs.kind
	strict := fv == metav1.FieldValidationWarn || fv == metav1.FieldValidationStrict
	var pruned []string
	obj, gvk, derr := s.decoder(vs, strict, s.coercer(), &pruned).Decode(body, &defaultGVK, original)
	rep.Pruned = nonNil(pruned)
	if derr != nil {
		strictError, isStrict := runtime.AsStrictDecodingError(derr)
		switch {
		case isStrict && obj != nil && fv == metav1.FieldValidationWarn:
			for _, e := range strictError.Errors() {
				*warnings = append(*warnings, e.Error())
			}
		default:
			rep.DecodeError = transformDecodeError(derr, original, gvk, body).Error()
			return nil, true, nil
		}
	}
	if gv := gvk.GroupVersion(); gv != vs.kind.GroupVersion() {
		rep.DecodeError = apierrors.NewBadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%v)", gv.String(), vs.kind.GroupVersion().String())).Error()
		return nil, true, nil
	}
	return obj, false, nil
}

// transformDecodeError mirrors k8s.io/apiserver/pkg/endpoints/handlers/rest.go:245.
func transformDecodeError(baseErr error, into *unstructured.Unstructured, gvk *schema.GroupVersionKind, body []byte) error {
	objKind := into.GetObjectKind().GroupVersionKind().Kind
	if gvk != nil && len(gvk.Kind) > 0 {
		return apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, objKind, baseErr))
	}
	return apierrors.NewBadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v (%s)", objKind, baseErr, summarizeData(body, 30)))
}

// summarizeData mirrors handlers/rest.go:355.
func summarizeData(data []byte, maxLength int) string {
	switch {
	case len(data) == 0:
		return "<empty>"
	case data[0] == '{':
		if len(data) > maxLength {
			return string(data[:maxLength]) + " ..."
		}
		return string(data)
	default:
		if len(data) > maxLength {
			return fmt.Sprintf("%x ...", data[:maxLength])
		}
		return fmt.Sprintf("%x", data)
	}
}

// looksLikeJSON reports whether data starts, after white space, like a JSON
// object or array.
func looksLikeJSON(data []byte) bool {
	for _, b := range data {
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		case '{', '[':
			return true
		}
		return false
	}
	return false
}

// duplicateOwnerReferencesWarningFormat mirrors handlers.DuplicateOwnerReferencesWarningFormat.
const duplicateOwnerReferencesWarningFormat = ".metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: %v"

// dedupOwnerReferences mirrors handlers/rest.go's
// dedupOwnerReferencesAndAddWarning (and dedupOwnerReferences): drop
// semantically equal repeated owner references, warn with their UIDs.
func dedupOwnerReferences(m metav1.Object) []string {
	refs := m.GetOwnerReferences()
	var result []metav1.OwnerReference
	var duplicates []string
	seen := map[string]bool{}
	for _, ref := range refs {
		dup := false
		if seen[string(ref.UID)] {
			for _, r := range result {
				if apiequality.Semantic.DeepEqual(r, ref) {
					dup = true
					break
				}
			}
		}
		if dup {
			duplicates = append(duplicates, string(ref.UID))
			continue
		}
		seen[string(ref.UID)] = true
		result = append(result, ref)
	}
	if len(duplicates) == 0 {
		return nil
	}
	m.SetOwnerReferences(result)
	return []string{fmt.Sprintf(duplicateOwnerReferencesWarningFormat, strings.Join(duplicates, ", "))}
}

// sliceRecorder is a warning.Recorder appending to a slice.
type sliceRecorder struct{ warnings *[]string }

func (r sliceRecorder) AddWarning(_, text string) { *r.warnings = append(*r.warnings, text) }

// recordWarnings applies what the apiserver's warning recorder
// (k8s.io/apiserver/pkg/endpoints/filters/warning.go) does to the warnings
// of one request: empty ones are dropped and repeated texts are sent once,
// in first-seen order. (The 4 KiB header truncation is not simulated.)
func recordWarnings(ws []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, w := range ws {
		if w == "" || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}
