package cost

import (
	"fmt"
	"runtime"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/defaulting"
	"github.com/crdlab/crdlab/internal/openapi"
	"github.com/crdlab/crdlab/internal/pruning"
	"github.com/crdlab/crdlab/internal/schema"
)

// Phase names of ObjectBench.Phases, in request order.
const (
	PhaseDecode  = "decode"  // YAML to JSON and JSON decoding
	PhasePrune   = "prune"   // dropping unknown fields and non-nullable nulls
	PhaseDefault = "default" // applying the schema's defaults
	PhaseOpenAPI = "openapi" // the OpenAPI schema validation
	PhaseCEL     = "cel"     // every x-kubernetes-validations rule
	PhaseRequest = "request" // the whole create as the engine runs it
)

// BenchReport is the benchmark of the rules of one CRD on objects: the
// runtime cost units and the wall time of every rule and messageExpression
// on every object, and of each phase of each object's validation.
// Absolute times depend on the machine (Machine); compare ratios and ranks.
type BenchReport struct {
	CRD     string        `json:"crd"`
	Machine Machine       `json:"machine"`
	Rules   []RuleBench   `json:"rules"`
	Objects []ObjectBench `json:"objects"`
	// RequestNote says why the whole request is not timed (the CRD is
	// rejected: the API server would serve none of its objects).
	RequestNote string `json:"requestNote,omitempty"`
	// Static is the cost report of the CRD (static estimates, advice).
	Static *Report `json:"-"`
}

// Machine describes where a benchmark ran.
type Machine struct {
	GOOS      string `json:"goos"`
	GOARCH    string `json:"goarch"`
	CPUs      int    `json:"cpus"`
	GoVersion string `json:"goVersion"`
}

// RuleBench is one rule or messageExpression on one object.
type RuleBench struct {
	// Object is the index of the object in BenchReport.Objects.
	Object int `json:"object"`
	// Rule is the index of the expression in Static.Rules.
	Rule       int    `json:"rule"`
	ErrorPath  string `json:"errorPath"`
	DataPath   string `json:"dataPath"`
	Field      string `json:"field"`
	Expression string `json:"expression"`
	// EstimatedCost and LimitShare are the static figures (Report.Rules).
	EstimatedCost uint64  `json:"estimatedCost"`
	LimitShare    float64 `json:"limitShare"`
	// Evaluations is the number of nodes of the object the expression
	// runs at (a messageExpression is counted and timed at every node its
	// rule runs at, as if the rule failed there); 0: not evaluated.
	Evaluations int `json:"evaluations"`
	// Cost is the runtime cost units of all the evaluations.
	Cost uint64 `json:"cost"`
	// Timing is the wall time of all the evaluations on the object (one
	// operation); PerEvaluationNs its median divided by Evaluations, and
	// NsPerCostUnit its median divided by Cost.
	Timing          *Timing `json:"timing,omitempty"`
	PerEvaluationNs float64 `json:"perEvaluationNs,omitempty"`
	NsPerCostUnit   float64 `json:"nsPerCostUnit,omitempty"`
	// Error is the evaluation error (the rule is still timed).
	Error string `json:"error,omitempty"`
}

// ObjectBench is the validation of one object, phase by phase.
type ObjectBench struct {
	Index int `json:"index"`
	// Source is where the object comes from (set by the caller, e.g. a
	// file name); Kind and Name are read from the object.
	Source  string `json:"source,omitempty"`
	Kind    string `json:"kind,omitempty"`
	Name    string `json:"name,omitempty"`
	Version string `json:"version,omitempty"`
	// Phases are decode, prune, default, openapi, cel and request (the
	// whole create, including the metadata checks the other phases leave
	// out).
	Phases []PhaseBench `json:"phases,omitempty"`
	Note   string       `json:"note,omitempty"`
	// Error is set when the object was not benchmarked (e.g. of another
	// kind than the CRD's).
	Error string `json:"error,omitempty"`
}

// PhaseBench is the wall time of one phase.
type PhaseBench struct {
	Phase  string `json:"phase"`
	Timing Timing `json:"timing"`
}

