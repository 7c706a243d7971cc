package cost

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/crdvalidation"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/wire"
)

// Limits enforced by kube-apiserver (from internal/limits, which names
// their upstream sources).
const (
	// PerExpressionLimit is the largest static cost of one expression
	// (limits.StaticEstimatedCostLimit).
	PerExpressionLimit = limits.StaticEstimatedCostLimit
	// PerCRDLimit is the largest total static cost of the rules of one
	// openAPIV3Schema (limits.StaticEstimatedCRDCostLimit).
	PerCRDLimit = limits.StaticEstimatedCRDCostLimit
	// PerCallLimit is the runtime cost limit of one evaluation
	// (limits.PerCallLimit).
	PerCallLimit = limits.PerCallLimit
	// PerObjectBudget is the runtime cost budget of all the rules on one
	// object (limits.RuntimeCELCostBudget).
	PerObjectBudget = limits.RuntimeCELCostBudget
)

// Field values of Rule.Field.
const (
	FieldRule              = "rule"
	FieldMessageExpression = "messageExpression"
)

// Report is the cost report of one CRD (and optionally objects).
type Report struct {
	CRD    string `json:"crd"`
	Limits Limits `json:"limits"`
	// Accepted is the CRD create verdict (no validation error).
	Accepted bool `json:"accepted"`
	// Errors are all the CRD validation errors, upstream's order.
	Errors []wire.ErrorReport `json:"errors"`
	// CostErrors are the errors about static cost, upstream's order.
	CostErrors []wire.ErrorReport `json:"costErrors"`
	Rules      []Rule             `json:"rules"`
	// Schemas holds the total of each openAPIV3Schema (one, or one per
	// version when the versions' schemas differ).
	Schemas []SchemaTotal `json:"schemas"`
	// TotalEstimatedCost is the largest schema total (the one compared with
	// PerCRDLimit); TotalLimitShare is its share of that limit.
	TotalEstimatedCost uint64        `json:"totalEstimatedCost"`
	TotalLimitShare    float64       `json:"totalLimitShare"`
	Objects            []ObjectCosts `json:"objects,omitempty"`
	// SuggestionsTruncated is set when the search for bounds stopped early
	// (it re-estimates at most 2,000 times per report).
	SuggestionsTruncated bool `json:"suggestionsTruncated,omitempty"`
	// KubeVersion, when set, is the release Text names on its verdict
	// line (crdlab cost sets it; not part of the JSON report).
	KubeVersion string `json:"-"`
}

// Limits are the limits the report compares with.
type Limits struct {
	PerExpression uint64 `json:"perExpression"`
	PerCRD        uint64 `json:"perCRD"`
	PerCall       uint64 `json:"perCall"`
	PerObject     int64  `json:"perObject"`
}

// Estimate is a static cost estimate of one evaluation.
type Estimate struct {
	Min *uint64 `json:"min,omitempty"`
	Max uint64  `json:"max"`
}

// Rule is the cost of one rule or messageExpression.
type Rule struct {
	// Schema is the openAPIV3Schema the rule belongs to.
	Schema string `json:"schema"`
	// Path is the schema node, as the CRD validation errors name it.
	Path string `json:"path"`
	// DataPath is where the node is in objects ("[*]" for items and map
	// values), e.g. spec.items[*].
	DataPath string `json:"dataPath"`
	// Index is the rule's index in x-kubernetes-validations.
	Index int `json:"index"`
	// Field is "rule" or "messageExpression".
	Field string `json:"field"`
	// ErrorPath is where a cost error about this expression is reported.
	ErrorPath  string `json:"errorPath"`
	Expression string `json:"expression"`
	// Cardinality is the number of times the rule may run per object:
	// the product of the maxItems/maxProperties of the enclosing nodes when
	// they are all bounded (CardinalityBounded), else upstream's estimate
	// from the request size and the node's minimum serialized size.
	Cardinality        uint64   `json:"cardinality"`
	CardinalityBounded bool     `json:"cardinalityBounded"`
	Estimate           Estimate `json:"estimate"`
	// EstimatedCost is what upstream checks and adds to the schema total:
	// max × cardinality for a rule, max for a messageExpression.
	EstimatedCost uint64  `json:"estimatedCost"`
	LimitShare    float64 `json:"limitShare"`
	// OverBudget: EstimatedCost > PerExpressionLimit.
	OverBudget bool `json:"overBudget"`
	// ContributesToTotalOverLimit: the schema total exceeds PerCRDLimit and
	// upstream names this expression among the most expensive.
	ContributesToTotalOverLimit bool   `json:"contributesToTotalOverLimit"`
	CompileError                string `json:"compileError,omitempty"`
	// Suggestions are bounds that each alone bring the expression under
	// its limit (re-estimated, not guessed).
	Suggestions []Suggestion `json:"suggestions,omitempty"`
	// SuggestionNote says why there is no suggestion for an expression
	// over its limit.
	SuggestionNote string `json:"suggestionNote,omitempty"`
	// Advice says, for an expression over its limit, which part of it or
	// of the schema makes the estimate large (each re-estimated).
	Advice []Advice `json:"advice,omitempty"`
	// RuntimeCost is the cost on each object given (sum over evaluations);
	// Evaluations counts the evaluations.
	RuntimeCost []uint64 `json:"runtimeCost,omitempty"`
	Evaluations []int    `json:"evaluations,omitempty"`

	steps  []crdvalidation.CELStep
	root   *crd.JSONSchemaProps
	schema int
}

