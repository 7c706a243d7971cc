package library

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"

	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/limits"
)

// DefaultCompatibilityMinor is the minor version of
// environment.DefaultCompatibilityVersion() in apiserver v0.37.2: the binary
// version is 1.37 and its minimum compatibility version is 1.36.
const DefaultCompatibilityMinor = 36

// storedMinor is the version of upstream's StoredExpressions environment
// at the default release: the binary's own version (upstream builds it at
// MaxUint.MaxUint, i.e. every option the binary declares and has not
// removed, which are those of its release).
const storedMinor = uint(kubeversion.Default)

// versioned is environment.VersionedOptions (major version 1 implied).
type versioned struct {
	introduced uint // minor version
	removed    uint // minor version, 0 = never
	env        func() []cel.EnvOption
	prog       func() []cel.ProgramOption
}

// baseOptions mirrors environment/base.go's baseOpts (v0.38.0-beta.0), in
// order (its entries for options the cel-go crdlab links already has as
// defaults, such as CostModelVersion(0), are left out: see RATIONALE.md).
var baseOptions = []versioned{
	{introduced: 0, env: func() []cel.EnvOption {
		return []cel.EnvOption{
			cel.HomogeneousAggregateLiterals(),
			cel.EagerlyValidateDeclarations(true),
			cel.DefaultUTCTimeZone(true),
			URLs(),
			Regex(),
			// has() costs 0, as before cel-go v0.17.7
			cel.CostEstimatorOptions(checker.PresenceTestHasCost(false)),
		}
	}, prog: func() []cel.ProgramOption {
		return []cel.ProgramOption{
			cel.EvalOptions(cel.OptOptimize, cel.OptTrackCost),
			cel.CostLimit(limits.PerCallLimit),
			cel.CostTrackerOptions(interpreter.PresenceTestHasCost(false)),
		}
	}},
	{introduced: 0, removed: 37, env: func() []cel.EnvOption { return []cel.EnvOption{Lists(0)} }},
	{introduced: 27, env: func() []cel.EnvOption { return []cel.EnvOption{Authz()} }},
	{introduced: 28, env: func() []cel.EnvOption {
		return []cel.EnvOption{cel.CrossTypeNumericComparisons(true), cel.OptionalTypes(), QuantityLib()}
	}},
	{introduced: 29, env: func() []cel.EnvOption {
		return []cel.EnvOption{cel.ASTValidators(
			cel.ValidateDurationLiterals(),
			cel.ValidateTimestampLiterals(),
			cel.ValidateRegexLiterals(),
			cel.ValidateHomogeneousAggregateLiterals(),
		)}
	}},
	{introduced: 0, removed: 29, env: func() []cel.EnvOption { return []cel.EnvOption{ext.Strings(ext.StringsVersion(0))} }},
	{introduced: 29, env: func() []cel.EnvOption { return []cel.EnvOption{ext.Strings(ext.StringsVersion(2))} }},
	{introduced: 29, env: func() []cel.EnvOption { return []cel.EnvOption{ext.Sets()} }},
	{introduced: 30, env: func() []cel.EnvOption { return []cel.EnvOption{IPLib()} }},
	{introduced: 30, removed: 38, env: func() []cel.EnvOption { return []cel.EnvOption{CIDRLib(0)} }},
	{introduced: 31, env: func() []cel.EnvOption { return []cel.EnvOption{FormatLib()} }},
	{introduced: 31, env: func() []cel.EnvOption { return []cel.EnvOption{AuthzSelectors()} }},
	{introduced: 32, env: func() []cel.EnvOption { return []cel.EnvOption{ext.TwoVarComprehensions()} }},
	{introduced: 33, env: func() []cel.EnvOption { return []cel.EnvOption{SemverLib(1)} }},
	{introduced: 34, env: func() []cel.EnvOption { return []cel.EnvOption{ext.Lists(ext.ListsVersion(3))} }},
	{introduced: 37, env: func() []cel.EnvOption { return []cel.EnvOption{Lists(1)} }},
	// CIDR library version 1 (isMask): stored expressions from 1.38, new
	// ones from 1.39 (k8s.io/apiserver v0.38 cel/environment/base.go).
	{introduced: 38, env: func() []cel.EnvOption { return []cel.EnvOption{CIDRLib(1)} }},
	// StrictCostOpt: runtime costs of the extended libraries
	{introduced: 0, prog: func() []cel.ProgramOption {
		return []cel.ProgramOption{cel.CostTracking(&CostEstimator{})}
	}},
	// Not upstream: the cost guards (guard.go) check, before a call runs,
	// that its charge does not exceed the per-call limit. They follow every
	// library they re-bind; results and costs under the limit are unchanged.
	{introduced: 0, env: func() []cel.EnvOption { return []cel.EnvOption{stringGuards()} }, prog: costGuardProgramOptions},
	// Not upstream's table: before golang.org/x/text v0.23 (Kubernetes
	// 1.32 and older), string.format's %e has spaces around its "×"
	// (scientific.go). A property of the binary: keyed by the
	// StoredExpressions environment's version, which is the release's (the
	// NewExpressions environment, one version lower, only type-checks).
	{introduced: 0, removed: uint(kubeversion.Since(kubeversion.ScientificWithoutSpaces)), env: func() []cel.EnvOption {
		return []cel.EnvOption{scientificSpaces()}
	}},
}

