package crdtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	sigsyaml "sigs.k8s.io/yaml"
	yaml "sigs.k8s.io/yaml/goyaml.v3"

	"github.com/crdlab/crdlab/apply"
	"github.com/crdlab/crdlab/internal/keys"
)

// ApplyCase is crdlab's server-side apply case: requests by field managers
// against one object (apply.Run, as `crdlab apply` sends them), each with
// what to expect.
type ApplyCase struct {
	Name string `yaml:"name" json:"name"`
	// Stored is the object as stored before the first step (YAML, with its
	// metadata.managedFields); none when empty.
	Stored string       `yaml:"stored" json:"stored,omitempty"`
	Steps  []*ApplyStep `yaml:"steps" json:"steps"`
	Line   int          `yaml:"-" json:"-"`

	steps []apply.Step
}

// ApplyStep is one request of an ApplyCase: the fields of `crdlab apply`'s
// steps file (manager, operation Apply|Update|Delete, force, subresource,
// object) and the expectations.
type ApplyStep struct {
	Manager     string `yaml:"manager" json:"manager,omitempty"`
	Operation   string `yaml:"operation" json:"operation"`
	Force       bool   `yaml:"force" json:"force,omitempty"`
	Subresource string `yaml:"subresource" json:"subresource,omitempty"`
	Object      string `yaml:"object" json:"object,omitempty"`

	// Expected is the stored object after the step, compared as the other
	// cases compare (server-set metadata and managedFields ignored).
	Expected string `yaml:"expected" json:"expected,omitempty"`
	// ExpectedManagedFields are the stored object's managedFields, in
	// order; each entry's manager, operation, subresource, apiVersion and
	// fieldsV1 are compared (time is not).
	ExpectedManagedFields []ExpectedManagedFields `yaml:"expectedManagedFields" json:"expectedManagedFields,omitempty"`
	// ExpectedOwners maps field paths (".spec.ports[name=\"http\"].port")
	// to their owners ("alice (Apply)", "ci (Update, status)"; [] for
	// none): the owner view `crdlab apply` prints. Fields not listed
	// are not checked.
	ExpectedOwners map[string][]string `yaml:"expectedOwners" json:"expectedOwners,omitempty"`
	// ExpectedConflict is a substring of the 409 message (the step must
	// conflict).
	ExpectedConflict string `yaml:"expectedConflict" json:"expectedConflict,omitempty"`
	// ExpectedError is a substring of any other refusal's message.
	ExpectedError string `yaml:"expectedError" json:"expectedError,omitempty"`
	Line          int    `yaml:"-" json:"-"`
}

// ExpectedManagedFields is one expected metadata.managedFields entry.
type ExpectedManagedFields struct {
	Manager     string      `yaml:"manager" json:"manager"`
	Operation   string      `yaml:"operation" json:"operation"`
	Subresource string      `yaml:"subresource" json:"subresource,omitempty"`
	APIVersion  string      `yaml:"apiVersion" json:"apiVersion,omitempty"`
	FieldsV1    interface{} `yaml:"fieldsV1" json:"fieldsV1"`
}

// parseApplyCases sets the lines of tests.apply and checks each case's
// steps as `crdlab apply` checks a steps file (apply.ParseSteps).
func parseApplyCases(path string, s *SuiteFile, doc *yaml.Node) error {
	cases := mapValue(mapValue(doc, "tests"), "apply")
	setLines(cases, func(i, line int) {
		if i < len(s.Tests.Apply) && s.Tests.Apply[i] != nil {
			c := s.Tests.Apply[i]
			c.Line = line
			setLines(mapValue(cases.Content[i], "steps"), func(j, line int) {
				if j < len(c.Steps) && c.Steps[j] != nil {
					c.Steps[j].Line = line
				}
			})
		}
	})
	for _, c := range s.Tests.Apply {
		if c == nil {
			return fmt.Errorf("%s: empty apply case", path)
		}
		if len(c.Steps) == 0 {
			return fmt.Errorf("%s:%d: apply case %q has no steps", path, c.Line, c.Name)
		}
		for i, st := range c.Steps {
			line := c.Line
			if st != nil {
				line = st.Line
			}
			if st == nil {
				return fmt.Errorf("%s:%d: apply case %q: an empty step", path, line, c.Name)
			}
			one := map[string]interface{}{"operation": st.Operation}
			if st.Manager != "" {
				one["manager"] = st.Manager
			}
			if st.Force {
				one["force"] = true
			}
			if st.Subresource != "" {
				one["subresource"] = st.Subresource
			}
			if st.Object != "" {
				one["object"] = st.Object
			}
			b, err := yaml.Marshal([]interface{}{one})
			if err != nil {
				return fmt.Errorf("%s:%d: %v", path, line, err)
			}
			steps, err := apply.ParseSteps(b)
			if err != nil {
				msg := err.Error()
				if se, ok := err.(*apply.StepError); ok {
					msg = strings.Replace(se.Msg, "step 1: ", "", 1)
				}
				return fmt.Errorf("%s:%d: apply case %q, step %d: %s", path, line, c.Name, i+1, msg)
			}
			if st.ExpectedConflict != "" && st.ExpectedError != "" {
				return fmt.Errorf("%s:%d: apply case %q, step %d: expectedConflict and expectedError exclude each other", path, line, c.Name, i+1)
			}
			c.steps = append(c.steps, steps[0])
		}
	}
	return nil
}