// Suggestion is one bound that would bring an expression under its limit.
type Suggestion struct {
	// Keyword is maxItems, maxProperties or maxLength.
	Keyword string `json:"keyword"`
	// Path is the schema node to bound; DataPath where it is in objects.
	Path     string `json:"path"`
	DataPath string `json:"dataPath"`
	// Max is the largest value that fits; Current the value now (absent
	// when unbounded).
	Max     int64  `json:"max"`
	Current *int64 `json:"current,omitempty"`
	// Target is "perExpression", "perCRD" (an expression's share of the
	// schema total, the other expressions unchanged) or "schemaTotal" (the
	// total, every affected expression re-estimated).
	Target string `json:"target"`
	// EstimatedCost is the expression's cost (for "schemaTotal": the
	// schema total) with the bound at Max.
	EstimatedCost uint64 `json:"estimatedCost"`
}

// String renders "maxItems ≤ 304 on spec.items".
func (s Suggestion) String() string {
	return fmt.Sprintf("%s ≤ %d on %s", s.Keyword, s.Max, s.DataPath)
}

// SchemaTotal is the total static cost of one openAPIV3Schema.
type SchemaTotal struct {
	Schema             string  `json:"schema"`
	TotalEstimatedCost uint64  `json:"totalEstimatedCost"`
	LimitShare         float64 `json:"limitShare"`
	OverLimit          bool    `json:"overLimit"`
	// Suggestions, when OverLimit, are bounds that each alone bring the
	// total under PerCRDLimit, re-estimating every expression they affect.
	Suggestions []Suggestion `json:"suggestions,omitempty"`
	// SuggestionNote says why there is no suggestion for a total over the
	// limit.
	SuggestionNote string `json:"suggestionNote,omitempty"`

	root *crd.JSONSchemaProps
}

// ObjectCosts is the runtime cost of the rules on one object.
type ObjectCosts struct {
	Index int `json:"index"`
	// Source is where the object comes from (set by the caller, e.g. a
	// file name); Kind and Name are read from the object.
	Source  string `json:"source,omitempty"`
	Kind    string `json:"kind,omitempty"`
	Name    string `json:"name,omitempty"`
	Version string `json:"version,omitempty"`
	// TotalCost is the budget consumed (rules and messageExpressions).
	TotalCost   uint64  `json:"totalCost"`
	BudgetShare float64 `json:"budgetShare"`
	OverBudget  bool    `json:"overBudget"`
	// Errors are the CEL validation errors (failed rules, budget errors).
	Errors []string `json:"errors"`
	// Note is set when the API server would not run the rules on this
	// object (it has blocking errors); the costs are reported anyway.
	Note string `json:"note,omitempty"`
	// Error is set when the object could not be evaluated, or was skipped
	// (an object of another kind than the CRD's).
	Error string `json:"error,omitempty"`
}

// AnalyzeBytes decodes one CRD (YAML or JSON) and analyzes it; objects are
// YAML or JSON documents.
func AnalyzeBytes(crdData []byte, objects ...[]byte) (*Report, error) {
	defs, err := crd.Decode(crdData, "")
	if err != nil {
		return nil, err
	}
	if len(defs) != 1 {
		return nil, fmt.Errorf("expected exactly one CustomResourceDefinition, found %d", len(defs))
	}
	return Analyze(defs[0], objects...)
}

// Analyze builds the cost report of c (decoded with the v1 defaults, as
// crd.Decode returns it) and, for each object (YAML or JSON), the runtime
// cost of the rules on it. c is not modified. It reproduces the default
// Kubernetes release (AnalyzeWithOptions selects another).
func Analyze(c *crd.CustomResourceDefinition, objects ...[]byte) (rep *Report, err error) {
	return AnalyzeWithOptions(c, AnalyzeOptions{}, objects...)
}

