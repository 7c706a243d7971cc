package admission

import "testing"

func strp(s string) *string { return &s }

func TestRuleMatchesOperationsGroupsVersionsResourcesAndScope(t *testing.T) {
	req := &Request{Operation: "UPDATE", Namespace: "prod", SubResource: "status",
		Resource: GVR{"stable.example.com", "v1", "crontabs"}}
	cases := []struct {
		name string
		rule NamedRuleWithOperations
		want bool
	}{
		{"all wildcards", NamedRuleWithOperations{Operations: []string{"*"}, APIGroups: []string{"*"}, APIVersions: []string{"*"}, Resources: []string{"*/*"}}, true},
		{"resource without subresource", NamedRuleWithOperations{Operations: []string{"*"}, APIGroups: []string{"*"}, APIVersions: []string{"*"}, Resources: []string{"crontabs"}}, false},
		{"resource/status", NamedRuleWithOperations{Operations: []string{"UPDATE"}, APIGroups: []string{"stable.example.com"}, APIVersions: []string{"v1"}, Resources: []string{"crontabs/status"}}, true},
		{"other operation", NamedRuleWithOperations{Operations: []string{"CREATE"}, APIGroups: []string{"*"}, APIVersions: []string{"*"}, Resources: []string{"*/*"}}, false},
		{"other version", NamedRuleWithOperations{Operations: []string{"*"}, APIGroups: []string{"*"}, APIVersions: []string{"v2"}, Resources: []string{"*/*"}}, false},
		{"cluster scope", NamedRuleWithOperations{Operations: []string{"*"}, APIGroups: []string{"*"}, APIVersions: []string{"*"}, Resources: []string{"*/*"}, Scope: strp("Cluster")}, false},
		{"namespaced scope", NamedRuleWithOperations{Operations: []string{"*"}, APIGroups: []string{"*"}, APIVersions: []string{"*"}, Resources: []string{"*/*"}, Scope: strp("Namespaced")}, true},
		{"unknown scope", NamedRuleWithOperations{Operations: []string{"*"}, APIGroups: []string{"*"}, APIVersions: []string{"*"}, Resources: []string{"*/*"}, Scope: strp("Galaxy")}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := ruleMatches(&tc.rule, req, req.Resource); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLabelSelectorsMatchAndReportInvalidOperators(t *testing.T) {
	labels := map[string]string{"env": "prod", "tier": "web"}
	cases := []struct {
		name    string
		sel     LabelSelector
		want    bool
		wantErr string
	}{
		{"empty matches everything", LabelSelector{}, true, ""},
		{"matchLabels", LabelSelector{MatchLabels: map[string]string{"env": "prod"}}, true, ""},
		{"matchLabels other value", LabelSelector{MatchLabels: map[string]string{"env": "dev"}}, false, ""},
		{"In", LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "tier", Operator: "In", Values: []string{"web", "db"}}}}, true, ""},
		{"NotIn", LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "tier", Operator: "NotIn", Values: []string{"web"}}}}, false, ""},
		{"NotIn absent key", LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "zone", Operator: "NotIn", Values: []string{"a"}}}}, true, ""},
		{"Exists", LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "env", Operator: "Exists"}}}, true, ""},
		{"DoesNotExist", LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "env", Operator: "DoesNotExist"}}}, false, ""},
		{"invalid operator", LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "env", Operator: "Like"}}}, false, `"Like" is not a valid label selector operator`},
		{"In without values", LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "env", Operator: "In"}}}, false, `values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := parseSelector(&tc.sel)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := s.matches(labels); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