// runApply runs an apply case on crdlab's engine.
func (l *loader) runApply(t target, c *ApplyCase) error {
	if l.backend != nil {
		return fmt.Errorf("apply cases run on crdlab's engine only, not on a backend")
	}
	crd, err := l.compile(t, nil)
	if err != nil {
		return err
	}
	var stored []byte
	if strings.TrimSpace(c.Stored) != "" {
		if stored, err = sigsyaml.YAMLToJSON([]byte(c.Stored)); err != nil {
			return fmt.Errorf("stored: %v", err)
		}
	}
	rep, err := apply.Run(crd, stored, c.steps, apply.Options{})
	if err != nil {
		return err
	}
	for i, st := range c.Steps {
		if err := checkApplyStep(rep, i, st); err != nil {
			return fmt.Errorf("step %d (%s by %q, line %d): %v", i+1, st.Operation, st.Manager, st.Line, err)
		}
	}
	return nil
}

func checkApplyStep(rep *apply.Report, i int, st *ApplyStep) error {
	r := rep.Steps[i]
	switch {
	case st.ExpectedConflict != "":
		if r.Conflict == "" {
			return fmt.Errorf("no conflict, expected one containing:\n    %s%s", st.ExpectedConflict, refusal(r))
		}
		if !strings.Contains(r.Conflict, st.ExpectedConflict) {
			return fmt.Errorf("the conflict does not contain the expected text\n  expected (substring):\n    %s\n  actual:\n%s", st.ExpectedConflict, indentLines(r.Conflict))
		}
	case st.ExpectedError != "":
		if r.Error == "" {
			return fmt.Errorf("the request succeeded or conflicted, expected an error containing:\n    %s%s", st.ExpectedError, refusal(r))
		}
		if !strings.Contains(r.Error, st.ExpectedError) {
			return fmt.Errorf("the error does not contain the expected text\n  expected (substring):\n    %s\n  actual:\n    %s", st.ExpectedError, r.Error)
		}
	case r.Failed():
		return fmt.Errorf("the request failed:%s", refusal(r))
	}
	if st.Expected != "" {
		if r.Object == nil {
			return fmt.Errorf("no stored object, expected one")
		}
		if err := compareStored(st.Expected, r.Object); err != nil {
			return err
		}
	}
	if st.ExpectedManagedFields != nil {
		if err := compareManagedFields(st.ExpectedManagedFields, r.ManagedFields); err != nil {
			return err
		}
	}
	if st.ExpectedOwners != nil {
		owners, err := rep.Ownership(i)
		if err != nil {
			return err
		}
		got := map[string][]string{}
		for _, o := range owners {
			got[o.Path] = o.Owners
		}
		var b strings.Builder
		for _, p := range keys.Sorted(st.ExpectedOwners) {
			want := st.ExpectedOwners[p]
			if want == nil {
				want = []string{}
			}
			have, ok := got[p]
			switch {
			case !ok:
				fmt.Fprintf(&b, "    %s: not a field of the stored object (expected owners %v)\n", p, want)
			case !reflect.DeepEqual(have, want):
				fmt.Fprintf(&b, "    %s: owners %v, expected %v\n", p, have, want)
			}
		}
		if b.Len() > 0 {
			return fmt.Errorf("owners differ:\n%s", b.String())
		}
	}
	return nil
}

func refusal(r *apply.StepResult) string {
	switch {
	case r.Conflict != "":
		return "\n" + indentLines(r.Conflict)
	case r.Error != "":
		return fmt.Sprintf("\n    %s (%d)", r.Error, r.Code)
	}
	return ""
}

func indentLines(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return "    " + strings.Join(lines, "\n    ")
}

func compareManagedFields(want []ExpectedManagedFields, got []apply.ManagedFieldsEntry) error {
	render := func(manager, op, sub, av string, fields []byte) string {
		s := fmt.Sprintf("manager: %s, operation: %s", manager, op)
		if sub != "" {
			s += ", subresource: " + sub
		}
		if av != "" {
			s += ", apiVersion: " + av
		}
		return s + ", fieldsV1: " + string(fields)
	}
	var exp, act []string
	for _, w := range want {
		b, err := json.Marshal(w.FieldsV1)
		if err != nil {
			return fmt.Errorf("expectedManagedFields: %v", err)
		}
		exp = append(exp, render(w.Manager, w.Operation, w.Subresource, w.APIVersion, canonicalJSON(b)))
	}
	for i, g := range got {
		av := g.APIVersion
		if i < len(want) && want[i].APIVersion == "" {
			av = ""
		}
		act = append(act, render(g.Manager, g.Operation, g.Subresource, av, canonicalJSON(g.FieldsV1)))
	}
	if reflect.DeepEqual(exp, act) {
		return nil
	}
	return fmt.Errorf("managedFields differ (-expected +actual):\n%s", unifiedDiff(strings.Join(exp, "\n")+"\n", strings.Join(act, "\n")+"\n"))
}

// canonicalJSON sorts keys (FieldsV1 compares by content).
func canonicalJSON(b []byte) []byte {
	var v interface{}
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(&v); err != nil {
		return b
	}
	out, err := json.Marshal(v)
	if err != nil {
		return b
	}
	return out
}
