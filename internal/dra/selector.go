package dra

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	kcel "github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/cel/library"
	"github.com/crdlab/crdlab/internal/keys"
)

// CompileError is a selector's compile error: upstream's apiservercel.Error
// (Type Invalid for compile, type and output-type errors, Internal for
// environment failures) with its Detail text.
type CompileError = kcel.Error

// Selector is a compiled selector expression (upstream's
// CompilationResult without an error).
type Selector struct {
	// Expression is the selector's source.
	Expression string
	// OutputType is the checked type of the expression (bool, or the
	// attribute type).
	OutputType *cel.Type
	// MaxCost is the static worst-case cost estimate.
	MaxCost uint64

	env   *Env
	prog  cel.Program
	empty ref.Val
}

// Compile compiles expr as upstream's CompileCELExpression does in this
// environment: compile and type errors ("compilation failed: …"), the
// output type ("must evaluate to bool or the unknown type, not …"), the
// program with the cost limit of 1,000,000, and the estimated cost. It
// does not check the length or the estimated cost against the limit: the
// validation does (Validate).
func (e *Env) Compile(expr string) (*Selector, *CompileError) {
	ast, issues := e.env.Compile(expr)
	if issues != nil && issues.Err() != nil {
		return nil, &CompileError{Type: kcel.ErrorTypeInvalid, Detail: "compilation failed: " + kcel.IssuesText(expr, issues, e.env, e.rel)}
	}
	out := ast.OutputType()
	if !e.acceptsOutput(out) {
		return nil, &CompileError{Type: kcel.ErrorTypeInvalid, Detail: fmt.Sprintf("must evaluate to %v or the unknown type, not %v", cel.BoolType.String(), out.String())}
	}
	runtime := kcel.CostEstimatorAt(nil, e.rel)
	opts := kcel.ProgramOptionsAt(runtime, MaxCost)
	if e.rel.Minor() == 36 {
		// 1.36's library does not price includes at runtime: a call
		// costs 1, whatever its list.
		opts = append(opts, cel.CostTracking(unpricedIncludes{runtime}))
	}
	prog, err := e.env.Program(ast, opts...)
	if err != nil {
		return nil, &CompileError{Type: kcel.ErrorTypeInternal, Detail: "program instantiation failed: " + err.Error()}
	}
	s := &Selector{Expression: expr, OutputType: out, MaxCost: math.MaxUint64, env: e, prog: prog,
		empty: e.env.CELTypeAdapter().NativeToValue(map[string]any{})}
	base := kcel.CostEstimatorAt(&sizeEstimator{device: e.device, attr: e.attr}, e.rel)
	var est checker.CostEstimate
	if e.rel.Minor() == 36 {
		// 1.36 (cel-go v0.26: dyn sizes propagate) prices its own includes.
		est, err = e.env.EstimateCost(ast, includesEstimator{base})
	} else {
		est, err = kcel.EstimateCostAt(e.env, ast, base)
	}
	if err != nil {
		return nil, &CompileError{Type: kcel.ErrorTypeInternal, Detail: "cost estimation failed: " + err.Error()}
	}
	s.MaxCost = est.Max
	return s, nil
}

// acceptsOutput is upstream's output-type check: from 1.37 bool or exactly
// the environment's attribute type (any, or dyn where attributes are
// list-typed); before, bool, any, or dyn when DRAListTypeAttributes is on.
func (e *Env) acceptsOutput(t *cel.Type) bool {
	if t.IsExactType(cel.BoolType) {
		return true
	}
	if e.rel.Minor() >= 37 {
		return t.IsExactType(e.attr.CelType())
	}
	return t.IsExactType(cel.AnyType) || e.features.ListTypeAttributes && t.IsExactType(cel.DynType)
}

// Attribute is one device attribute: exactly one of its fields is set
// (k8s.io/api's DeviceAttribute; the list forms are DRAListTypeAttributes').
type Attribute struct {
	Int      *int64
	Bool     *bool
	String   *string
	Version  *string
	Ints     []int64
	Bools    []bool
	Strings  []string
	Versions []string
}

// Device is the input of a selector (upstream's cel.Device): attribute and
// capacity names are qualified names, "domain/id" or "id" (then the
// driver's name is the domain).
type Device struct {
	Driver                   string
	AllowMultipleAllocations *bool
	Attributes               map[string]Attribute
	// Capacity holds each capacity's value as a quantity string.
	Capacity map[string]string
}

// value is upstream's getAttributeValue: the list forms first, then the
// scalars; a version that is not strict semver is an error.
func (a Attribute) value() (any, error) {
	switch {
	case a.Ints != nil:
		return a.Ints, nil
	case a.Bools != nil:
		return a.Bools, nil
	case a.Strings != nil:
		return a.Strings, nil
	case a.Versions != nil:
		out := make([]library.Semver, len(a.Versions))
		for i, s := range a.Versions {
			v, err := library.ParseSemver(s)
			if err != nil {
				return nil, fmt.Errorf("parse semantic version: %w", err)
			}
			out[i] = library.Semver{Version: v}
		}
		return out, nil
	case a.Int != nil:
		return *a.Int, nil
	case a.Bool != nil:
		return *a.Bool, nil
	case a.String != nil:
		return *a.String, nil
	case a.Version != nil:
		v, err := library.ParseSemver(*a.Version)
		if err != nil {
			return nil, fmt.Errorf("parse semantic version: %w", err)
		}
		return library.Semver{Version: v}, nil
	}
	return nil, errors.New("unsupported attribute value")
}

