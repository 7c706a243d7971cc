//go:build !versions_oracle

package upstream

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/conversion"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/yaml"
)

// ApplyStep is one request of an apply run (apply.Step's oracle).
type ApplyStep struct {
	Manager     string
	Operation   string // Apply, Update, Delete
	Force       bool
	Subresource string
	Object      []byte
}

// ApplyStepResult is what the API server stores and answers.
type ApplyStepResult struct {
	// Object is the stored object after the step as JSON (keys sorted,
	// FieldsV1 verbatim), nil when there is none.
	Object []byte
	// Conflict is the 409 message; Error any other failure's.
	Conflict string
	Error    string
	Code     int
}

// fieldManagers mirrors getOrCreateServingInfoFor's scopeWithFieldManager
// for the main resource and setStatusScope for the status subresource of
// one version: managedfields.NewDefaultCRDFieldManager with the CRD's type
// converter, the request scope's safe converter, unstructuredDefaulter and
// unstructuredCreator, the version as hub, and the strategies' reset fields.
func (s *Served) fieldManager(tc managedfields.TypeConverter, version, subresource string) (*managedfields.FieldManager, error) {
	crd := s.srv.crd
	factory, err := conversion.NewCRConverterFactory(nil, nil)
	if err != nil {
		return nil, err
	}
	safe, _, err := factory.NewConverter(crd)
	if err != nil {
		return nil, err
	}
	kind := schema.GroupVersionKind{Group: crd.Spec.Group, Version: version, Kind: crd.Status.AcceptedNames.Kind}
	reset := map[fieldpath.APIVersion]*fieldpath.Set{}
	if subresource == "status" {
		// getStatusResetFields: every version's status strategy.
		for _, v := range crd.Spec.Versions {
			if vs, ok := s.srv.versions[v.Name]; ok && vs.status != nil {
				if rf, ok := vs.status.(interface {
					GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set
				}); ok {
					for k, set := range rf.GetResetFields() {
						reset[k] = set
					}
				}
			}
		}
	} else if rf, ok := s.srv.versions[version].strategy.(interface {
		GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set
	}); ok {
		reset = rf.GetResetFields()
	}
	return managedfields.NewDefaultCRDFieldManager(tc, safe,
		unstructuredDefaulter{delegate: scheme, structuralSchemas: s.srv.structuralSchemas, structuralSchemaGK: s.srv.gk},
		unstructuredCreator{}, kind, kind.GroupVersion(), subresource, fieldpath.NewExcludeFilterSetMap(reset))
}

// RunApply sends the steps to the CRD's endpoints as kube-apiserver does,
// with upstream's field manager, starting from stored (nil: no object).
// Times the field manager takes from the clock are replaced by t0 plus one
// second per step (apply.Options.Time's convention); a created object gets
// uid and t0's creationTimestamp as apply.Run gives them.
func (s *Served) RunApply(stored []byte, steps []ApplyStep, t0 time.Time, uid string) (out []ApplyStepResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("upstream panicked: %v", r)
		}
	}()
	tc, err := TypeConverter(s.srv.crd)
	if err != nil {
		return nil, err
	}
	start := time.Now().Add(-time.Second)
	var cur *unstructured.Unstructured
	if stored != nil {
		cur = &unstructured.Unstructured{}
		js, err := yaml.YAMLToJSON(stored)
		if err != nil {
			return nil, err
		}
		if err := cur.UnmarshalJSON(js); err != nil {
			return nil, err
		}
		if cur.GetUID() == "" {
			cur.SetUID(k8stypes.UID(uid))
		}
	}
	// name is the object's, as the steps last named it (a DELETE's URL).
	var name string
	for i, st := range steps {
		now := t0.Add(time.Duration(i) * time.Second)
		if cur != nil {
			name = cur.GetName()
		}
		res, next, err := s.applyStep(tc, cur, st, now, uid, name)
		if err != nil {
			return nil, fmt.Errorf("step %d: %v", i+1, err)
		}
		if res.Code == 0 {
			cur = next
			if cur != nil {
				fixTimes(cur, start, now)
			}
		}
		if cur != nil {
			shown := cur
			if res.Code != 0 {
				// A refused step leaves the stored object, as a read
				// returns it (its stored version's storage codec).
				if shown, err = s.readStored(cur); err != nil {
					return nil, fmt.Errorf("step %d: reading the stored object: %v", i+1, err)
				}
			}
			b, err := objectJSON(shown)
			if err != nil {
				return nil, err
			}
			res.Object = b
		}
		out = append(out, res)
	}
	return out, nil
}

