package abi

import (
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/jsonschema"
	"github.com/crdlab/crdlab/wire"
)

// crdOf returns the CRD of a "schema" or "bench" request: the compiled
// handle, or the CRD text compiled as "compile" does it.
func (s *Server) crdOf(r *wire.Request) (*engine.CRD, *wire.Error) {
	if e := kubeVersionOf(r); e != nil {
		return nil, e
	}
	if r.Handle != 0 {
		c, e := s.lookup(r.Handle)
		if e == nil && r.KubeVersion != "" {
			if rel, _ := kubeversion.Parse(r.KubeVersion); rel.String() != c.KubeVersion() {
				return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf("kubeVersion %q: handle %d was compiled for Kubernetes %s (the release is a compile option)", r.KubeVersion, r.Handle, c.KubeVersion())}
			}
		}
		return c, e
	}
	data := pick(r.CRD, r.CRDBytes)
	if len(data) == 0 {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf("%s request needs a \"handle\" or a \"crd\"", r.Op)}
	}
	c, err := compile(withTimeout(r.TimeoutMs), data, r.CRDFieldValidation, "", r.KubeVersion)
	if err != nil {
		return nil, engineError(wire.CodeDecodeError, err)
	}
	return c, nil
}

// schema answers "schema": jsonschema.Convert of the CRD, each document
// rendered as `crdlab schema` writes it.
func (s *Server) schema(r *wire.Request) (interface{}, *wire.Error) {
	draft, err := jsonschema.ParseDraft(r.Draft)
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: "draft: " + err.Error()}
	}
	layout := jsonschema.Layout(r.Layout)
	switch layout {
	case "":
		layout = jsonschema.LayoutKubeconform
	case jsonschema.LayoutKubeconform, jsonschema.LayoutCatalog:
	default:
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf("layout must be %s or %s, not %q", jsonschema.LayoutKubeconform, jsonschema.LayoutCatalog, r.Layout)}
	}
	c, e := s.crdOf(r)
	if e != nil {
		return nil, e
	}
	out := wire.SchemaResult{CRD: engine.NewReport(c, nil).CRD, Schemas: []wire.SchemaDocument{}}
	if !c.Valid() {
		return out, nil
	}
	want := r.Versions
	if r.Version != "" {
		want = append([]string{r.Version}, want...)
	}
	served := c.ServedVersions()
	for _, v := range want {
		if !contains(served, v) {
			return nil, &wire.Error{Code: wire.CodeInvalid, Message: fmt.Sprintf("version %q is not served by CustomResourceDefinition %q (served: %s)", v, c.Definition().Metadata.Name, strings.Join(served, ", "))}
		}
	}
	schemas, err := jsonschema.Convert(c.Definition(), jsonschema.Options{Draft: draft, Strict: r.Strict})
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeInvalid, Message: err.Error()}
	}
	byVersion := map[string]*jsonschema.Schema{}
	for i := range schemas {
		byVersion[schemas[i].Version] = &schemas[i]
	}
	if len(want) == 0 {
		for i := range schemas {
			want = append(want, schemas[i].Version)
		}
	}
	for _, v := range want {
		sc := byVersion[v]
		doc, err := sc.JSON()
		if err != nil {
			return nil, &wire.Error{Code: wire.CodeInvalid, Message: err.Error()}
		}
		out.Schemas = append(out.Schemas, wire.SchemaDocument{
			Group: sc.Group, Version: sc.Version, Kind: sc.Kind, FileName: sc.FileName(layout),
			Unexpressed: append([]string{}, sc.Unexpressed...), Document: string(doc),
		})
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