// Benchmark analyzes c (as Analyze) and times every rule and
// messageExpression on each object (YAML or JSON), and each phase of the
// object's validation as a create. The objects go through the request
// pipeline first (pruning, defaulting), so the rules see what the API
// server's would. With opts.Context, it is checked before every figure:
// once the context ends, Benchmark returns its error.
func Benchmark(c *crd.CustomResourceDefinition, objects [][]byte, opts BenchOptions) (br *BenchReport, err error) {
	rep, err := Analyze(c)
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			br, err = nil, fmt.Errorf("crdlab: benchmark panicked: %v", r)
		}
	}()
	br = &BenchReport{
		CRD:     rep.CRD,
		Machine: Machine{runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version()},
		Rules:   []RuleBench{},
		Objects: []ObjectBench{},
		Static:  rep,
	}
	roots := schemaRoots(c)
	compiled := engine.CompileCRD(c)
	if len(compiled.Errors()) > 0 {
		br.RequestNote = "the CRD is rejected: the whole request is not timed"
	}
	byKey := map[ruleKey]int{}
	for i := range rep.Rules {
		r := &rep.Rules[i]
		byKey[ruleKey{r.schema, r.DataPath, r.Index, r.Field}] = i
	}
	for oi, data := range objects {
		if err := opts.stopped(); err != nil {
			return nil, err
		}
		ob := ObjectBench{Index: oi}
		if msg := kindMismatch(c, data); msg != "" {
			ob.Error = msg
			br.Objects = append(br.Objects, ob)
			continue
		}
		obj, version, blocking, err := prepareObject(c, compiled, data)
		if err != nil {
			ob.Error = err.Error()
			br.Objects = append(br.Objects, ob)
			continue
		}
		ob.Version = version
		if m, ok := obj.(map[string]interface{}); ok {
			ob.Kind, _ = m["kind"].(string)
			if md, ok := m["metadata"].(map[string]interface{}); ok {
				ob.Name, _ = md["name"].(string)
			}
		}
		if blocking != "" {
			ob.Note = "the API server would not run the rules: " + blocking
		}
		si := -1
		for i, r := range roots {
			if r.version == "" || r.version == version {
				si = i
				break
			}
		}
		var props *crd.JSONSchemaProps
		var v *cel.Validator
		var ss *schema.Structural
		if si >= 0 {
			props = roots[si].schema
			if s, err := schema.NewStructural(props); err == nil {
				ss = s
				v = cel.NewValidator(ss, true, cel.PerCallLimit)
			}
		}
		ob.Phases = phases(opts, compiled, version, data, props, ss, v, obj)
		if err := opts.stopped(); err != nil {
			return nil, err
		}
		// rules
		if v != nil {
			sites := v.Sites(nil, obj)
			// the sites of each expression (index in rep.Rules)
			groups := map[int][]*cel.Site{}
			for i := range sites {
				s := &sites[i]
				f := FieldRule
				if s.MessageExpression {
					f = FieldMessageExpression
				}
				ri, ok := byKey[ruleKey{si, dataPattern(s.Path), s.Rule, f}]
				if !ok {
					continue
				}
				groups[ri] = append(groups[ri], s)
			}
			for ri := range rep.Rules {
				if rep.Rules[ri].schema != si {
					continue
				}
				rb := newRuleBench(oi, ri, &rep.Rules[ri])
				if g := groups[ri]; len(g) > 0 {
					if err := opts.stopped(); err != nil {
						return nil, err
					}
					rb.Evaluations = len(g)
					for _, s := range g {
						c, err := s.Eval()
						rb.Cost = addSaturating(rb.Cost, c)
						if err != nil && rb.Error == "" {
							rb.Error = err.Error()
						}
					}
					t := measure(opts, nil, func(int) {
						for _, s := range g {
							_, _ = s.Eval()
						}
					})
					rb.Timing = &t
					rb.PerEvaluationNs = t.MedianNs / float64(rb.Evaluations)
					if rb.Cost > 0 {
						rb.NsPerCostUnit = t.MedianNs / float64(rb.Cost)
					}
				}
				br.Rules = append(br.Rules, rb)
			}
		}
		br.Objects = append(br.Objects, ob)
	}
	return br, nil
}