// readStored decodes the stored object cur with the storage codec of its
// version (pruned, defaulted), as a read returns it.
func (s *Served) readStored(cur *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	js, err := objectJSON(cur)
	if err != nil {
		return nil, err
	}
	var pruned []string
	codec, into, err := s.srv.storageCodec(cur.GroupVersionKind().Version, &pruned)
	if err != nil {
		return nil, err
	}
	obj, _, err := codec.Decode(js, nil, into)
	if err != nil {
		return nil, err
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("stored object decoded as %T", obj)
	}
	return u, nil
}

// fixTimes replaces the clock's times (after start) by now.
func fixTimes(u *unstructured.Unstructured, start, now time.Time) {
	mf := u.GetManagedFields()
	for i := range mf {
		if mf[i].Time != nil && mf[i].Time.After(start) {
			mf[i].Time = &metav1.Time{Time: now}
		}
	}
	u.SetManagedFields(mf)
}

// objectJSON serializes the object as the API server does: its
// managedFields as metav1.ManagedFieldsEntry (FieldsV1 verbatim).
func objectJSON(u *unstructured.Unstructured) ([]byte, error) {
	mf := u.GetManagedFields()
	c := u.DeepCopy()
	md, _ := c.Object["metadata"].(map[string]interface{})
	if md != nil {
		if mf == nil {
			delete(md, "managedFields")
		} else {
			md["managedFields"] = mf
		}
	}
	return json.Marshal(c.Object)
}