// AnalyzeOptions tunes AnalyzeWithOptions.
type AnalyzeOptions struct {
	// KubeVersion is the Kubernetes release whose API server is reproduced
	// ("1.<minor>"; "" is engine.DefaultKubeVersion): its CEL
	// environments, CEL types (the metadata.name cap) and CRD checks give
	// the costs and the verdict. An unsupported release is an error.
	KubeVersion string
}

// AnalyzeWithOptions is Analyze at the release opts names.
func AnalyzeWithOptions(c *crd.CustomResourceDefinition, opts AnalyzeOptions, objects ...[]byte) (rep *Report, err error) {
	if c == nil {
		return nil, fmt.Errorf("no CustomResourceDefinition")
	}
	rel, err := kubeversion.Parse(opts.KubeVersion)
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			rep, err = nil, fmt.Errorf("crdlab: cost analysis panicked: %v", r)
		}
	}()
	rep = &Report{
		CRD:        c.Metadata.Name,
		Limits:     Limits{PerExpressionLimit, PerCRDLimit, PerCallLimit, PerObjectBudget},
		Errors:     []wire.ErrorReport{},
		CostErrors: []wire.ErrorReport{},
		Rules:      []Rule{},
		Schemas:    []SchemaTotal{},
	}
	a := &analyzer{rel: rel}
	if !rel.IsDefault() {
		a.cache = cel.NewCompileCacheAt(context.Background(), rel)
	}
	errs, _ := crdvalidation.ValidateCustomResourceDefinition(c, crdvalidation.Options{CompileCache: a.cache, Release: rel})
	rep.Accepted = len(errs) == 0
	for _, e := range errs {
		er := errorReport(e)
		rep.Errors = append(rep.Errors, er)
		if isCostError(e) {
			rep.CostErrors = append(rep.CostErrors, er)
		}
	}
	for i, s := range schemaRoots(c) {
		a.analyzeSchema(rep, i, s)
	}
	for _, st := range rep.Schemas {
		if st.TotalEstimatedCost >= rep.TotalEstimatedCost {
			rep.TotalEstimatedCost = st.TotalEstimatedCost
		}
	}
	rep.TotalLimitShare = float64(rep.TotalEstimatedCost) / PerCRDLimit
	// upstream names (at most four of) the expressions that contributed to a
	// schema total over the limit; take them from its errors.
	contributed := map[string]bool{}
	for _, e := range errs {
		if e.Type == field.ErrorTypeForbidden && strings.HasPrefix(e.Detail, "contributed to estimated rule cost total") {
			contributed[e.Field] = true
		}
	}
	for i := range rep.Rules {
		rep.Rules[i].ContributesToTotalOverLimit = contributed[rep.Rules[i].ErrorPath]
	}
	a.suggest(rep)
	a.suggestTotals(rep)
	a.advise(rep)
	rep.SuggestionsTruncated = a.truncated
	if len(objects) > 0 {
		runtimeCosts(rep, c, objects, opts.KubeVersion, a.cache)
	}
	return rep, nil
}

func errorReport(e *field.Error) wire.ErrorReport {
	return wire.ErrorReport{Type: string(e.Type), Field: e.Field, Detail: e.Detail, Message: e.Error()}
}

// isCostError recognizes the static cost errors of upstream's CRD validation.
func isCostError(e *field.Error) bool {
	return e.Type == field.ErrorTypeForbidden &&
		(strings.Contains(e.Detail, "exceeds budget by factor of") ||
			strings.Contains(e.Detail, "contributed to estimated rule cost total exceeding cost limit"))
}

// schemaRoot is one openAPIV3Schema and the path upstream validates it at.
type schemaRoot struct {
	path    string // e.g. spec.validation.openAPIV3Schema
	schema  *crd.JSONSchemaProps
	version string // "" when shared by all versions
}

// schemaRoots mirrors the v1 to internal conversion: when every version has
// the same schema it is validated once at spec.validation, otherwise each
// version's at spec.versions[i].schema.
func schemaRoots(c *crd.CustomResourceDefinition) []schemaRoot {
	vs := c.Spec.Versions
	if len(vs) == 0 {
		return nil
	}
	same := true
	first, _ := json.Marshal(vs[0].Schema)
	for _, v := range vs[1:] {
		b, _ := json.Marshal(v.Schema)
		if !bytes.Equal(b, first) {
			same = false
			break
		}
	}
	if same {
		if vs[0].Schema == nil || vs[0].Schema.OpenAPIV3Schema == nil {
			return nil
		}
		return []schemaRoot{{path: "spec.validation.openAPIV3Schema", schema: vs[0].Schema.OpenAPIV3Schema}}
	}
	var out []schemaRoot
	for i, v := range vs {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		out = append(out, schemaRoot{path: fmt.Sprintf("spec.versions[%d].schema.openAPIV3Schema", i), schema: v.Schema.OpenAPIV3Schema, version: v.Name})
	}
	return out
}
