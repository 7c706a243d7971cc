package cel

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/schema"
)

const (
	// ScopedVarName is the variable bound to the value of the schema node.
	ScopedVarName = "self"
	// OldScopedVarName is the variable bound to the old value (transition rules).
	OldScopedVarName = "oldSelf"
	// selfTypeName names the root object type of self. Upstream uses
	// "selfType<nanoseconds>" so that rules cannot depend on it; a fixed
	// name keeps our output deterministic (it only shows in compile errors).
	selfTypeName = "selfType0"
)

// ErrorType classifies a rule compilation error (apiserver/pkg/cel.ErrorType).
type ErrorType string

const (
	ErrorTypeRequired ErrorType = "RuleRequired"
	ErrorTypeInvalid  ErrorType = "RuleInvalid"
	ErrorTypeInternal ErrorType = "InternalError"
)

// Error is a compilation or evaluation error of a rule; Error() is its detail.
type Error struct {
	Type   ErrorType
	Detail string
}

func (e *Error) Error() string { return e.Detail }

// CompilationResult is the compilation result of one x-kubernetes-validations rule.
//   - Program non-nil, Error nil: compiled;
//   - Program nil, Error non-nil: compilation failed;
//   - both nil: the rule is empty.
//
// Programs compiled in NewExpressions (the CRD checks) are the placeholder
// checkedOnly, never evaluated: see checkedOnly.
type CompilationResult struct {
	Program cel.Program
	Error   *Error
	// UsesOldSelf is true when the rule references oldSelf (a transition rule).
	UsesOldSelf bool
	// MaxCost is the static worst-case cost of one evaluation.
	MaxCost uint64
	// MinCost is the static best-case cost (not kept by upstream; for cost reports).
	MinCost uint64
	// MaxCardinality is the worst-case number of evaluations per request.
	MaxCardinality uint64
	// MessageExpression is the compiled messageExpression, nil if absent or invalid.
	MessageExpression        cel.Program
	MessageExpressionError   *Error
	MessageExpressionMaxCost uint64
	// NormalizedRuleFieldPath is the rule's fieldPath in field.Path form.
	NormalizedRuleFieldPath string
}

type baseEnvEntry struct {
	once sync.Once
	env  *cel.Env
	err  error
}

var baseEnvs [2]baseEnvEntry

// olderBaseEnvs holds the base environments of releases before the newest,
// by baseEnvKey, built once each.
var olderBaseEnvs sync.Map

type baseEnvKey struct {
	kind    EnvKind
	release kubeversion.Release
}

// BaseEnv returns the shared base CEL environment of the given kind
// (upstream's MustBaseEnvSet(DefaultCompatibilityVersion())), built once.
func BaseEnv(kind EnvKind) (*cel.Env, error) {
	return BaseEnvAt(kind, kubeversion.Release{})
}

// BaseEnvAt is BaseEnv as Kubernetes release rel builds it: new
// expressions at compatibility version rel-1, stored expressions with
// every library rel knows.
func BaseEnvAt(kind EnvKind, rel kubeversion.Release) (*cel.Env, error) {
	e := &baseEnvs[kind]
	if !rel.IsDefault() {
		v, _ := olderBaseEnvs.LoadOrStore(baseEnvKey{kind, rel}, &baseEnvEntry{})
		e = v.(*baseEnvEntry)
	}
	e.once.Do(func() {
		e.env, e.err = cel.NewEnv(baseEnvOptions(kind, rel)...)
	})
	return e.env, e.err
}

// ruleEnvs holds the environments of one schema node: self and oldSelf of
// the node's type, and self with an optional oldSelf.
//
// The optional-oldSelf environment is built on first use: only rules with
// optionalOldSelf: true need it, and each base.Extend allocates ~24 KB
// (~150 allocations, CronTab's spec; a CRD create builds the environments
// of both kinds for every node with rules). Both environments are extended from the
// same base with the same options but oldSelf's type, so building the
// second later cannot fail where building it at once would not have.
type ruleEnvs struct {
	oldSelf         *cel.Env
	optionalOldSelf func() (*cel.Env, error)
}

func prepareEnvs(declType *DeclType, kind EnvKind, rel kubeversion.Release) (*ruleEnvs, error) {
	base, err := BaseEnvAt(kind, rel)
	if err != nil {
		return nil, err
	}
	scoped := declType.MaybeAssignTypeName(selfTypeName)
	provider := newDeclTypeProvider(base.CELTypeProvider(), scoped)
	// new expressions compile at compatibility version rel-1, stored ones
	// at rel: keywords select fields from compatibility version 1.31
	provider.keywordsNotFields = kind == NewExpressions && !rel.Has(kubeversion.KeywordFieldNames)
	opts := func(old *cel.Type) []cel.EnvOption {
		return []cel.EnvOption{
			cel.Variable(ScopedVarName, scoped.CelType()),
			cel.Variable(OldScopedVarName, old),
			cel.CustomTypeProvider(provider),
			cel.CustomTypeAdapter(provider),
		}
	}
	e1, err := base.Extend(opts(scoped.CelType())...)
	if err != nil {
		return nil, err
	}
	e2 := sync.OnceValues(func() (*cel.Env, error) {
		return base.Extend(opts(types.NewOptionalType(scoped.CelType()))...)
	})
	return &ruleEnvs{oldSelf: e1, optionalOldSelf: e2}, nil
}

