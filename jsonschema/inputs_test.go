package jsonschema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/testsupport/casefile"
	"github.com/crdlab/crdlab/internal/testsupport/corpus"
	"sigs.k8s.io/yaml"
)

// This file gathers the inputs of the differential test: the conformance
// cases (testdata of the conformance module, read as plain YAML), the
// real-world corpus (the fetch script of the conformance suite) and objects
// generated from the schemas.

// crdInput is one CRD and the objects written against it.
type crdInput struct {
	name    string // source, for the report
	data    []byte // the CRD, JSON
	objects []objInput
}

type objInput struct {
	name string
	data []byte // JSON
}

const casesDir = "../conformance/testdata/cases"

// conformanceInputs returns the CRDs of the conformance cases (read by the
// conformance suite's loader, internal/testsupport/casefile) with the objects of their
// create requests (updates, status updates, raw bodies and requests to
// another version than the object's are left out: JSON Schema sees one
// object, as written).
func conformanceInputs(t *testing.T) []*crdInput {
	cases, err := casefile.Load(casesDir)
	if err != nil || len(cases) == 0 {
		t.Fatalf("no conformance cases under %s: %v", casesDir, err)
	}
	byCRD := map[string]*crdInput{}
	var out []*crdInput
	for _, c := range cases {
		if c.CRDRaw != "" || c.CRD == nil {
			continue
		}
		stem := strings.TrimSuffix(filepath.Base(c.File), ".yaml")
		name := c.ID
		if n, ok := c.CRD.(string); ok && len(c.Patch) == 0 && c.Schema == nil && c.VersionPatch == nil {
			name = stem + "/" + n
		}
		b := c.Request.CRD
		key := string(b)
		in := byCRD[key]
		if in == nil {
			in = &crdInput{name: name, data: b}
			byCRD[key] = in
			out = append(out, in)
		}
		if c.Object == nil || c.ObjectRaw != nil || c.Old != nil || c.OldRaw != nil || c.Subresource != "" || c.Version != "" {
			continue
		}
		ob, _ := json.Marshal(c.Object)
		in.objects = append(in.objects, objInput{name: c.ID, data: ob})
	}
	return out
}

// corpusDirs is the conformance suite's corpus: $CRDLAB_CORPUS (a path
// list) or the directories printed by the repository's scripts/corpus.sh
// (or $CRDLAB_CORPUS_FETCH); see internal/testsupport/corpus.
func corpusDirs() ([]string, error) {
	return corpus.Dirs(corpus.Options{})
}

var docSeparator = regexp.MustCompile(`(?m)^---[ \t]*(#.*)?$`)

// corpusInputs returns every CRD of the corpus (deduplicated by content)
// with the corpus objects of its group and kind.
func corpusInputs(dirs []string) ([]*crdInput, error) {
	type doc struct {
		name string
		data []byte
	}
	var crds, objs []doc
	seen := map[string]bool{}
	for _, dir := range dirs {
		base := filepath.Base(dir)
		if strings.HasPrefix(base, "v") && strings.Contains(base, "@") {
			base = filepath.Base(filepath.Dir(dir)) + "/" + base
		}
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if ext := filepath.Ext(p); ext != ".yaml" && ext != ".yml" {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			for i, d := range docSeparator.Split(string(data), -1) {
				if strings.Contains(d, "{{") {
					continue // templates
				}
				js, err := yaml.YAMLToJSON([]byte(d))
				if err != nil || !bytes.HasPrefix(js, []byte("{")) {
					continue
				}
				if seen[string(js)] {
					continue
				}
				seen[string(js)] = true
				var head struct {
					APIVersion string `json:"apiVersion"`
					Kind       string `json:"kind"`
				}
				if json.Unmarshal(js, &head) != nil || head.Kind == "" {
					continue
				}
				dd := doc{name: fmt.Sprintf("%s/%s#%d", base, rel, i), data: js}
				if head.Kind == "CustomResourceDefinition" && head.APIVersion == "apiextensions.k8s.io/v1" {
					crds = append(crds, dd)
				} else {
					objs = append(objs, dd)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	byGK := map[string]*crdInput{}
	var out []*crdInput
	sameSpec := map[string]bool{}
	for _, c := range crds {
		var head struct {
			Spec struct {
				Group string `json:"group"`
				Names struct {
					Kind string `json:"kind"`
				} `json:"names"`
			} `json:"spec"`
		}
		_ = json.Unmarshal(c.data, &head)
		var full struct {
			Spec json.RawMessage `json:"spec"`
		}
		_ = json.Unmarshal(c.data, &full)
		if sameSpec[string(full.Spec)] {
			continue // a copy (other metadata or formatting)
		}
		sameSpec[string(full.Spec)] = true
		in := &crdInput{name: c.name, data: c.data}
		out = append(out, in)
		byGK[head.Spec.Group+"/"+head.Spec.Names.Kind] = in
	}
	for _, o := range objs {
		var head struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
		}
		_ = json.Unmarshal(o.data, &head)
		g := head.APIVersion
		if i := strings.Index(g, "/"); i >= 0 {
			g = g[:i]
		}
		if in := byGK[g+"/"+head.Kind]; in != nil {
			in.objects = append(in.objects, objInput{name: o.name, data: o.data})
		}
	}
	return out, nil
}

// servedSchemas returns the served versions with their schemas.
func servedSchemas(def *crd.CustomResourceDefinition) map[string]*crd.JSONSchemaProps {
	out := map[string]*crd.JSONSchemaProps{}
	for i := range def.Spec.Versions {
		v := &def.Spec.Versions[i]
		if v.Served && v.Schema != nil {
			out[v.Name] = v.Schema.OpenAPIV3Schema
		}
	}
	return out
}
