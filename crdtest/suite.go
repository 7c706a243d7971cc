package crdtest

import (
	"bytes"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	sigsyaml "sigs.k8s.io/yaml"
	yaml "sigs.k8s.io/yaml/goyaml.v3"
)

// SuiteFile is one suite file as written: OpenShift's format (name, crd or
// crdName, featureGates, version, tests.onCreate, tests.onUpdate) plus
// crdlab's tests.sequences, tests.apply and tests.admission, with the
// admission cases' shared policies (see docs/test-format.md).
type SuiteFile struct {
	Name         string   `yaml:"name" json:"name"`
	CRD          string   `yaml:"crd" json:"crd,omitempty"`
	CRDName      string   `yaml:"crdName" json:"crdName,omitempty"`
	FeatureGates []string `yaml:"featureGates" json:"featureGates,omitempty"`
	Version      string   `yaml:"version" json:"version,omitempty"`
	// KubeVersion is the Kubernetes release whose API server runs the
	// suite ("1.<minor>", crdlab's; default: engine.DefaultKubeVersion);
	// Options.KubeVersion (crdlab test --kube-version) overrides it.
	KubeVersion string `yaml:"kubeVersion" json:"kubeVersion,omitempty"`
	// Policies are the policies, bindings, params and Namespaces every
	// admission case of the suite sees (files relative to the suite, or
	// YAML documents in a block scalar; see AdmissionCase.Policies).
	Policies []string `yaml:"policies" json:"policies,omitempty"`
	Tests    struct {
		OnCreate  []*OnCreate      `yaml:"onCreate" json:"onCreate,omitempty"`
		OnUpdate  []*OnUpdate      `yaml:"onUpdate" json:"onUpdate,omitempty"`
		Sequences []*Sequence      `yaml:"sequences" json:"sequences,omitempty"`
		Apply     []*ApplyCase     `yaml:"apply" json:"apply,omitempty"`
		Admission []*AdmissionCase `yaml:"admission" json:"admission,omitempty"`
	} `yaml:"tests" json:"tests"`

	// Path is the file the suite was read from.
	Path string `yaml:"-" json:"-"`

	policyLines []int
}

// OnCreate is OpenShift's onCreate case: create initial, then compare the
// stored object with expected (default: initial) or the error with
// expectedError (a substring).
type OnCreate struct {
	Name          string `yaml:"name" json:"name"`
	Initial       string `yaml:"initial" json:"initial"`
	Expected      string `yaml:"expected" json:"expected,omitempty"`
	ExpectedError string `yaml:"expectedError" json:"expectedError,omitempty"`
	Line          int    `yaml:"-" json:"-"`
}

// Patch is one RFC 6902 JSON patch operation.
type Patch struct {
	Op    string      `yaml:"op" json:"op"`
	Path  string      `yaml:"path" json:"path"`
	From  string      `yaml:"from" json:"from,omitempty"`
	Value interface{} `yaml:"value" json:"value,omitempty"`
}

// OnUpdate is OpenShift's onUpdate case: create initial (with
// initialCRDPatches applied to the CRD, and initial's status through the
// status subresource), then update to updated by spec and then by status.
type OnUpdate struct {
	Name                string  `yaml:"name" json:"name"`
	InitialCRDPatches   []Patch `yaml:"initialCRDPatches" json:"initialCRDPatches,omitempty"`
	Initial             string  `yaml:"initial" json:"initial"`
	Updated             string  `yaml:"updated" json:"updated"`
	Expected            string  `yaml:"expected" json:"expected,omitempty"`
	ExpectedError       string  `yaml:"expectedError" json:"expectedError,omitempty"`
	ExpectedStatusError string  `yaml:"expectedStatusError" json:"expectedStatusError,omitempty"`
	Line                int     `yaml:"-" json:"-"`
}

// Sequence is crdlab's case: requests against one object, in order.
type Sequence struct {
	Name            string  `yaml:"name" json:"name"`
	FieldValidation string  `yaml:"fieldValidation" json:"fieldValidation,omitempty"`
	Steps           []*Step `yaml:"steps" json:"steps"`
	Line            int     `yaml:"-" json:"-"`
}

// Step is one request of a Sequence: exactly one of Create, Update,
// UpdateStatus (object YAML) or PatchCRD, and what to expect.
type Step struct {
	Create       string  `yaml:"create" json:"create,omitempty"`
	Update       string  `yaml:"update" json:"update,omitempty"`
	UpdateStatus string  `yaml:"updateStatus" json:"updateStatus,omitempty"`
	PatchCRD     []Patch `yaml:"patchCRD" json:"patchCRD,omitempty"`

	FieldValidation  string          `yaml:"fieldValidation" json:"fieldValidation,omitempty"`
	Expected         string          `yaml:"expected" json:"expected,omitempty"`
	ExpectedError    string          `yaml:"expectedError" json:"expectedError,omitempty"`
	ExpectedErrors   []ExpectedError `yaml:"expectedErrors" json:"expectedErrors,omitempty"`
	ExpectedWarnings *[]string       `yaml:"expectedWarnings" json:"expectedWarnings,omitempty"`
	ExpectedPruned   *[]string       `yaml:"expectedPruned" json:"expectedPruned,omitempty"`
	MaxCost          *uint64         `yaml:"maxCost" json:"maxCost,omitempty"`
	Line             int             `yaml:"-" json:"-"`
}

// ExpectedError is one expected field error: its field path and type
// (upstream's "FieldValueInvalid" or its label "Invalid value"), and
// optionally a substring of its detail.
type ExpectedError struct {
	Field  string `yaml:"field" json:"field"`
	Type   string `yaml:"type" json:"type"`
	Detail string `yaml:"detail" json:"detail,omitempty"`
}

