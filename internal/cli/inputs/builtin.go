package inputs

import (
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/builtin"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/position"
	"github.com/crdlab/crdlab/wire"
)

// Builtins validates the objects of Kubernetes' built-in kinds in a run
// (Options.Builtins), as the API server of Release answers a create (or,
// with Options.Validate.Old, an update):
//
//   - a kind the release serves and crdlab models (builtin.StrategyFor:
//     v1 ConfigMap, Secret, Namespace, ServiceAccount,
//     scheduling.k8s.io/v1 PriorityClass, networking.k8s.io/v1
//     IngressClass) is decoded, defaulted
//     and validated natively: valid or invalid with the API server's
//     errors, warnings and stored object;
//   - a kind the release serves but crdlab does not model is
//     wire.StatusPartial: its API surface is checked (served, deprecated),
//     nothing else, and the reason says so;
//   - a kind the release does not serve (extensions/v1beta1 Ingress) is
//     invalid with kubectl's error: kubectl never sends the request.
type Builtins struct {
	Release kubeversion.Release
}

// isBuiltinGroup reports whether an apiVersion's group is one of
// kube-apiserver's.
func isBuiltinGroup(apiVersion string) bool {
	return builtin.IsBuiltinGroup(apiGroup(apiVersion))
}

// apiGroup is an apiVersion's group: "" for the core group's "v1".
func apiGroup(apiVersion string) string {
	group, _, ok := strings.Cut(apiVersion, "/")
	if !ok {
		return ""
	}
	return group
}

// hasGroupKind reports whether a CRD of the catalogue has the group and
// kind of an apiVersion (the CRD serves them, whatever its versions).
func (c *Catalog) hasGroupKind(apiVersion, kind string) bool {
	_, found := c.byGK[groupKind{apiGroup(apiVersion), kind}]
	return found
}

// kindFilter returns why an object is skipped by --kinds / --skip-kinds,
// "" when it is not.
func kindFilter(d *Document, opts Options) string {
	if len(opts.Kinds) == 0 && len(opts.SkipKinds) == 0 {
		return ""
	}
	group := apiGroup(d.APIVersion)
	match := func(list []string) bool {
		for _, k := range list {
			name, g, qualified := strings.Cut(k, ".")
			if name == d.Kind && (!qualified || g == group) {
				return true
			}
		}
		return false
	}
	if len(opts.Kinds) > 0 && !match(opts.Kinds) {
		return fmt.Sprintf("%s is not among the kinds selected (--kinds %s)", d.Kind, strings.Join(opts.Kinds, ","))
	}
	if match(opts.SkipKinds) {
		return fmt.Sprintf("%s is among the kinds skipped (--skip-kinds %s)", d.Kind, strings.Join(opts.SkipKinds, ","))
	}
	return ""
}

