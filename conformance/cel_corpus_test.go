package conformance

// Real-world CRDs (CRDLAB_CORPUS: directories separated by ':', e.g. the
// output of scripts/corpus.sh joined with ':'): for every CRD
// version whose schema has x-kubernetes-validations, compile results at every
// node and the CEL-related CRD validation errors must equal upstream's.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	upvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	upcel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/warning"
	sigyaml "sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/crdvalidation"
	"github.com/crdlab/crdlab/internal/limits"
)

func celCorpusCRDs(t *testing.T) map[string][]byte {
	dirs := os.Getenv("CRDLAB_CORPUS")
	if dirs == "" {
		t.Skip("CRDLAB_CORPUS not set (directories of real-world CRDs, ':'-separated; e.g. CRDLAB_CORPUS=$(bash ../scripts/corpus.sh | paste -sd:))")
	}
	out := map[string][]byte{}
	for _, dir := range strings.Split(dirs, ":") {
		filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil || !strings.Contains(string(data), "x-kubernetes-validations") {
				return nil
			}
			for i, doc := range strings.Split(string(data), "\n---") {
				if strings.Contains(doc, "kind: CustomResourceDefinition") && strings.Contains(doc, "x-kubernetes-validations") {
					js, err := sigyaml.YAMLToJSON([]byte(doc))
					if err == nil {
						out[fmt.Sprintf("%s#%d", path, i)] = js
					}
				}
			}
			return nil
		})
	}
	return out
}

func TestCELCorpusDifferential(t *testing.T) {
	crds := celCorpusCRDs(t)
	names := slices.Sorted(maps.Keys(crds))
	rules := 0
	for _, name := range names {
		js := crds[name]
		var v1 apiextensionsv1.CustomResourceDefinition
		if err := json.Unmarshal(js, &v1); err != nil || v1.Kind != "CustomResourceDefinition" {
			continue
		}
		t.Run(filepath.Base(name)+"/"+v1.Name, func(t *testing.T) {
			for _, v := range v1.Spec.Versions {
				if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
					continue
				}
				sj, _ := json.Marshal(v.Schema.OpenAPIV3Schema)
				up := celUpstreamStructural(t, string(sj))
				ours := celOurStructural(t, string(sj))
				a, b := celUpstreamCompileReport(up), celOurCompileReport(ours)
				rules += len(a)
				if strings.Join(a, "\n") != strings.Join(b, "\n") {
					t.Errorf("version %s: compile results differ\nupstream:\n%s\nours:\n%s", v.Name, strings.Join(a, "\n"), strings.Join(b, "\n"))
				}
			}
			// CRD-time CEL checks.
			var internal apiextensions.CustomResourceDefinition
			if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(&v1, &internal, nil); err != nil {
				t.Fatal(err)
			}
			internal.Status = apiextensions.CustomResourceDefinitionStatus{}
			for _, v := range internal.Spec.Versions {
				if v.Storage {
					internal.Status.StoredVersions = []string{v.Name}
				}
			}
			internal.Generation = 1
			var upErrs []string
			for _, e := range upvalidation.ValidateCustomResourceDefinition(context.Background(), &internal) {
				if s := fmt.Sprintf("%s|%s", e.Type, e.Error()); celRelated(s) {
					upErrs = append(upErrs, celNormalize(s))
				}
			}
			var c crd.CustomResourceDefinition
			if err := json.Unmarshal(js, &c); err != nil {
				t.Fatal(err)
			}
			errs, _ := crdvalidation.ValidateCustomResourceDefinition(&c, crdvalidation.Options{})
			var ourErrs []string
			for _, e := range errs {
				if s := fmt.Sprintf("%s|%s", e.Type, e.Error()); celRelated(s) {
					ourErrs = append(ourErrs, celNormalize(s))
				}
			}
			sort.Strings(upErrs)
			sort.Strings(ourErrs)
			if strings.Join(upErrs, "\n") != strings.Join(ourErrs, "\n") {
				t.Errorf("CRD CEL errors differ\nupstream:\n%s\nours:\n%s", strings.Join(upErrs, "\n"), strings.Join(ourErrs, "\n"))
			}
		})
	}
	t.Logf("%d CRDs, %d compiled rules compared", len(names), rules)
}