// Compile compiles the x-kubernetes-validations rules of s (not recursing
// into its children) against declType, the DeclType of s, as upstream's
// schema/cel.Compile does. perCallLimit is the runtime cost limit of each
// program (limits.PerCallLimit outside tests). It uses the StoredExpressions
// environment, as upstream's NewValidator does.
func Compile(s *schema.Structural, declType *DeclType, perCallLimit uint64) ([]CompilationResult, error) {
	return CompileWith(s, declType, perCallLimit, StoredExpressions)
}

// CompileWith is Compile in the environment of the given kind (CRD
// validation on create compiles in NewExpressions).
func CompileWith(s *schema.Structural, declType *DeclType, perCallLimit uint64, kind EnvKind) ([]CompilationResult, error) {
	return (*CompileCache)(nil).Compile(s, declType, perCallLimit, kind)
}

// Compile is CompileWith through the cache c: the results of rules already
// compiled through c against an equal type are reused. A nil c compiles
// every rule.
func (c *CompileCache) Compile(s *schema.Structural, declType *DeclType, perCallLimit uint64, kind EnvKind) ([]CompilationResult, error) {
	return c.CompileWithLoader(s, declType, perCallLimit, func(string, bool) EnvKind { return kind })
}

// EnvLoader chooses the environment of one expression, as upstream's
// schema/cel.EnvLoader (RuleEnv, MessageExpressionEnv): message is true for
// a messageExpression. CRD update validation compiles the expressions that
// already exist in the old CRD in StoredExpressions and the others in
// NewExpressions.
type EnvLoader func(expression string, message bool) EnvKind

// CompileWithLoader is Compile with the environment of each rule and
// messageExpression chosen by load.
func (c *CompileCache) CompileWithLoader(s *schema.Structural, declType *DeclType, perCallLimit uint64, load EnvLoader) ([]CompilationResult, error) {
	if len(s.XValidations) == 0 {
		return nil, nil
	}
	if declType == nil {
		return nil, errors.New("failed to convert to declType for CEL validation rules")
	}
	if c != nil {
		return c.compile(s, declType, perCallLimit, load)
	}
	envs := map[EnvKind]*ruleEnvs{}
	estimator := newCostEstimator(declType, kubeversion.Release{})
	results := make([]CompilationResult, len(s.XValidations))
	maxCard := maxCardinality(declType.MinSerializedSize)
	for i, rule := range s.XValidations {
		rk, mk := load(rule.Rule, false), load(rule.MessageExpression, true)
		for _, k := range []EnvKind{rk, mk} {
			if envs[k] == nil {
				e, err := prepareEnvs(declType, k, kubeversion.Release{})
				if err != nil {
					return nil, err
				}
				envs[k] = e
			}
		}
		opt := rule.OptionalOldSelf != nil && *rule.OptionalOldSelf
		env, messageEnv, err := pickEnvs(envs[rk], envs[mk], opt)
		if err != nil {
			return nil, err
		}
		results[i] = compileRule(s, rule, env, messageEnv, rk, mk, estimator, maxCard, perCallLimit, kubeversion.Release{})
	}
	return results, nil
}

// pick returns the environment whose oldSelf is optional when opt is set.
func (e *ruleEnvs) pick(opt bool) (*cel.Env, error) {
	if opt {
		return e.optionalOldSelf()
	}
	return e.oldSelf, nil
}

// pickEnvs picks the rule's and the messageExpression's environments.
func pickEnvs(rule, message *ruleEnvs, opt bool) (*cel.Env, *cel.Env, error) {
	env, err := rule.pick(opt)
	if err != nil {
		return nil, nil, err
	}
	messageEnv, err := message.pick(opt)
	if err != nil {
		return nil, nil, err
	}
	return env, messageEnv, nil
}

// sharedProgramOptions are the base environment's program options, built
// once: they are immutable (option functions over constant settings and the
// schema-independent cost estimator), and building them per rule allocated
// the whole library option set each time (3 KB per program).
var sharedProgramOptions = sync.OnceValue(baseProgramOptions)

func programOptions(estimator *costEstimator, perCallLimit uint64) []cel.ProgramOption {
	base := sharedProgramOptions()
	opts := make([]cel.ProgramOption, 0, len(base)+3)
	opts = append(opts, base...)
	return append(opts,
		cel.CostLimit(perCallLimit),
		cel.CostTracking(estimator),
		cel.InterruptCheckFrequency(limits.CheckFrequency),
	)
}

// checkedOnly stands for a program compiled in the NewExpressions
// environment. Upstream compiles new expressions in that environment only to
// check a CRD (errors and estimated costs) and evaluates rules only in
// StoredExpressions (NewValidator), so such a program is built, which
// reports its instantiation errors as upstream does, and then dropped: each
// holds a copy of the environment's function table (13 KB), and a CRD
// compile otherwise kept one per rule alive until its end, next to the
// serving validators' own. It is non-nil, as a compiled program is; it is
// never evaluated (evaluating it returns an error).
var checkedOnly cel.Program = checkedOnlyProgram{}