// splitName is upstream's parseQualifiedName.
func splitName(name, driver string) (domain, id string) {
	if i := strings.Index(name, "/"); i >= 0 {
		return name[:i], name[i+1:]
	}
	return driver, name
}

// Result is one evaluation of a selector against a device.
type Result struct {
	// Matches is the selector's answer (false on an error).
	Matches bool
	// Err is the runtime error, with upstream's text (EnhanceRuntimeError's
	// guidance from 1.37 included when the error is a missing key).
	Err error
	// Cost is the actual cost of the evaluation (nil when it did not run).
	Cost *uint64
}

var boolType = reflect.TypeOf(true)

// Matches evaluates the selector against d as upstream's DeviceMatches (and
// the allocator's error enhancement at the selector's release).
func (s *Selector) Matches(ctx context.Context, d Device) Result {
	attrs := map[string]any{}
	names := keys.Sorted(d.Attributes)
	for _, name := range names {
		v, err := d.Attributes[name].value()
		if err != nil {
			return Result{Err: fmt.Errorf("attribute %s: %w", name, err)}
		}
		domain, id := splitName(name, d.Driver)
		if attrs[domain] == nil {
			attrs[domain] = map[string]any{}
		}
		attrs[domain].(map[string]any)[id] = v
	}
	adapter := s.env.env.CELTypeAdapter()
	outer := map[string]any{}
	for domain, m := range attrs {
		outer[domain] = newSortedMap(adapter, m.(map[string]any))
	}
	capacity := map[string]map[string]any{}
	for _, name := range keys.Sorted(d.Capacity) {
		q, err := library.ParseQuantity(d.Capacity[name])
		if err != nil {
			return Result{Err: fmt.Errorf("capacity %s: %w", name, err)}
		}
		domain, id := splitName(name, d.Driver)
		if capacity[domain] == nil {
			capacity[domain] = map[string]any{}
		}
		capacity[domain][id] = library.Quantity{ResourceQuantity: &q}
	}
	capOuter := map[string]any{}
	for domain, m := range capacity {
		capOuter[domain] = newSortedMap(adapter, m)
	}
	multi := false
	if d.AllowMultipleAllocations != nil {
		multi = *d.AllowMultipleAllocations
	}
	vars := map[string]any{deviceVar: map[string]any{
		driverVar:     d.Driver,
		multiVar:      multi,
		attributesVar: defaultMap{sortedMap: newSortedMap(adapter, outer), empty: s.empty},
		capacityVar:   defaultMap{sortedMap: newSortedMap(adapter, capOuter), empty: s.empty},
	}}
	val, details, err := s.prog.ContextEval(ctx, vars)
	var cost *uint64
	if details != nil {
		cost = details.ActualCost()
	}
	if err != nil {
		if strings.Contains(err.Error(), "operation interrupted") && ctx.Err() != nil {
			err = fmt.Errorf("%w: %w", err, context.Cause(ctx))
		}
		return Result{Err: s.enhance(err), Cost: cost}
	}
	native, err := val.ConvertToNative(boolType)
	if err != nil {
		return Result{Err: fmt.Errorf("CEL result of type %s could not be converted to bool: %w", val.Type().TypeName(), err), Cost: cost}
	}
	b, ok := native.(bool)
	if !ok {
		return Result{Err: fmt.Errorf("CEL native result value should have been a bool, got instead: %T", native), Cost: cost}
	}
	return Result{Matches: b, Cost: cost}
}

// enhance is upstream's EnhanceRuntimeError, which the allocator applies
// from 1.37: a missing key gets guidance.
func (s *Selector) enhance(err error) error {
	if s.env.rel.Minor() < 37 || !strings.Contains(err.Error(), "no such key:") {
		return err
	}
	return fmt.Errorf("%w. consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() for optional fields", err)
}

// defaultMap is upstream's mapper: a lookup of a missing domain finds an
// empty map, so device.attributes["other.example.com"].x fails on x.
type defaultMap struct {
	sortedMap
	empty ref.Val
}

func (m defaultMap) Find(key ref.Val) (ref.Val, bool) {
	if v, ok := m.Mapper.Find(key); ok {
		return v, true
	}
	return m.empty, true
}

// sortedMap is a CEL map of string keys whose iteration visits the keys in
// sorted order. Upstream's maps (types.NewStringInterfaceMap over Go maps)
// iterate in Go's random order, so a comprehension that stops early
// (exists, all) costs differently from run to run there; crdlab's cost is
// the one of the sorted order, one of upstream's possible costs.
type sortedMap struct {
	traits.Mapper
	keys []string
}

func newSortedMap(adapter types.Adapter, m map[string]any) sortedMap {
	return sortedMap{Mapper: types.NewStringInterfaceMap(adapter, m), keys: keys.Sorted(m)}
}

func (m sortedMap) Iterator() traits.Iterator {
	return &keyIterator{keys: m.keys}
}

type keyIterator struct {
	types.Null
	keys []string
	i    int
}

func (it *keyIterator) HasNext() ref.Val { return types.Bool(it.i < len(it.keys)) }

func (it *keyIterator) Next() ref.Val {
	if it.i >= len(it.keys) {
		return nil
	}
	it.i++
	return types.String(it.keys[it.i-1])
}