func (s *Served) applyStep(tc managedfields.TypeConverter, cur *unstructured.Unstructured, st ApplyStep, now time.Time, uid, name string) (ApplyStepResult, *unstructured.Unstructured, error) {
	crd := s.srv.crd
	if st.Operation == "Delete" {
		if cur == nil {
			// the store's Delete of a missing object: NotFound of the
			// resource and the name.
			err := apierrors.NewNotFound(schema.GroupResource{Group: crd.Spec.Group, Resource: crd.Spec.Names.Plural}, name)
			return ApplyStepResult{Code: int(err.Status().Code), Error: err.Error()}, nil, nil
		}
		return ApplyStepResult{}, nil, nil
	}
	// the handlers' options validation (patch.go, update.go, create.go).
	var optErrs field.ErrorList
	optKind := "UpdateOptions"
	switch {
	case st.Operation == "Apply":
		optKind = "PatchOptions"
		optErrs = metav1validation.ValidatePatchOptions(&metav1.PatchOptions{FieldManager: st.Manager}, k8stypes.ApplyYAMLPatchType)
	case cur == nil:
		optKind = "CreateOptions"
		optErrs = metav1validation.ValidateCreateOptions(&metav1.CreateOptions{FieldManager: st.Manager})
	default:
		optErrs = metav1validation.ValidateUpdateOptions(&metav1.UpdateOptions{FieldManager: st.Manager})
	}
	if len(optErrs) > 0 {
		err := apierrors.NewInvalid(schema.GroupKind{Group: metav1.GroupName, Kind: optKind}, "", optErrs)
		return ApplyStepResult{Code: 422, Error: err.Error()}, nil, nil
	}
	var probe map[string]interface{}
	if err := yaml.Unmarshal(st.Object, &probe); err != nil {
		if st.Operation == "Apply" {
			return ApplyStepResult{Code: 400, Error: fmt.Sprintf("error decoding patch: %v", err)}, nil, nil
		}
		return ApplyStepResult{}, nil, err
	}
	gv, err := schema.ParseGroupVersion(fmt.Sprint(probe["apiVersion"]))
	if err != nil {
		return ApplyStepResult{}, nil, err
	}
	version := gv.Version
	kind := schema.GroupVersionKind{Group: crd.Spec.Group, Version: version, Kind: crd.Status.AcceptedNames.Kind}
	if st.Subresource == "status" && s.srv.versions[version].status == nil {
		// customresource_handler.go ServeHTTP: a subresource the version
		// does not have is NotFound of the resource and the request's name.
		name, _ := probe["metadata"].(map[string]interface{})["name"].(string)
		err := apierrors.NewNotFound(schema.GroupResource{Group: crd.Spec.Group, Resource: crd.Spec.Names.Plural}, name)
		return ApplyStepResult{Code: int(err.Status().Code), Error: err.Error()}, nil, nil
	}
	fm, err := s.fieldManager(tc, version, st.Subresource)
	if err != nil {
		return ApplyStepResult{}, nil, err
	}
	var curJSON []byte
	if cur != nil {
		if curJSON, err = objectJSON(cur); err != nil {
			return ApplyStepResult{}, nil, err
		}
	}
	var final *unstructured.Unstructured
	switch st.Operation {
	case "Apply":
		var live runtime.Object
		if cur == nil {
			l, _ := unstructuredCreator{}.New(kind)
			live = l
		} else {
			l, err := s.srv.decodeStored(s.srv.versions[version], curJSON)
			if err != nil {
				return ApplyStepResult{Code: 500, Error: err.Error()}, nil, nil
			}
			live = l
		}
		patch := &unstructured.Unstructured{Object: map[string]interface{}{}}
		if err := yaml.Unmarshal(st.Object, &patch.Object); err != nil {
			return ApplyStepResult{Code: 400, Error: fmt.Sprintf("error decoding patch: %v", err)}, nil, nil
		}
		obj, err := fm.Apply(live, patch, st.Manager, st.Force)
		if err != nil {
			var se apierrors.APIStatus
			if errors.As(err, &se) {
				st := se.Status()
				if st.Code == 409 {
					return ApplyStepResult{Code: 409, Conflict: st.Message}, nil, nil
				}
				return ApplyStepResult{Code: int(st.Code), Error: st.Message}, nil, nil
			}
			return ApplyStepResult{Code: 500, Error: err.Error()}, nil, nil
		}
		if err := yaml.UnmarshalStrict(st.Object, &map[string]interface{}{}); err != nil {
			return ApplyStepResult{Code: 400, Error: fmt.Sprintf("error strict decoding patch: %v", err)}, nil, nil
		}
		u := obj.(*unstructured.Unstructured)
		mf := u.GetManagedFields()
		var invalid field.ErrorList
		rep, err := s.Request(Request{Old: curJSON, Version: version, Subresource: st.Subresource, FieldValidation: metav1.FieldValidationIgnore, invalid: &invalid, applied: u})
		if err != nil {
			return ApplyStepResult{}, nil, err
		}
		if r := refused(crd, rep.DecodeError, invalid, rep.Result); r != nil {
			return *r, nil, nil
		}
		final = &unstructured.Unstructured{Object: rep.Result.(map[string]interface{})}
		final.SetManagedFields(mf)
	case "Update":
		// the field manager runs before validation (update.go's
		// transformers, create.go's FinishRequest): the request's
		// managedFields are read by it and replaced.
		body := st.Object
		md, _ := probe["metadata"].(map[string]interface{})
		reqManaged, hasManaged := md["managedFields"]
		if hasManaged {
			delete(md, "managedFields")
			if body, err = json.Marshal(probe); err != nil {
				return ApplyStepResult{}, nil, err
			}
		}
		var invalid field.ErrorList
		rep, err := s.Request(Request{Object: body, Old: curJSON, Version: version, Subresource: st.Subresource, invalid: &invalid})
		if err != nil {
			return ApplyStepResult{}, nil, err
		}
		if r := refused(crd, rep.DecodeError, invalid, rep.Result); r != nil {
			return *r, nil, nil
		}
		newObj := &unstructured.Unstructured{Object: rep.Result.(map[string]interface{})}
		if hasManaged {
			if err := unstructured.SetNestedField(newObj.Object, runtime.DeepCopyJSONValue(reqManaged), "metadata", "managedFields"); err != nil {
				return ApplyStepResult{}, nil, err
			}
		}
		var live runtime.Object
		if rep.OldResult != nil {
			live = &unstructured.Unstructured{Object: rep.OldResult.(map[string]interface{})}
		} else {
			l, _ := unstructuredCreator{}.New(kind)
			live = l
		}
		final = fm.UpdateNoErrors(live, newObj.DeepCopy(), st.Manager).(*unstructured.Unstructured)
	default:
		return ApplyStepResult{}, nil, fmt.Errorf("operation %q", st.Operation)
	}
	if cur == nil {
		final.SetUID(k8stypes.UID(uid))
		final.SetCreationTimestamp(metav1.Time{Time: now})
	}
	return ApplyStepResult{}, final, nil
}

// refused renders a refused request as the handlers return it: the
// decoding error (409 for a resourceVersion conflict, else 400), or the
// store's 422 (rest.BeforeCreate/BeforeUpdate: errors.NewInvalid of the
// object's group and kind).
func refused(crd *apiextensionsv1.CustomResourceDefinition, decodeError string, errs field.ErrorList, result interface{}) *ApplyStepResult {
	if decodeError != "" {
		code := 400
		if strings.HasPrefix(decodeError, "Operation cannot be fulfilled") {
			code = 409
		}
		return &ApplyStepResult{Code: code, Error: decodeError}
	}
	if len(errs) > 0 {
		name := ""
		if m, ok := result.(map[string]interface{}); ok {
			name, _, _ = unstructured.NestedString(m, "metadata", "name")
		}
		gk := schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}
		return &ApplyStepResult{Code: 422, Error: apierrors.NewInvalid(gk, name, errs).Error()}
	}
	return nil
}