// entry fills a built-in object's entry.
func (b *Builtins) entry(d *Document, apiVersion string, opts Options, res *Result) {
	r := &res.RunEntry
	rel := b.Release
	rsc := builtin.Lookup(rel, apiVersion, d.Kind)
	if rsc == nil {
		// kubectl's RESTMapper finds no resource: the request is never
		// sent.
		source := d.File
		if source == "-" {
			source = "STDIN" // cli-runtime's name of kubectl -f -
		}
		r.Status = wire.StatusInvalid
		r.DecodeError = builtin.NoMatchError(d.Name, d.Namespace, source, apiVersion, d.Kind)
		return
	}
	if !rsc.Creatable() {
		r.Status = wire.StatusPartial
		r.Reason = fmt.Sprintf("%s %s is served by Kubernetes %s but cannot be created (verbs: %s): not validated", apiVersion, d.Kind, rel, strings.Join(rsc.Verbs, ", "))
		return
	}
	if sub := opts.Validate.Subresource; sub != "" {
		// A request to a subresource: matched by admission, its
		// handling not modelled.
		found := false
		for _, s := range rsc.Subresources {
			found = found || s == sub
		}
		if !found {
			r.Status = wire.StatusError
			subs := strings.Join(rsc.Subresources, ", ")
			if subs == "" {
				subs = "none"
			}
			r.Reason = fmt.Sprintf("%s %s has no subresource %q at Kubernetes %s (its subresources: %s)", apiVersion, d.Kind, sub, rel, subs)
			return
		}
		r.Status = wire.StatusPartial
		r.Reason = subresourceNotModelledReason(sub, apiVersion, d.Kind)
		res.AsWritten = true
		return
	}
	body := d.Data
	if d.Item < 0 && d.Raw != nil {
		js, err := toJSON(d.Raw)
		if err != nil {
			r.Status, r.Reason = wire.StatusError, err.Error()
			return
		}
		body = js
	}
	o, err := builtin.Serve(builtin.Request{Body: body, Old: opts.Validate.Old, FieldValidation: string(opts.Validate.FieldValidation), Release: rel, APIVersion: apiVersion, Kind: d.Kind})
	if err != nil {
		r.Status, r.Reason = wire.StatusError, err.Error()
		return
	}
	r.Warnings = o.Warnings
	if !o.Modelled {
		if o.DecodeError != "" {
			// the typed decoder's 400, by the release's schema
			r.Status = wire.StatusInvalid
			r.DecodeError = o.DecodeError
			return
		}
		r.Status = wire.StatusPartial
		checked := ""
		if o.SchemaChecked {
			checked = "decoded by Kubernetes " + rel.String() + "'s OpenAPI schema (fields and types); "
		}
		r.Reason = checked + notModelledReason(apiVersion, d.Kind)
		res.AsWritten = o.Checked == ""
		if o.Checked != "" {
			// Part of the object was validated: its errors are the API
			// server's (it rejects the object), others may come on top.
			r.Reason = fmt.Sprintf("%snative validation of %s %s is not modelled beyond %s, which pass (docs/dra.md)", checked, apiVersion, d.Kind, o.Checked)
			if len(o.Errors) > 0 {
				r.Status = wire.StatusInvalid
				r.Errors = locateBuiltin(o.Errors, d, d.rawOrigin())
			}
		}
		return
	}
	r.DecodeError = o.DecodeError
	at := d.rawOrigin()
	r.Errors = locateBuiltin(o.Errors, d, at)
	if !o.Valid() {
		r.Status = wire.StatusInvalid
		return
	}
	if len(o.Unmodelled) > 0 {
		// The API server may still reject what crdlab did not check: a
		// partial answer, never "valid".
		r.Status = wire.StatusPartial
		r.Reason = wire.NativePartialReason + strings.Join(o.Unmodelled, ", ") + " (docs/builtin-kinds.md)"
		if opts.Results {
			r.Result = o.Object
		}
		return
	}
	r.Status = wire.StatusValid
	if opts.Results {
		r.Result = o.Object
	}
}

// locateBuiltin renders field errors as located run errors (locate): at
// their field's line and column in the file when the document's source is
// known, else at the document's line.
func locateBuiltin(errs field.ErrorList, d *Document, at int) []wire.LocatedError {
	reports := make([]wire.ErrorReport, len(errs))
	var tree *position.Tree
	if at > 0 && len(errs) > 0 {
		tree = position.Parse(d.Raw)
	}
	for i, e := range errs {
		reports[i] = wire.ErrorReport{Type: string(e.Type), Field: e.Field, Detail: e.Detail, Message: e.Error()}
		if tree != nil {
			if p, ok := tree.Find(e.Field); ok {
				reports[i].Position = &wire.Position{Line: p.Line, Column: p.Column}
			}
		}
	}
	return locate(reports, d.Line, at)
}

// notModelledReason is the reason of the partial entry of an object whose
// kind the release serves but crdlab does not validate natively.
func notModelledReason(apiVersion, kind string) string {
	return fmt.Sprintf("native validation and defaulting of %s %s are not modelled (the kinds validated natively: docs/builtin-kinds.md)", apiVersion, kind)
}

// subresourceNotModelledReason is the reason of the partial entry of a
// request to a subresource of a built-in resource (a status update, a
// scale): checked against the API surface, matched by admission, the
// subresource's own handling not modelled.
func subresourceNotModelledReason(sub, apiVersion, kind string) string {
	return fmt.Sprintf("requests to the %s subresource of %s %s are not modelled (admission policies and webhooks naming it are matched)", sub, apiVersion, kind)
}