type ruleKey struct {
	schema   int
	dataPath string
	index    int
	field    string
}

func newRuleBench(oi, ri int, r *Rule) RuleBench {
	return RuleBench{
		Object: oi, Rule: ri, ErrorPath: r.ErrorPath, DataPath: r.DataPath, Field: r.Field,
		Expression: r.Expression, EstimatedCost: r.EstimatedCost, LimitShare: r.LimitShare,
	}
}

// phases times each phase of the validation of data (a create).
func phases(opts BenchOptions, compiled *engine.CRD, version string, data []byte,
	props *crd.JSONSchemaProps, ss *schema.Structural, v *cel.Validator, prepared interface{}) []PhaseBench {
	var out []PhaseBench
	// stopped: the options' context ended (Benchmark checks it again).
	stopped := func() bool { return opts.stopped() != nil }
	decode := func() interface{} {
		js, err := yaml.YAMLToJSON(data)
		if err != nil {
			return nil
		}
		x, _ := (&crd.JSON{Raw: js}).Value()
		return x
	}
	raw := decode()
	out = append(out, PhaseBench{PhaseDecode, measure(opts, nil, func(int) { decode() })})
	if ss != nil && raw != nil && !stopped() {
		pruneSchema := ss.DeepCopy()
		if err := defaulting.PruneDefaults(pruneSchema); err != nil {
			pruneSchema = ss
		}
		var copies []interface{}
		prep := func(n int) {
			copies = copies[:0]
			for i := 0; i < n; i++ {
				copies = append(copies, schema.DeepCopyJSONValue(raw))
			}
		}
		out = append(out, PhaseBench{PhasePrune, measure(opts, prep, func(i int) {
			pruning.PruneWithOptions(copies[i], pruneSchema, true, pruning.Options{})
			defaulting.PruneNonNullableNullsWithoutDefaults(copies[i], pruneSchema)
		})})
		out = append(out, PhaseBench{PhaseDefault, measure(opts, prep, func(i int) {
			defaulting.Default(copies[i], pruneSchema)
		})})
		copies = nil
	}
	if props != nil && prepared != nil && !stopped() {
		if ov, err := openapi.NewSchemaValidator(props, openapi.NewPatterns()); err == nil {
			out = append(out, PhaseBench{PhaseOpenAPI, measure(opts, nil, func(int) { ov.Validate(nil, prepared) })})
		}
	}
	if v != nil && prepared != nil && !stopped() {
		out = append(out, PhaseBench{PhaseCEL, measure(opts, nil, func(int) { v.Validate(nil, prepared, nil, PerObjectBudget) })})
	}
	if compiled != nil && !stopped() {
		if ev, err := compiled.Validator(version); err == nil {
			vo := engine.ValidateOptions{FieldValidation: engine.Ignore}
			out = append(out, PhaseBench{PhaseRequest, measure(opts, nil, func(int) { _, _ = ev.Validate(data, vo) })})
		}
	}
	return out
}

// kindMismatch says why an object is not one of c's custom resources
// (another group or kind), or "" when it is (or has no kind at all: the
// decoding reports that).
func kindMismatch(c *crd.CustomResourceDefinition, data []byte) string {
	apiVersion, kind := objectKind(data)
	if kind == "" && apiVersion == "" {
		return ""
	}
	group := apiVersion
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		group = apiVersion[:i]
	} else {
		group = ""
	}
	if kind == c.Spec.Names.Kind && group == c.Spec.Group {
		return ""
	}
	return fmt.Sprintf("skipped: a %s of %s is not a %s of %s", kind, apiVersion, c.Spec.Names.Kind, c.Spec.Group)
}

// objectKind reads apiVersion and kind of a YAML or JSON document.
func objectKind(data []byte) (apiVersion, kind string) {
	var tm struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := yaml.Unmarshal(data, &tm); err != nil {
		return "", ""
	}
	return tm.APIVersion, tm.Kind
}
