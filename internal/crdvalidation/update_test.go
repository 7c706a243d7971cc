package crdvalidation

import (
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
)

// established completes an old CRD the way engine.AsStored does for these
// tests: storedVersions and the Established condition.
func established(t *testing.T, yaml string, stored ...string) *crd.CustomResourceDefinition {
	t.Helper()
	c, err := crd.DecodeOne([]byte(yaml), "old.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) == 0 {
		stored = []string{"v1"}
	}
	c.Status.StoredVersions = stored
	c.Status.Conditions = append(c.Status.Conditions, []byte(`{"type":"Established","status":"True"}`))
	c.Status.AcceptedNames = c.Spec.Names
	c.Metadata.ResourceVersion = "1"
	return c
}

func validateUpdate(t *testing.T, newYAML string, old *crd.CustomResourceDefinition) ([]string, []string) {
	t.Helper()
	return validateWith(t, newYAML, func(c *crd.CustomResourceDefinition) (field.ErrorList, []string) {
		c.Metadata.ResourceVersion = "1" // as kubectl apply sends it
		return ValidateCustomResourceDefinitionUpdate(c, old, Options{})
	})
}

const (
	setOfObjects   = "type: object\nproperties:\n  s:\n    type: array\n    x-kubernetes-list-type: set\n    items: {type: object, properties: {a: {type: string}}}\n"
	plainSchema    = "type: object\nproperties:\n  a: {type: string}\n"
	expensiveRule  = "type: object\nproperties:\n  t: {type: array, maxItems: 2000, items: {type: string, maxLength: 10}}\nx-kubernetes-validations:\n- rule: \"self.t.all(x, self.t.all(y, x != y))\"\n"
	expensiveRule2 = "type: object\nproperties:\n  t: {type: array, maxItems: 2000, items: {type: string, maxLength: 10}}\n  u: {type: string}\nx-kubernetes-validations:\n- rule: \"self.t.all(x, self.t.all(y, x != y))\"\n"
	includesRule   = "type: object\nproperties:\n  t: {type: array, maxItems: 4, items: {type: string, maxLength: 4}}\nx-kubernetes-validations:\n- rule: \"self.t.includes('a')\"\n"
)

func TestValidateCustomResourceDefinitionUpdate(t *testing.T) {
	tests := []struct {
		name       string
		old, new   string
		stored     []string
		wantErrs   []string // substrings, one per error, in order
		wantWarned int
	}{
		{"unchanged", crdWithSchema(plainSchema, ""), crdWithSchema(plainSchema, ""), nil, nil, 0},
		{"scope is immutable", crdWithSchema(plainSchema, ""), strings.Replace(crdWithSchema(plainSchema, ""), "scope: Namespaced", "scope: Cluster", 1), nil,
			[]string{`spec.scope: Invalid value: "Cluster": field is immutable`}, 0},
		{"group is immutable", crdWithSchema(plainSchema, ""), strings.Replace(crdWithSchema(plainSchema, ""), "group: example.com", "group: other.example.com", 1), nil,
			[]string{`spec.group: Invalid value: "other.example.com": field is immutable`}, 0},
		{"a stored version cannot be removed", crdWithSchema(plainSchema, ""), strings.Replace(crdWithSchema(plainSchema, ""), "name: v1", "name: v2", 1), nil,
			[]string{`status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version`}, 0},
		{"a migrated version can be removed", crdWithSchema(plainSchema, ""), strings.Replace(crdWithSchema(plainSchema, ""), "name: v1", "name: v2", 1), []string{"v2"}, nil, 0},
		{"a new set of objects is rejected", crdWithSchema(plainSchema, ""), crdWithSchema(setOfObjects, ""), nil,
			[]string{"properties[s].items.x-kubernetes-map-type: Invalid value: null: must be atomic"}, 0},
		{"an old set of objects is tolerated", crdWithSchema(setOfObjects, ""), crdWithSchema(setOfObjects, ""), nil, nil, 0},
		{"a new expensive rule is rejected", crdWithSchema(plainSchema, ""), crdWithSchema(expensiveRule, ""), nil,
			[]string{"x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget"}, 0},
		{"an expensive rule in an unchanged schema is tolerated", crdWithSchema(expensiveRule, ""), crdWithSchema(expensiveRule, ""), nil, nil, 0},
		{"an expensive rule in a changed schema is rejected", crdWithSchema(expensiveRule, ""), crdWithSchema(expensiveRule2, ""), nil,
			[]string{"x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget"}, 0},
		{"a new 1.37-only rule does not compile", crdWithSchema(plainSchema, ""), crdWithSchema(includesRule, ""), nil,
			[]string{"x-kubernetes-validations[0].rule: Invalid value"}, 0},
		{"a stored 1.37-only rule compiles", crdWithSchema(includesRule, ""), crdWithSchema(includesRule, ""), nil, nil, 0},
		{"only new formats are warned about", crdWithSchema("type: object\nproperties:\n  a: {type: string, format: colour}\n", ""),
			crdWithSchema("type: object\nproperties:\n  a: {type: string, format: colour}\n  b: {type: string, format: shoe}\n", ""), nil, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := established(t, tt.old, tt.stored...)
			errs, warnings := validateUpdate(t, tt.new, old)
			if len(errs) != len(tt.wantErrs) {
				t.Fatalf("got %d errors, want %d:\n%s", len(errs), len(tt.wantErrs), strings.Join(errs, "\n"))
			}
			for i, w := range tt.wantErrs {
				if !strings.Contains(errs[i], w) {
					t.Errorf("error %d = %q, want it to contain %q", i, errs[i], w)
				}
			}
			if len(warnings) != tt.wantWarned {
				t.Errorf("warnings = %q, want %d", warnings, tt.wantWarned)
			}
		})
	}
}