type checkedOnlyProgram struct{}

var errCheckedOnly = errors.New("internal error: a rule compiled in the NewExpressions environment is not evaluated")

func (checkedOnlyProgram) Eval(any) (ref.Val, *cel.EvalDetails, error) {
	return nil, nil, errCheckedOnly
}

func (checkedOnlyProgram) ContextEval(context.Context, any) (ref.Val, *cel.EvalDetails, error) {
	return nil, nil, errCheckedOnly
}

// kept is prog, or checkedOnly when it was compiled in NewExpressions.
func kept(prog cel.Program, kind EnvKind) cel.Program {
	if kind == NewExpressions {
		return checkedOnly
	}
	return prog
}

// compileRule compiles rule in env and its messageExpression in messageEnv,
// of kinds kind and messageKind.
func compileRule(s *schema.Structural, rule crd.ValidationRule, env, messageEnv *cel.Env, kind, messageKind EnvKind, estimator *costEstimator, maxCard, perCallLimit uint64, rel kubeversion.Release) (r CompilationResult) {
	if len(strings.TrimSpace(rule.Rule)) == 0 {
		return
	}
	ast, issues := env.Compile(rule.Rule)
	if issues != nil {
		r.Error = &Error{Type: ErrorTypeInvalid, Detail: "compilation failed: " + issuesText(rule.Rule, issues, env, rel)}
		return
	}
	if ast.OutputType() != cel.BoolType {
		r.Error = &Error{Type: ErrorTypeInvalid, Detail: "cel expression must evaluate to a bool"}
		return
	}
	for _, ref := range ast.NativeRep().ReferenceMap() {
		if ref.Name == OldScopedVarName {
			r.UsesOldSelf = true
			break
		}
	}
	prog, err := env.Program(ast, programOptions(estimator, perCallLimit)...)
	if err != nil {
		r.Error = &Error{Type: ErrorTypeInvalid, Detail: "program instantiation failed: " + err.Error()}
		return
	}
	est, err := estimateCost(env, ast, estimator)
	if err != nil {
		r.Error = &Error{Type: ErrorTypeInternal, Detail: "cost estimation failed: " + err.Error()}
		return
	}
	r.MaxCost = est.Max
	r.MinCost = est.Min
	r.MaxCardinality = maxCard
	r.Program = kept(prog, kind)
	if rule.MessageExpression != "" {
		mast, issues := messageEnv.Compile(rule.MessageExpression)
		if issues != nil {
			r.MessageExpressionError = &Error{Type: ErrorTypeInvalid, Detail: "messageExpression compilation failed: " + issuesText(rule.MessageExpression, issues, messageEnv, rel)}
			return
		}
		if mast.OutputType() != cel.StringType {
			r.MessageExpressionError = &Error{Type: ErrorTypeInvalid, Detail: "messageExpression must evaluate to a string"}
			return
		}
		mprog, err := messageEnv.Program(mast, programOptions(estimator, perCallLimit)...)
		if err != nil {
			r.MessageExpressionError = &Error{Type: ErrorTypeInvalid, Detail: "messageExpression instantiation failed: " + err.Error()}
			return
		}
		mest, err := estimateCost(messageEnv, mast, estimator)
		if err != nil {
			r.MessageExpressionError = &Error{Type: ErrorTypeInternal, Detail: "cost estimation failed for messageExpression: " + err.Error()}
			return
		}
		r.MessageExpression = kept(mprog, messageKind)
		r.MessageExpressionMaxCost = mest.Max
	}
	if rule.FieldPath != "" {
		if p, _, err := ValidFieldPath(rule.FieldPath, s); err == nil {
			r.NormalizedRuleFieldPath = p.String()
		}
	}
	return
}

// sizeEstimator estimates the size of values reachable from self by walking
// the DeclType along the checker's path (upstream's sizeEstimator).
type sizeEstimator struct{ root *DeclType }

func (c *sizeEstimator) EstimateSize(element checker.AstNode) *checker.SizeEstimate {
	path := element.Path()
	if len(path) == 0 {
		return nil
	}
	cur := c.root
	for _, name := range path[1:] {
		switch name {
		case "@items", "@values":
			if cur.ElemType == nil {
				return nil
			}
			cur = cur.ElemType
		case "@keys":
			if cur.KeyType == nil {
				return nil
			}
			cur = cur.KeyType
		default:
			f, ok := cur.Fields[name]
			if !ok || f.Type == nil {
				return nil
			}
			cur = f.Type
		}
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(cur.MaxElements)}
}

// maxCardinality is the worst-case number of times data of the given minimum
// serialized size fits in a request.
func maxCardinality(minSize int64) uint64 {
	return uint64(limits.MaxRequestSizeBytes / (minSize + 1))
}

// EstimateCallCost has no schema-specific call costs.
func (c *sizeEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	return nil
}
