package builtin

import (
	"reflect"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine/field"
	v1 "github.com/crdlab/crdlab/internal/builtin/corev1"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

func TestValidateLabelSelectorAsMetav1(t *testing.T) {
	req := func(key string, op v1.LabelSelectorOperator, values ...string) v1.LabelSelectorRequirement {
		return v1.LabelSelectorRequirement{Key: key, Operator: op, Values: values}
	}
	long := strings.Repeat("a", 64)
	tests := []struct {
		name string
		rel  int
		sel  *v1.LabelSelector
		opts LabelSelectorValidationOptions
		want []string
		// badValue: a match expression has an invalid label value
		// (LabelSelectorHasInvalidLabelValue).
		badValue bool
	}{{
		name: "nil selector is valid",
	}, {
		name: "empty selector is valid",
		sel:  &v1.LabelSelector{},
	}, {
		name: "every operator with fitting values is valid",
		sel: &v1.LabelSelector{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []v1.LabelSelectorRequirement{
			req("a", v1.LabelSelectorOpIn, "x"), req("b", v1.LabelSelectorOpNotIn, "y", "z"),
			req("c", v1.LabelSelectorOpExists), req("example.com/d", v1.LabelSelectorOpDoesNotExist)}},
	}, {
		name: "matchLabels keys and values, keys sorted",
		sel:  &v1.LabelSelector{MatchLabels: map[string]string{"b/c/d": "ok", "a": "-bad"}},
		want: []string{
			`sel.matchLabels: Invalid value: "-bad": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
			`sel.matchLabels: Invalid value: "b/c/d": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
		},
	}, {
		name: "In and NotIn need values",
		sel:  &v1.LabelSelector{MatchExpressions: []v1.LabelSelectorRequirement{req("a", v1.LabelSelectorOpIn), req("b", v1.LabelSelectorOpNotIn)}},
		want: []string{
			"sel.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
			"sel.matchExpressions[1].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
		},
	}, {
		name: "Exists and DoesNotExist forbid values",
		sel:  &v1.LabelSelector{MatchExpressions: []v1.LabelSelectorRequirement{req("a", v1.LabelSelectorOpExists, "x"), req("b", v1.LabelSelectorOpDoesNotExist, "y")}},
		want: []string{
			"sel.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
			"sel.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
		},
	}, {
		name:     "unknown operator, then the key, then the values",
		badValue: true,
		sel:      &v1.LabelSelector{MatchExpressions: []v1.LabelSelectorRequirement{req("", "in", "x y")}},
		want: []string{
			`sel.matchExpressions[0].operator: Invalid value: "in": not a valid selector operator`,
			`sel.matchExpressions[0].key: Invalid value: "": name part must be non-empty`,
			`sel.matchExpressions[0].key: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
			`sel.matchExpressions[0].values[0]: Invalid value: "x y": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
		},
	}, {
		name:     "options allow an unknown operator and invalid values",
		sel:      &v1.LabelSelector{MatchExpressions: []v1.LabelSelectorRequirement{req("a", "Gt", "x y")}},
		opts:     LabelSelectorValidationOptions{AllowInvalidLabelValueInSelector: true, AllowUnknownOperatorInRequirement: true},
		badValue: true,
	}, {
		name:     "a long value's text at 1.37",
		badValue: true,
		sel:      &v1.LabelSelector{MatchExpressions: []v1.LabelSelectorRequirement{req("a", v1.LabelSelectorOpIn, long)}},
		want:     []string{`sel.matchExpressions[0].values[0]: Invalid value: "` + long + `": must be no more than 63 bytes`},
	}, {
		name:     "a long value's text at 1.31",
		badValue: true,
		rel:      31,
		sel:      &v1.LabelSelector{MatchExpressions: []v1.LabelSelectorRequirement{req("a", v1.LabelSelectorOpIn, long)}},
		want:     []string{`sel.matchExpressions[0].values[0]: Invalid value: "` + long + `": must be no more than 63 characters`},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rel := kubeversion.Of(tt.rel)
			errs := ValidateLabelSelector(rel, tt.sel, tt.opts, field.NewPath("sel"))
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			if has := LabelSelectorHasInvalidLabelValue(rel, tt.sel); has != tt.badValue {
				t.Errorf("LabelSelectorHasInvalidLabelValue = %v", has)
			}
		})
	}
}
