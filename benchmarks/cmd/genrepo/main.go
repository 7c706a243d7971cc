// Command genrepo writes a synthetic GitOps repository for the
// directory-validation comparison (benchmarks/README.md, make bench-repo):
// N objects across the benchmark CRDs (the set of Cases: their example
// objects and the object generated from each schema, renamed per copy) and
// built-in kinds (ConfigMaps, Services, Deployments, a fifth of the objects,
// which CRD validators skip), in multi-document YAML files of a few dozen
// documents under nested directories, plus:
//
//	OUT/crds/NAME.yaml                  the CRDs, one per file
//	OUT/schemas/KIND_VERSION.json       their schemas as JSON Schema for
//	                                    kubeconform, written as kubeconform's
//	                                    openapi2jsonschema.py does
//	OUT/manifests/team-NN/app-NNN.yaml  the objects
//
// The output is deterministic for a given -n.
//
//	go run ./cmd/genrepo -n 50000 -out ../build/repo
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/benchmarks"
	"github.com/crdlab/crdlab/internal/unstructured"
)

func main() {
	n := flag.Int("n", 50000, "number of objects")
	out := flag.String("out", "repo", "output directory (replaced)")
	perFile := flag.Int("per-file", 25, "documents per file")
	flag.Parse()
	if err := generate(*n, *perFile, *out); err != nil {
		log.Fatal(err)
	}
}

type template struct {
	name string
	obj  map[string]interface{}
}

func generate(n, perFile int, out string) error {
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	for _, d := range []string{"crds", "schemas", "manifests"} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			return err
		}
	}
	var templates []template
	seen := map[string]bool{}
	for _, in := range benchmarks.Inputs() {
		if in.Skip != "" || in.CEL != "on" {
			if in.Skip != "" {
				log.Printf("skipping %s: %s", in.Name, in.Skip)
			}
			continue
		}
		var crd map[string]interface{}
		if err := yaml.Unmarshal(in.CRD, &crd); err != nil {
			return err
		}
		name := crd["metadata"].(map[string]interface{})["name"].(string)
		if !seen[name] {
			seen[name] = true
			if err := os.WriteFile(filepath.Join(out, "crds", name+".yaml"), in.CRD, 0o644); err != nil {
				return err
			}
			if err := writeSchemas(crd, filepath.Join(out, "schemas")); err != nil {
				return err
			}
		}
		for _, o := range in.Objects {
			var obj map[string]interface{}
			if err := json.Unmarshal(o.JSON, &obj); err != nil {
				return err
			}
			templates = append(templates, template{in.Name + "-" + o.Name, obj})
		}
	}
	if len(templates) == 0 {
		return fmt.Errorf("no benchmark inputs (is the corpus available? scripts/corpus.sh)")
	}
	builtins := builtinTemplates()
	var b strings.Builder
	file, docs := 0, 0
	flush := func() error {
		if docs == 0 {
			return nil
		}
		dir := filepath.Join(out, "manifests", fmt.Sprintf("team-%02d", file%20))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("app-%04d.yaml", file)), []byte(b.String()), 0o644)
		b.Reset()
		file++
		docs = 0
		return err
	}
	for i := 0; i < n; i++ {
		var t template
		if i%5 == 4 {
			t = builtins[(i/5)%len(builtins)]
		} else {
			t = templates[(i-i/5)%len(templates)]
		}
		obj := unstructured.DeepCopyObject(t.obj)
		meta, _ := obj["metadata"].(map[string]interface{})
		if meta == nil {
			meta = map[string]interface{}{}
			obj["metadata"] = meta
		}
		base, _ := meta["name"].(string)
		if base == "" {
			base = "obj"
		}
		meta["name"] = fmt.Sprintf("%s-%05d", base, i)
		y, err := yaml.Marshal(obj)
		if err != nil {
			return err
		}
		if docs > 0 {
			b.WriteString("---\n")
		}
		fmt.Fprintf(&b, "# %s\n", t.name)
		b.Write(y)
		docs++
		if docs == perFile {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	log.Printf("%d objects (%d templates, %d built-in) in %d files, %d CRDs, under %s", n, len(templates), len(builtins), file, len(seen), out)
	return nil
}

func builtinTemplates() []template {
	var out []template
	for _, y := range []string{`apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: apps, labels: {app: web}}
data: {LOG_LEVEL: info, FEATURE_X: "true"}
`, `apiVersion: v1
kind: Service
metadata: {name: web, namespace: apps}
spec:
  selector: {app: web}
  ports:
  - {name: http, port: 80, targetPort: 8080, protocol: TCP}
`, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: apps, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports: [{containerPort: 8080}]
        resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {memory: 128Mi}}
`} {
		var obj map[string]interface{}
		if err := yaml.Unmarshal([]byte(y), &obj); err != nil {
			panic(err)
		}
		out = append(out, template{"builtin-" + strings.ToLower(obj["kind"].(string)), obj})
	}
	return out
}

// writeSchemas writes each version's openAPIV3Schema as kubeconform's
// openapi2jsonschema.py does: the schema as is, int-or-string as a oneOf
// of string and integer, one file per version named kind_version.json
// (lowercase kind), and no strictness added (its default).
func writeSchemas(crd map[string]interface{}, dir string) error {
	spec := crd["spec"].(map[string]interface{})
	kind := strings.ToLower(spec["names"].(map[string]interface{})["kind"].(string))
	versions, _ := spec["versions"].([]interface{})
	for _, v := range versions {
		vm := v.(map[string]interface{})
		s, _ := vm["schema"].(map[string]interface{})
		schema, _ := s["openAPIV3Schema"].(map[string]interface{})
		if schema == nil {
			continue
		}
		b, err := json.MarshalIndent(intOrString(schema), "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s_%s.json", kind, vm["name"])), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func intOrString(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		out := map[string]interface{}{}
		for k, x := range t {
			out[k] = intOrString(x)
		}
		if t["x-kubernetes-int-or-string"] == true {
			delete(out, "type")
			out["oneOf"] = []interface{}{map[string]interface{}{"type": "string"}, map[string]interface{}{"type": "integer"}}
		}
		return out
	case []interface{}:
		out := make([]interface{}, len(t))
		for i, x := range t {
			out[i] = intOrString(x)
		}
		return out
	}
	return v
}