// TestCELCorpusObjectsDifferential validates real-world example objects
// (CRDLAB_CORPUS_OBJECTS: directories, ':'-separated) against the CRDs of
// CRDLAB_CORPUS whose group and kind they name, with upstream's Validator and
// ours: on create (no old object) and on an update to itself (transition
// rules run, everything ratchets). The objects are used as they are (no
// pruning or defaulting), the same input on both sides.
func TestCELCorpusObjectsDifferential(t *testing.T) {
	crds := celCorpusCRDs(t)
	objDirs := os.Getenv("CRDLAB_CORPUS_OBJECTS")
	if objDirs == "" {
		t.Skip("CRDLAB_CORPUS_OBJECTS not set")
	}
	byGVK := map[string]string{}
	for _, js := range crds {
		var v1 apiextensionsv1.CustomResourceDefinition
		if err := json.Unmarshal(js, &v1); err != nil {
			continue
		}
		for _, v := range v1.Spec.Versions {
			if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
				sj, _ := json.Marshal(v.Schema.OpenAPIV3Schema)
				byGVK[v1.Spec.Group+"/"+v.Name+"/"+v1.Spec.Names.Kind] = string(sj)
			}
		}
	}
	checked, withErrors, costs := 0, 0, 0
	for _, dir := range strings.Split(objDirs, ":") {
		filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() || !strings.HasSuffix(path, ".yaml") {
				return nil
			}
			data, _ := os.ReadFile(path)
			for i, doc := range strings.Split(string(data), "\n---") {
				js, err := sigyaml.YAMLToJSON([]byte(doc))
				if err != nil {
					continue
				}
				var head struct{ APIVersion, Kind string }
				if json.Unmarshal(js, &head) != nil {
					continue
				}
				sj, ok := byGVK[head.APIVersion+"/"+head.Kind]
				if !ok {
					continue
				}
				checked++
				t.Run(fmt.Sprintf("%s#%d", filepath.Base(path), i), func(t *testing.T) {
					up := celUpstreamStructural(t, sj)
					ours := celOurStructural(t, sj)
					upV := upcel.NewValidator(up, true, celconfig.PerCallLimit)
					ourV := cel.NewValidator(ours, true, limits.PerCallLimit)
					for _, update := range []bool{false, true} {
						upObj, ourObj := celDecode(t, string(js)), celDecode(t, string(js))
						var upOld, ourOld interface{}
						var upOpts []upcel.Option
						var ourOpts []cel.Option
						if update {
							upOld, ourOld = celDecode(t, string(js)), celDecode(t, string(js))
							upOpts = append(upOpts, upcel.WithRatcheting(common.NewCorrelatedObject(upObj, upOld, &model.Structural{Structural: up})))
							ourOpts = append(ourOpts, cel.WithRatcheting(cel.NewCorrelatedObject(ourObj, ourOld, ours)))
						}
						rec := &celWarnRecorder{}
						ctx := warning.WithWarningRecorder(context.Background(), rec)
						upErrs, upRem := upV.Validate(ctx, nil, up, upObj, upOld, celconfig.RuntimeCELCostBudget, upOpts...)
						ourErrs, ourRem, rep := ourV.Validate(nil, ourObj, ourOld, limits.RuntimeCELCostBudget, ourOpts...)
						var a, b []string
						for _, e := range upErrs {
							a = append(a, e.Error())
						}
						for _, e := range ourErrs {
							b = append(b, e.Error())
						}
						a, b = celSorted(a), celSorted(b)
						if len(a) > 0 {
							withErrors++
						}
						costs += len(rep.Costs)
						if strings.Join(a, "\n") != strings.Join(b, "\n") || upRem != ourRem {
							t.Errorf("update=%v: upstream (remaining %d):\n%s\nours (remaining %d):\n%s", update, upRem, strings.Join(a, "\n"), ourRem, strings.Join(b, "\n"))
						}
						if w1, w2 := celSorted(rec.warnings), celSorted(rep.Warnings); strings.Join(w1, "\n") != strings.Join(w2, "\n") {
							t.Errorf("update=%v: warnings differ\n%v\n%v", update, w1, w2)
						}
					}
				})
			}
			return nil
		})
	}
	t.Logf("%d objects validated (create and update), %d validations with errors, %d rule evaluations", checked, withErrors, costs)
}
