package lsp

import (
	"errors"
	"strings"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/admission"
	"github.com/crdlab/crdlab/internal/cel"
	yaml "sigs.k8s.io/yaml/goyaml.v3"
)

// isMutatingPolicy reports whether a document is a
// MutatingAdmissionPolicy (admissionregistration.k8s.io, any version).
func isMutatingPolicy(d *docInfo) bool {
	g, _, _ := strings.Cut(d.apiVersion, "/")
	return g == admission.APIGroup && d.kind == admission.KindMutatingPolicy
}

// isPolicy reports whether a document is a ValidatingAdmissionPolicy
// (admissionregistration.k8s.io, any version).
func isPolicy(d *docInfo) bool {
	g, _, _ := strings.Cut(d.apiVersion, "/")
	return g == admission.APIGroup && d.kind == admission.KindPolicy
}

// checkPolicy reports a ValidatingAdmissionPolicy's decoding error, or
// the compilation errors of its expressions (internal/admission's
// CompileErrors: the policy plugin's compiler and messages), each inside
// the expression's string where CEL gives a position.
func (a *analysis) checkPolicy(d *docInfo) {
	in, err := admission.DecodeDocument(d.data, "", 1)
	if err != nil {
		var de *admission.DecodeError
		if errors.As(err, &de) && de.Line > 0 {
			msg := de.Msg
			if de.Path != "" {
				msg = de.Path + ": " + msg
			}
			a.add(a.at(d.fileLine(de.Line), max(de.Column, 1)), SeverityError, msg)
		} else {
			a.add(a.docStart(d), SeverityError, err.Error())
		}
		return
	}
	if len(in.Policies) != 1 {
		return
	}
	errs, err := admission.CompileErrors(in.Policies[0])
	if err != nil {
		a.add(a.docStart(d), SeverityError, err.Error())
		return
	}
	root := d.ensureRoot()
	for _, e := range errs {
		if a.full() {
			break
		}
		a.add(a.expressionRange(d, root, e.Field, e.Detail), SeverityError, e.Error())
	}
}

// expressionRange is where a diagnostic on a policy's field goes: the
// CEL position named in msg (`<input>:line:col`) inside the expression at
// field, else the field's scalar, else the document's start.
func (a *analysis) expressionRange(d *docInfo, root *yaml.Node, field, msg string) Range {
	r := a.docStart(d)
	if n := walkPath(root, fieldSteps(field)); n != nil && n.Kind == yaml.ScalarNode {
		r = a.at(d.fileLine(n.Line), n.Column)
		if k, named := cel.CompileErrorOffset(n.Value, msg); named {
			if l, c, ok := scalarRunePos(d.lines, n, k); ok {
				r = a.at(d.fileLine(l), c)
			}
		}
	}
	return r
}

// fieldSteps splits a field path ("spec.validations[0].expression") into
// walkPath's steps.
func fieldSteps(path string) []string {
	var out []string
	for _, part := range strings.Split(path, ".") {
		name, idx, ok := strings.Cut(part, "[")
		if name != "" {
			out = append(out, name)
		}
		if ok {
			out = append(out, "["+idx)
		}
	}
	return out
}

// typeCheckPolicy reports a ValidatingAdmissionPolicy's type-checking
// warnings (internal/admission.TypeCheck: its status.typeChecking) as
// warnings inside each expression, against the valid CRDs of the document
// and those groupCRDs gives for the groups of its resource rules. Nothing
// for a policy that does not decode (checkPolicy reported it).
func (a *analysis) typeCheckPolicy(d *docInfo, groupCRDs func(group string) []*engine.CRD) {
	in, err := admission.DecodeDocument(d.data, "", 1)
	if err != nil || len(in.Policies) != 1 {
		return
	}
	p := in.Policies[0]
	var defs []*crd.CustomResourceDefinition
	seen := map[string]bool{}
	addCRD := func(c *engine.CRD) {
		if c == nil || !c.Valid() {
			return
		}
		def := c.Definition()
		if name := def.Metadata.Name; !seen[name] {
			seen[name] = true
			defs = append(defs, def)
		}
	}
	for _, o := range a.docs {
		addCRD(o.crd)
	}
	if groupCRDs != nil && p.Spec.MatchConstraints != nil {
		groups := map[string]bool{}
		for _, r := range p.Spec.MatchConstraints.ResourceRules {
			for _, g := range r.APIGroups {
				groups[g] = true
			}
		}
		if pk := p.Spec.ParamKind; pk != nil {
			if g, _, ok := strings.Cut(pk.APIVersion, "/"); ok {
				groups[g] = true
			}
		}
		for g := range groups {
			if strings.Contains(g, "*") {
				continue
			}
			for _, c := range groupCRDs(g) {
				addCRD(c)
			}
		}
	}
	warnings, err := admission.TypeCheck(p, defs)
	if err != nil {
		return
	}
	root := d.ensureRoot()
	for _, w := range warnings {
		if a.full() {
			break
		}
		a.add(a.expressionRange(d, root, w.FieldRef, w.Warning), SeverityWarning, w.FieldRef+": "+strings.TrimSuffix(w.Warning, "\n"))
	}
}
