package cel

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/limits"
)

// compileAt compiles rule on the spec of a small schema as release minor
// compiles a new rule (NewExpressions) or a stored one.
func compileAt(t *testing.T, minor int, kind EnvKind, rule string) CompilationResult {
	t.Helper()
	s := mustSchema(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"n":{"type":"integer"},
		"u":{"type":"string","maxLength":300},
		"if":{"type":"string","maxLength":5},
		"namespace":{"type":"string","maxLength":5}}}}}`)
	spec := s.Properties["spec"]
	spec.XValidations = crd.ValidationRules{{Rule: rule}}
	dt := SchemaDeclType(s, true).Fields["spec"].Type
	res, err := NewCompileCacheAt(context.Background(), kubeversion.Of(minor)).Compile(&spec, dt, limits.PerCallLimit, kind)
	if err != nil {
		t.Fatal(err)
	}
	return res[0]
}

// The static estimates that changed with cel-go v0.23 (Kubernetes 1.33,
// kubeversion.DynSizePropagation) and with Kubernetes 1.32's url() result
// size (kubeversion.URLResultSize): before, the size is unknown and the
// estimate the largest.
func TestCostEstimateSizesByRelease(t *testing.T) {
	unknown := uint64(math.MaxUint64)
	for _, tc := range []struct {
		rule  string
		minor int
		huge  bool
	}{
		{"dyn([1, 2]).sum() > 0", 31, true},
		{"dyn([1, 2]).sum() > 0", 32, true},
		{"dyn([1, 2]).sum() > 0", 33, false},
		{"[1, 2].sum() > 0", 32, false},
		{"self.?n == optional.of(1)", 32, true},
		{"self.?n == optional.of(1)", 33, false},
		{"self.?n.orValue(0) == 1", 32, false},
		{"url(self.u) == url('https://example.com')", 31, true},
		{"url(self.u) == url('https://example.com')", 32, false},
	} {
		r := compileAt(t, tc.minor, NewExpressions, tc.rule)
		if r.Error != nil {
			t.Fatalf("%s at 1.%d: %v", tc.rule, tc.minor, r.Error)
		}
		if got := r.MaxCost >= unknown/100; got != tc.huge {
			t.Errorf("%s at 1.%d: MaxCost %d, want unknown-sized (the largest): %v", tc.rule, tc.minor, r.MaxCost, tc.huge)
		}
	}
}

// The dyn calls renamed for the estimate are restored: the program still
// evaluates dyn.
func TestSizelessDynEstimateLeavesTheProgramIntact(t *testing.T) {
	r := compileAt(t, 32, StoredExpressions, "dyn([1, 2]).sum() == 3")
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	out, _, err := r.Program.Eval(map[string]any{ScopedVarName: map[string]any{}, OldScopedVarName: nil})
	if err != nil || out.Value() != true {
		t.Fatalf("Eval = %v, %v; want true", out, err)
	}
}

// A property named as a reserved word is selectable by the word in new
// rules from 1.32 (kubeversion.KeywordFieldNames) and in stored rules at
// every release; its escaped name always.
func TestKeywordFieldNamesByRelease(t *testing.T) {
	for _, tc := range []struct {
		rule  string
		minor int
		kind  EnvKind
		err   string
	}{
		{"self.if == 'a'", 31, NewExpressions, "undefined field 'if'"},
		{"has(self.namespace)", 31, NewExpressions, "undefined field 'namespace'"},
		{"self.if == 'a'", 31, StoredExpressions, ""},
		{"self.__if__ == 'a'", 31, NewExpressions, ""},
		{"self.if == 'a'", 32, NewExpressions, ""},
		{"self.namespace == 'a'", 37, NewExpressions, ""},
	} {
		r := compileAt(t, tc.minor, tc.kind, tc.rule)
		got := ""
		if r.Error != nil {
			got = r.Error.Detail
		}
		if (tc.err == "") != (got == "") || !strings.Contains(got, tc.err) {
			t.Errorf("%s at 1.%d (%v): error %q, want %q", tc.rule, tc.minor, tc.kind, got, tc.err)
		}
	}
}
