// Package cel evaluates the x-kubernetes-validations (CEL) rules of custom
// resources exactly as kube-apiserver 1.37 does, and compiles them for CRD
// validation.
//
// It mirrors, without importing them:
//   - k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel (compilation.go,
//     validation.go, values.go, maplist.go, model/): Compile, Validator,
//     ValidFieldPath (fieldpath.go), MapIsCorrelatable;
//   - k8s.io/apiserver/pkg/cel (types.go, escaping.go, limits.go) and
//     pkg/cel/common (schemas.go, valuesunstructured.go, maplist.go,
//     equality.go): DeclType and SchemaDeclType with upstream's MaxElements and
//     MinSerializedSize estimates (they drive static costs), Escape/Unescape,
//     UnstructuredToVal (lazy CEL values over decoded JSON with set/map-list
//     equality and "+"), MakeMapList and CorrelatedObject (ratcheting);
//   - the environment of pkg/cel/environment (through internal/cel/library):
//     StoredExpressions for evaluating persisted rules, NewExpressions at
//     compatibility version 1.36 for CRD create.
//
// Entry points:
//
//	// Per CRD version, once (immutable, safe for concurrent use; nil when the
//	// schema has no rules):
//	v := cel.NewValidator(structural, true, limits.PerCallLimit)
//	// Per create request:
//	errs, remaining, report := v.Validate(nil, obj, nil, limits.RuntimeCELCostBudget)
//	// Per update (and status update) request, with ratcheting as upstream:
//	errs, remaining, report = v.Validate(nil, obj, old, limits.RuntimeCELCostBudget,
//		cel.WithRatcheting(cel.NewCorrelatedObject(obj, old, structural)))
//	// report.Warnings: errors suppressed by ratcheting (upstream sends them as
//	// warnings); report.Costs: runtime cost of every rule evaluation.
//
//	// Compiling a CRD: one cache for the CRD checks, the default checks and
//	// the serving validators, dropped afterwards (engine.CompileCRD):
//	cache := cel.NewCompileCache()
//	v = cel.NewValidatorWithCache(structural, true, limits.PerCallLimit, cache)
//
// Dependencies run as upstream's: this package imports neither CRD
// validation nor defaulting. internal/crdvalidation compiles the rules of
// each schema node through it (its cel.go is upstream's
// cel_validation.go, CompileRules) and resolves selectable-field and rule
// fieldPaths with ValidFieldPath; internal/defaulting checks default values
// against the rules with NewValidatorWithCache.
//
// Limits are upstream's, declared in internal/limits: limits.PerCallLimit
// (1,000,000 per evaluation) and limits.RuntimeCELCostBudget (10,000,000 per
// object) are re-exported here; StaticEstimatedCostLimit and
// StaticEstimatedCRDCostLimit are checked by internal/crdvalidation.
// Where the costs are: the static estimate of a rule is compileRule's
// (compilation.go) with the estimator of library_hook.go (newCostEstimator);
// internal/crdvalidation checks it per rule (cel.go, celRuleErrors) and sums
// the per-CRD total; the runtime budget is spent in Validator.Validate
// (evaluate.go), called by package engine with limits.RuntimeCELCostBudget
// and by internal/defaulting. The ratcheting decision is validateExpressions'
// (evaluate.go): on an update, a rule without oldSelf whose value equals
// the old one reports its failure as a warning.
//
// Compile errors: a rule's compile issues are written as the release's
// cel-go writes them (issuesText, suggest.go): from 1.38, without the empty
// container and with cel.dev/cel-go v0.33's "did you mean" suggestion,
// which suggest.go computes from the compiling environment's names
// (kubeversion.UndeclaredSuggestions; RATIONALE.md).
//
// State: the one package-level mutable value of the internal/ packages is
// here, olderBaseEnvs (compilation.go), the base environments of releases
// before the newest, built once each on first use (RATIONALE.md); compile
// caches are per compile.
//
// Memory: a CRD compile builds every rule's program twice, for the CRD
// checks (NewExpressions) and for the serving validators
// (StoredExpressions); the former are dropped as soon as they are built
// (CompilationResult holds the placeholder checkedOnly): upstream never
// evaluates them. What a serving program keeps (about 16 KB for a trivial
// rule) is cel-go's: mostly its own copy of the environment's function
// table (interpreter.NewDispatcher in cel.newProgram, 13 KB, and a third
// of a compile's CPU), which cel-go shares between programs since
// cel-expr/cel-go#1399 (merged August 2026, not in v0.29.2).
//
// Performance: rules are compiled once per Validator; per evaluation the
// Validator reuses the resource-root schema, skips cel-go's context plumbing
// when the context cannot be cancelled and renders paths only for cost
// records (conformance/cel_bench_test.go compares with upstream). Rules that
// run long comprehensions are dominated by cel-go's runtime cost tracker,
// whose bookkeeping stack is scanned linearly on every attribute access; that
// cost is the same upstream and cannot be avoided without changing cel-go.
// Fuzz targets: FuzzCompileRule and FuzzEvaluate (fuzz_test.go),
// FuzzUndeclaredSuggestions (suggest_test.go).
//
// Known differences from upstream: the root object type is named "selfType0"
// instead of "selfType<nanoseconds>" (visible only in compile errors), and
// map entries are visited in sorted key order where upstream's order is
// random, so error lists are deterministic.
package cel