// optionsAt returns the env and program options enabled at compatibility
// version 1.<minor>, as environment.filterAndBuildOpts selects them.
func optionsAt(minor uint) ([]cel.EnvOption, []cel.ProgramOption) {
	var env []cel.EnvOption
	var prog []cel.ProgramOption
	for _, o := range baseOptions {
		if minor < o.introduced || (o.removed != 0 && minor >= o.removed) {
			continue
		}
		if o.env != nil {
			env = append(env, o.env()...)
		}
		if o.prog != nil {
			prog = append(prog, o.prog()...)
		}
	}
	return env, prog
}

// OptionsMask names the set of options enabled at compatibility version
// 1.<minor>: bit i is the i-th entry of the base options table. Two
// versions with the same mask build the same environment.
func OptionsMask(minor uint) uint64 {
	var m uint64
	for i, o := range baseOptions {
		if minor < o.introduced || (o.removed != 0 && minor >= o.removed) {
			continue
		}
		m |= 1 << uint(i)
	}
	return m
}

// EnvOptions returns the options upstream's base environment adds (on top of
// cel.NewEnv's standard library) for new expressions at compatibility version
// 1.36, in upstream's order. Program options are not included: pass
// ProgramOptions() to Program, or use BaseLib, which carries both as upstream's
// EnvSet does.
func EnvOptions() []cel.EnvOption {
	env, _ := optionsAt(DefaultCompatibilityMinor)
	return env
}

// EnvOptionsAt is EnvOptions at compatibility version 1.<minor>.
func EnvOptionsAt(minor uint) []cel.EnvOption {
	env, _ := optionsAt(minor)
	return env
}

// StoredEnvOptions returns the options of upstream's StoredExpressions base
// environment (every option introduced and not removed, i.e. including the
// 1.37 lists library version 1 with includes).
func StoredEnvOptions() []cel.EnvOption {
	env, _ := optionsAt(storedMinor)
	return env
}

// ProgramOptions returns the program options of the base environment:
// EvalOptions(OptOptimize, OptTrackCost), CostLimit(1,000,000),
// CostTrackerOptions(PresenceTestHasCost(false)) and
// CostTracking(&CostEstimator{}). They are the same at every version.
func ProgramOptions() []cel.ProgramOption {
	_, prog := optionsAt(DefaultCompatibilityMinor)
	return prog
}

// baseLoader is environment.envLoader: one library carrying both lists.
type baseLoader struct {
	env  []cel.EnvOption
	prog []cel.ProgramOption
}

func (b *baseLoader) CompileOptions() []cel.EnvOption     { return b.env }
func (b *baseLoader) ProgramOptions() []cel.ProgramOption { return b.prog }

// BaseLib returns the base environment at compatibility 1.36 as a single
// option that also attaches the program options to every Program, exactly as
// upstream's EnvSet extends cel.NewEnv().
func BaseLib() cel.EnvOption {
	env, prog := optionsAt(DefaultCompatibilityMinor)
	return cel.Lib(&baseLoader{env: env, prog: prog})
}

// StoredBaseLib is BaseLib for the StoredExpressions environment.
func StoredBaseLib() cel.EnvOption {
	env, prog := optionsAt(storedMinor)
	return cel.Lib(&baseLoader{env: env, prog: prog})
}
