package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/wire"
)

const (
	typecheckPolicy = "../../examples/admission/typecheck.yaml"
	crontabCRD      = "../../examples/crontab-crd.yaml"
)

// TestLintPolicyReportsTypeCheckingWarningsAtTheExpressions: lint --policy
// (without --old) type-checks each ValidatingAdmissionPolicy against the
// CRDs linted; text warnings name file:line of the expression, the exit
// status stays 0.
func TestLintPolicyReportsTypeCheckingWarningsAtTheExpressions(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"lint", "--policy", typecheckPolicy, crontabCRD}, strings.NewReader(""), &stdout, &stderr)
	if code != exitValid {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	for _, want := range []string{
		"Warning: " + typecheckPolicy + ":17:5: spec.validations[0].expression: stable.example.com/v1, Kind=CronTab: ERROR: <input>:1:12: undefined field 'replica'\n | object.spec.replica <= 5\n | ...........^\n",
		"Warning: " + typecheckPolicy + ":19:5: spec.validations[1].messageExpression: stable.example.com/v1, Kind=CronTab: ERROR: <input>:1:40: found no matching overload for '_+_' applied to '(string, int)'",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if n := strings.Count(stderr.String(), "Warning: "); n != 2 {
		t.Errorf("%d warnings, want 2 (the labels expression type-checks):\n%s", n, stderr.String())
	}
	if !strings.Contains(stdout.String(), "validatingadmissionpolicy.admissionregistration.k8s.io/crontab-typos created (server dry run)") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
}

// TestLintPolicyJSONCarriesTheExpressionWarnings: -o json carries the
// status.typeChecking warnings of each policy as the API server writes
// them (fieldRef, warning), with their positions.
func TestLintPolicyJSONCarriesTheExpressionWarnings(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"lint", "-o", "json", "--policy", typecheckPolicy, crontabCRD}, strings.NewReader(""), &stdout, &stderr)
	var rep wire.RunReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || code != exitValid {
		t.Fatalf("exit %d, %v\n%s", code, err, stderr.String())
	}
	if len(rep.Results) != 2 || rep.Summary.Total != 2 || rep.Summary.Files != 2 {
		t.Fatalf("results %d, summary %+v", len(rep.Results), rep.Summary)
	}
	p := rep.Results[1]
	if p.Kind != "ValidatingAdmissionPolicy" || p.Name != "crontab-typos" || len(p.TypeChecking) != 2 {
		t.Fatalf("policy entry %+v", p)
	}
	want := []wire.ExpressionWarning{
		{FieldRef: "spec.validations[0].expression", Warning: "stable.example.com/v1, Kind=CronTab: ERROR: <input>:1:12: undefined field 'replica'\n | object.spec.replica <= 5\n | ...........^\n"},
		{FieldRef: "spec.validations[1].messageExpression"},
	}
	if p.TypeChecking[0] != want[0] || p.TypeChecking[1].FieldRef != want[1].FieldRef {
		t.Errorf("typeChecking %+v", p.TypeChecking)
	}
	if len(p.WarningPositions) != 2 || p.WarningPositions[0] == nil || p.WarningPositions[0].Line != 17 || p.WarningPositions[1].Line != 19 {
		t.Errorf("warningPositions %+v", p.WarningPositions)
	}
}

// TestLintRequestWithoutOldIsAUsageError: --request, --user and --group
// describe the CRD update's request; without --old they are refused.
func TestLintRequestWithoutOldIsAUsageError(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"lint", "--user", "jane", "--policy", typecheckPolicy, crontabCRD}, strings.NewReader(""), &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "need --old") {
		t.Errorf("exit %d\n%s", code, stderr.String())
	}
}