func (s *Step) kind() string {
	var kinds []string
	if s.Create != "" {
		kinds = append(kinds, "create")
	}
	if s.Update != "" {
		kinds = append(kinds, "update")
	}
	if s.UpdateStatus != "" {
		kinds = append(kinds, "updateStatus")
	}
	if s.PatchCRD != nil {
		kinds = append(kinds, "patchCRD")
	}
	if len(kinds) != 1 {
		return ""
	}
	return kinds[0]
}

// ParseSuite parses one suite file's bytes; path is used for messages and
// to resolve relative CRD paths.
func ParseSuite(path string, data []byte) (*SuiteFile, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(root.Content) == 0 {
		return nil, fmt.Errorf("%s: empty suite file", path)
	}
	doc := root.Content[0]
	if doc.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s:%d: a suite file is a mapping (name, crd or crdName, tests)", path, doc.Line)
	}
	// The content is decoded as OpenShift's runner decodes it (YAML to
	// JSON, unknown fields ignored, a repeated key keeps its last value);
	// the YAML nodes only give line numbers.
	if err := checkAdmissionShapes(path, doc); err != nil {
		return nil, err
	}
	s := &SuiteFile{}
	if err := sigsyaml.Unmarshal(data, s); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	s.Path = path
	// Line numbers of the cases and steps.
	if tests := mapValue(doc, "tests"); tests != nil {
		setLines(mapValue(tests, "onCreate"), func(i, line int) {
			if i < len(s.Tests.OnCreate) && s.Tests.OnCreate[i] != nil {
				s.Tests.OnCreate[i].Line = line
			}
		})
		setLines(mapValue(tests, "onUpdate"), func(i, line int) {
			if i < len(s.Tests.OnUpdate) && s.Tests.OnUpdate[i] != nil {
				s.Tests.OnUpdate[i].Line = line
			}
		})
		seqs := mapValue(tests, "sequences")
		setLines(seqs, func(i, line int) {
			if i < len(s.Tests.Sequences) && s.Tests.Sequences[i] != nil {
				q := s.Tests.Sequences[i]
				q.Line = line
				setLines(mapValue(seqs.Content[i], "steps"), func(j, line int) {
					if j < len(q.Steps) && q.Steps[j] != nil {
						q.Steps[j].Line = line
					}
				})
			}
		})
	}
	if err := parseApplyCases(path, s, doc); err != nil {
		return nil, err
	}
	if err := parseAdmissionCases(path, s, doc); err != nil {
		return nil, err
	}
	for _, c := range s.Tests.OnCreate {
		if c == nil {
			return nil, fmt.Errorf("%s: empty onCreate case", path)
		}
	}
	for _, c := range s.Tests.OnUpdate {
		if c == nil {
			return nil, fmt.Errorf("%s: empty onUpdate case", path)
		}
	}
	for _, q := range s.Tests.Sequences {
		if q == nil {
			return nil, fmt.Errorf("%s: empty sequence", path)
		}
		if len(q.Steps) == 0 {
			return nil, fmt.Errorf("%s:%d: sequence %q has no steps", path, q.Line, q.Name)
		}
		for _, st := range q.Steps {
			if st == nil || st.kind() == "" {
				line := q.Line
				if st != nil {
					line = st.Line
				}
				return nil, fmt.Errorf("%s:%d: a step has exactly one of create, update, updateStatus, patchCRD", path, line)
			}
		}
		if q.Steps[0].kind() != "create" && q.Steps[0].kind() != "patchCRD" {
			return nil, fmt.Errorf("%s:%d: sequence %q must create its object before updating it", path, q.Line, q.Name)
		}
	}
	return s, nil
}

func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	var out *yaml.Node // the last one, as the decoding keeps
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			out = n.Content[i+1]
		}
	}
	return out
}

func setLines(seq *yaml.Node, set func(i, line int)) {
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return
	}
	for i, n := range seq.Content {
		set(i, n.Line)
	}
}

// IsSuitePath reports whether discovery picks up a file: *.testsuite.yaml
// and *.crdtest.yaml anywhere, and OpenShift's per-CRD layout
// tests/<crdName>/<name>.yaml (not under tests/testdata/).
func IsSuitePath(path string) bool {
	base := filepath.Base(path)
	if strings.HasSuffix(base, ".testsuite.yaml") || strings.HasSuffix(base, ".crdtest.yaml") {
		return true
	}
	if !strings.HasSuffix(base, ".yaml") {
		return false
	}
	parent := filepath.Base(filepath.Dir(path))
	grand := filepath.Base(filepath.Dir(filepath.Dir(path)))
	return grand == "tests" && parent != "testdata"
}

// Discover expands paths into suite files: a file is taken as is, a
// directory is walked recursively for the files IsSuitePath accepts.
// The result is sorted and free of duplicates.
func Discover(paths ...string) ([]string, error) {
	return discover(osFS{}, paths)
}

func discover(fsys fileSystem, paths []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range paths {
		st, err := fsys.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			add(filepath.Clean(p))
			continue
		}
		err = fsys.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if name := d.Name(); path != p && (name == "node_modules" || strings.HasPrefix(name, ".")) {
					return filepath.SkipDir
				}
				return nil
			}
			if IsSuitePath(path) && looksLikeSuite(fsys, path) {
				add(path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}

// looksLikeSuite filters OpenShift-layout candidates that are not suites
// (a tests/<dir>/x.yaml holding something else): a suite has a top-level
// "tests:" key.
func looksLikeSuite(fsys fileSystem, path string) bool {
	data, err := fsys.ReadFile(path)
	if err != nil {
		return true // reported when loading
	}
	return bytes.HasPrefix(data, []byte("tests:")) || bytes.Contains(data, []byte("\ntests:"))
}