func TestUpdateFlagsComeFromTheOldCRD(t *testing.T) {
	newCRD, err := crd.DecodeOne([]byte(crdWithSchema(plainSchema, "")), "new.yaml")
	if err != nil {
		t.Fatal(err)
	}
	in := toInternal(newCRD)
	clean := toInternal(established(t, crdWithSchema(plainSchema, "")))
	if got := updateFlags(in, clean, true); !got.requireAtomicSetType || !got.requireValidPropertyType || !got.requireStructuralSchema || !got.requirePrunedDefaults || !got.requireMapListKeysMapSetValidation || !got.requireOpenAPISchema || !got.requireRecognizedConversionReviewVersion || got.allowInvalidCABundle {
		t.Errorf("a clean established old CRD must require everything: %+v", got)
	}
	if got := updateFlags(in, clean, false); !got.allowInvalidCABundle {
		t.Errorf("an old CRD that is not established allows an invalid caBundle")
	}
	if got := updateFlags(in, toInternal(established(t, crdWithSchema(setOfObjects, ""))), true); got.requireAtomicSetType {
		t.Errorf("an old set of objects turns requireAtomicSetType off")
	}
	if got := updateFlags(in, toInternal(established(t, crdWithSchema("type: object\nproperties:\n  a: {type: strin}\n", ""))), true); got.requireValidPropertyType {
		t.Errorf("an old invalid type turns requireValidPropertyType off")
	}
	if got := updateFlags(in, toInternal(established(t, crdWithSchema("type: object\nproperties:\n  a: {type: object, default: {x: 1}}\n", ""))), true); got.requirePrunedDefaults {
		t.Errorf("an old unpruned default turns requirePrunedDefaults off")
	}
	got := updateFlags(in, toInternal(established(t, crdWithSchema(includesRule, ""))), true)
	if !got.preexisting.rules["self.t.includes('a')"] {
		t.Errorf("the old rules are preexisting: %+v", got.preexisting)
	}
	if got.versionsWithUnchangedSchemas["v1"] {
		t.Errorf("v1's schema changed: %v", got.versionsWithUnchangedSchemas)
	}
	if got := updateFlags(in, clean, true); !got.versionsWithUnchangedSchemas["v1"] {
		t.Errorf("v1's schema is unchanged: %v", got.versionsWithUnchangedSchemas)
	}
}

// The rules of the old CRD reach CompileRules as StoredRules.
func TestUpdatePassesStoredExpressionsToCompileRules(t *testing.T) {
	old := established(t, crdWithSchema("type: object\nx-kubernetes-validations:\n- {rule: old, messageExpression: oldMsg}\n", ""))
	newCRD, err := crd.DecodeOne([]byte(crdWithSchema("type: object\nx-kubernetes-validations:\n- {rule: old}\n- {rule: new, messageExpression: oldMsg}\n", "")), "new.yaml")
	if err != nil {
		t.Fatal(err)
	}
	newCRD.Metadata.ResourceVersion = "1"
	var seen CELNode
	o := &options{compileRules: func(n CELNode) ([]CELRuleResult, error) {
		seen = n
		return make([]CELRuleResult, len(n.Schema.XValidations)), nil
	}}
	if errs, _ := validateCustomResourceDefinitionUpdate(newCRD, old, o); len(errs) != 0 {
		t.Fatal(errs)
	}
	if !seen.StoredRules["old"] || seen.StoredRules["new"] || !seen.StoredMessageExpressions["oldMsg"] {
		t.Errorf("stored expressions: rules %v, messages %v", seen.StoredRules, seen.StoredMessageExpressions)
	}
}

// TestUpdateNoPanicOnOddInput pairs the odd CRDs of TestNoPanicOnOddInput
// (and empty ones) as old and new: an update reports errors, never panics.
func TestUpdateNoPanicOnOddInput(t *testing.T) {
	schemas := []string{
		"type: object\nproperties:\n  l: {type: array, items: []}",
		"type: object\nproperties:\n  l: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [a], items: [{type: object}]}",
		"type: object\ndependencies:\n  a: {type: string}\n  b: [c]\nnot: {}\nallOf: [{}]\ndefinitions: {d: {}}",
		"type: object\nproperties:\n  a: {type: object, default: {x: 1}, x-kubernetes-validations: [{rule: 'self.x == 1', messageExpression: 'nope('}]}",
		"{}",
	}
	var crds []*crd.CustomResourceDefinition
	for _, s := range schemas {
		c, err := crd.DecodeOne([]byte(crdWithSchema(s, "")), "t.yaml")
		if err != nil {
			continue
		}
		crds = append(crds, c)
	}
	crds = append(crds, &crd.CustomResourceDefinition{})
	for i, n := range crds {
		for j, o := range crds {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("panic for new %d old %d: %v", i, j, r)
					}
				}()
				ValidateCustomResourceDefinitionUpdate(n, o, Options{})
			}()
		}
	}
	if errs, _ := ValidateCustomResourceDefinitionUpdate(nil, nil, Options{}); len(errs) != 1 {
		t.Errorf("nil CRDs: %v", errs)
	}
}
