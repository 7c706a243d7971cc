package lsp

import (
	"errors"
	"strconv"
	"strings"

	"github.com/crdlab/crdlab/internal/admission"
	yaml "sigs.k8s.io/yaml/goyaml.v3"
)

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
		r := a.docStart(d)
		if n := walkPath(root, fieldSteps(e.Field)); n != nil && n.Kind == yaml.ScalarNode {
			r = a.at(d.fileLine(n.Line), n.Column)
			if m := celErrorRE.FindStringSubmatch(e.Detail); m != nil {
				line, _ := strconv.Atoi(m[1])
				col, _ := strconv.Atoi(m[2])
				if l, c, ok := scalarRunePos(d.lines, n, celOffset(n.Value, line, col)); ok {
					r = a.at(d.fileLine(l), c)
				}
			}
		}
		a.add(r, SeverityError, e.Error())
	}
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
