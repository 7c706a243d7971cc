package builtin

// resource.k8s.io DeviceClass, ResourceClaim and ResourceClaimTemplate:
// only their CEL device selectors are validated (pkg/apis/resource/validation's
// validateSelector and validateCELExpression, through internal/dra), not
// the rest of the objects, their defaults or their stored form. Serve
// reports them as not modelled (Outcome.Modelled false) with Outcome.Checked
// naming what was validated, and the selectors' errors.

import (
	"encoding/json"
	"reflect"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/dra"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// selectorChecks are the kinds whose selectors are validated, by
// group/version/kind (resource.k8s.io/v1 from 1.34; the betas are not
// served by default).
var selectorChecks = map[gvk]func(rel kubeversion.Release, body, old []byte) (field.ErrorList, bool){
	{"resource.k8s.io", "v1", "DeviceClass"}:           checkDeviceClassSelectors,
	{"resource.k8s.io", "v1", "ResourceClaim"}:         checkClaimSelectors("spec"),
	{"resource.k8s.io", "v1", "ResourceClaimTemplate"}: checkClaimSelectors("spec.spec"),
}

// SelectorsChecked is Outcome.Checked for these kinds.
const SelectorsChecked = "the CEL device selectors (compile, type and cost errors)"

type celSelectorJSON struct {
	CEL *struct {
		Expression string `json:"expression"`
	} `json:"cel"`
}

// checkSelectors is validateSelector for each selector of a list at path.
func checkSelectors(v *dra.Validator, sels []celSelectorJSON, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, s := range sels {
		p := path.Index(i)
		if s.CEL == nil {
			errs = append(errs, field.Required(p.Child("cel"), ""))
			continue
		}
		errs = append(errs, v.ValidateExpression(s.CEL.Expression, p.Child("cel", "expression"))...)
	}
	return errs
}

// checkDeviceClassSelectors validates spec.selectors; on an update whose
// selectors are those stored, none (upstream treats them as stored
// expressions and does not compile them again).
func checkDeviceClassSelectors(rel kubeversion.Release, body, old []byte) (field.ErrorList, bool) {
	type class struct {
		Spec struct {
			Selectors []celSelectorJSON `json:"selectors"`
		} `json:"spec"`
	}
	var c, o class
	if json.Unmarshal(body, &c) != nil {
		return nil, false
	}
	if old != nil && json.Unmarshal(old, &o) == nil && reflect.DeepEqual(c.Spec.Selectors, o.Spec.Selectors) {
		return nil, true
	}
	return checkSelectors(dra.NewValidator(rel), c.Spec.Selectors, field.NewPath("spec", "selectors")), true
}

type requestSelectorsJSON struct {
	Exactly *struct {
		Selectors []celSelectorJSON `json:"selectors"`
	} `json:"exactly"`
	FirstAvailable []struct {
		Selectors []celSelectorJSON `json:"selectors"`
	} `json:"firstAvailable"`
}

// checkClaimSelectors validates the selectors of each request (exactly,
// then each firstAvailable alternative) of the claim spec at prefix. A
// claim's spec is immutable and a template's too, so an update compiles
// nothing (stored expressions).
func checkClaimSelectors(prefix string) func(rel kubeversion.Release, body, old []byte) (field.ErrorList, bool) {
	return func(rel kubeversion.Release, body, old []byte) (field.ErrorList, bool) {
		if old != nil {
			return nil, true
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(body, &obj) != nil {
			return nil, false
		}
		raw := obj["spec"]
		if prefix == "spec.spec" {
			var t map[string]json.RawMessage
			if json.Unmarshal(raw, &t) != nil {
				return nil, false
			}
			raw = t["spec"]
		}
		var spec struct {
			Devices struct {
				Requests []requestSelectorsJSON `json:"requests"`
			} `json:"devices"`
		}
		if len(raw) > 0 && json.Unmarshal(raw, &spec) != nil {
			return nil, false
		}
		base := field.NewPath(prefix)
		if prefix == "spec.spec" {
			base = field.NewPath("spec", "spec")
		}
		reqs := base.Child("devices", "requests")
		var errs field.ErrorList
		v := dra.NewValidator(rel)
		for i, r := range spec.Devices.Requests {
			if r.Exactly != nil {
				errs = append(errs, checkSelectors(v, r.Exactly.Selectors, reqs.Index(i).Child("exactly", "selectors"))...)
			}
			for j, s := range r.FirstAvailable {
				errs = append(errs, checkSelectors(v, s.Selectors, reqs.Index(i).Child("firstAvailable").Index(j).Child("selectors"))...)
			}
		}
		return errs, true
	}
}

// checkSelectorsOnly runs the selector checks of a kind that has them:
// ok is false when the kind has none or the body does not decode into
// their shape (the caller then reports the surface only).
func checkSelectorsOnly(r *Resource, req Request, out *Outcome) {
	check := selectorChecks[gvk{r.Group, r.Version, r.Kind}]
	if check == nil {
		return
	}
	errs, ok := check(req.Release, req.Body, req.Old)
	if !ok {
		return
	}
	out.Checked = SelectorsChecked
	if len(errs) > 0 {
		var name struct {
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		_ = json.Unmarshal(req.Body, &name)
		out.Name = name.Metadata.Name
		out.Errors = kubeversion.ErrorsAt(req.Release, errs)
	}
}
