package cost

import (
	"fmt"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/schema"
)

// runtimeCosts evaluates the rules on each object as the CR validator does
// on create (per-call limit PerCallLimit, per-object budget
// PerObjectBudget) and fills Rule.RuntimeCost and Report.Objects.
func runtimeCosts(rep *Report, c *crd.CustomResourceDefinition, objects [][]byte, kubeVersion string, cache *cel.CompileCache) {
	roots := schemaRoots(c)
	compiled, err := engine.CompileCRDWithOptions(c, engine.CompileOptions{KubeVersion: kubeVersion})
	if err != nil {
		// AnalyzeWithOptions checked the release.
		compiled = engine.CompileCRD(c)
	}
	validators := map[int]*cel.Validator{}
	type key struct {
		schema   int
		dataPath string
		index    int
		field    string
	}
	byKey := map[key]int{}
	for i := range rep.Rules {
		r := &rep.Rules[i]
		r.RuntimeCost = make([]uint64, len(objects))
		r.Evaluations = make([]int, len(objects))
		byKey[key{r.schema, r.DataPath, r.Index, r.Field}] = i
	}
	for oi, data := range objects {
		oc := ObjectCosts{Index: oi, Errors: []string{}}
		if msg := kindMismatch(c, data); msg != "" {
			oc.Error = msg
			rep.Objects = append(rep.Objects, oc)
			continue
		}
		obj, version, blocking, err := prepareObject(c, compiled, data)
		if err != nil {
			oc.Error = err.Error()
			rep.Objects = append(rep.Objects, oc)
			continue
		}
		oc.Version = version
		if blocking != "" {
			oc.Note = "the API server would not run the rules: " + blocking
		}
		if m, ok := obj.(map[string]interface{}); ok {
			oc.Kind, _ = m["kind"].(string)
			if md, ok := m["metadata"].(map[string]interface{}); ok {
				oc.Name, _ = md["name"].(string)
			}
		}
		si := -1
		for i, r := range roots {
			if r.version == "" || r.version == version {
				si = i
				break
			}
		}
		if si < 0 {
			rep.Objects = append(rep.Objects, oc)
			continue
		}
		v, ok := validators[si]
		if !ok {
			ss, err := schema.NewStructural(roots[si].schema)
			if err == nil {
				v = cel.NewValidatorWithCache(ss, true, limits.PerCallLimit, cache)
			}
			validators[si] = v
		}
		if v == nil {
			rep.Objects = append(rep.Objects, oc)
			continue
		}
		errs, _, report := v.Validate(nil, obj, nil, PerObjectBudget)
		for _, e := range errs {
			oc.Errors = append(oc.Errors, e.Error())
		}
		if report != nil {
			for _, rc := range report.Costs {
				oc.TotalCost = addSaturating(oc.TotalCost, rc.Cost)
				f := FieldRule
				if rc.MessageExpression {
					f = FieldMessageExpression
				}
				if i, ok := byKey[key{si, dataPattern(rc.Path), rc.Rule, f}]; ok {
					rep.Rules[i].RuntimeCost[oi] = addSaturating(rep.Rules[i].RuntimeCost[oi], rc.Cost)
					rep.Rules[i].Evaluations[oi]++
				}
			}
		}
		oc.BudgetShare = float64(oc.TotalCost) / PerObjectBudget
		oc.OverBudget = oc.TotalCost > PerObjectBudget
		rep.Objects = append(rep.Objects, oc)
	}
}

// prepareObject decodes one object and, when the CRD can serve it, runs the
// request pipeline (pruning, defaulting) so that the rules see what the API
// server's would.
// blocking is set to the first error that makes the strategy skip CEL.
func prepareObject(c *crd.CustomResourceDefinition, compiled *engine.CRD, data []byte) (obj interface{}, version, blocking string, err error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, "", "", fmt.Errorf("decoding object: %v", err)
	}
	raw, err := (&crd.JSON{Raw: js}).Value()
	if err != nil {
		return nil, "", "", fmt.Errorf("decoding object: %v", err)
	}
	m, ok := raw.(map[string]interface{})
	if !ok {
		return nil, "", "", fmt.Errorf("decoding object: not a JSON object")
	}
	if av, ok := m["apiVersion"].(string); ok {
		if i := strings.LastIndex(av, "/"); i >= 0 {
			version = av[i+1:]
		}
	}
	known := false
	storage := ""
	for _, v := range c.Spec.Versions {
		if v.Name == version {
			known = true
		}
		if v.Storage {
			storage = v.Name
		}
	}
	if !known {
		version = storage
	}
	if compiled != nil {
		if v, err := compiled.Validator(version); err == nil {
			if res, err := v.Validate(js, engine.ValidateOptions{FieldValidation: engine.Ignore}); err == nil && res.Object != nil {
				for _, e := range res.Errors {
					switch e.Type {
					case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
						if blocking == "" {
							blocking = e.Error()
						}
					}
				}
				return res.Object, version, blocking, nil
			}
		}
	}
	return m, version, "", nil
}

// dataPattern turns a field path of an object ("spec.items[3]") into the
// data path of its schema node ("spec.items[*]").
func dataPattern(p string) string {
	if p == "" || p == "<nil>" {
		return "<root>"
	}
	var b strings.Builder
	depth := 0
	for _, r := range p {
		switch {
		case r == '[':
			if depth == 0 {
				b.WriteString("[*]")
			}
			depth++
		case r == ']':
			if depth > 0 {
				depth--
			}
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}
