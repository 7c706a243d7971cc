package apply

import (
	"errors"
	"fmt"

	sigsyaml "sigs.k8s.io/yaml"
	yaml "sigs.k8s.io/yaml/goyaml.v3"
)

// Limits of a steps file: beyond them ParseSteps refuses it (a clear error
// rather than unbounded work).
const (
	// MaxSteps is the most steps a file may hold.
	MaxSteps = 1000
	// MaxStepsBytes is the largest steps file, in bytes.
	MaxStepsBytes = 16 << 20
	// maxDepth bounds the nesting of a step's object.
	maxDepth = 100
)

// StepError is a problem in a steps file, at a 1-based line.
type StepError struct {
	Line int
	Msg  string
}

func (e *StepError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// ParseSteps reads a steps file: a YAML (or JSON) list of
// {manager, operation: Apply|Update|Delete, force, subresource, object}
// (docs/apply-steps.schema.json). Errors are *StepError with the line of
// the offending node.
func ParseSteps(data []byte) ([]Step, error) {
	if len(data) > MaxStepsBytes {
		return nil, &StepError{Msg: fmt.Sprintf("the steps file is %d bytes, more than the %d allowed", len(data), MaxStepsBytes)}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return nil, &StepError{Msg: err.Error()}
		}
		return nil, &StepError{Msg: fmt.Sprintf("not YAML: %v", err)}
	}
	if doc.Kind == 0 {
		return nil, &StepError{Line: 1, Msg: "no steps: want a list of {manager, operation, force, subresource, object}"}
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.SequenceNode {
		return nil, &StepError{Line: root.Line, Msg: "want a list of steps ({manager, operation, force, subresource, object})"}
	}
	if len(root.Content) == 0 {
		return nil, &StepError{Line: root.Line, Msg: "no steps"}
	}
	if len(root.Content) > MaxSteps {
		return nil, &StepError{Line: root.Line, Msg: fmt.Sprintf("%d steps, more than the %d allowed", len(root.Content), MaxSteps)}
	}
	steps := make([]Step, 0, len(root.Content))
	for i, n := range root.Content {
		s, err := parseStep(n, i+1)
		if err != nil {
			return nil, err
		}
		steps = append(steps, s)
	}
	return steps, nil
}

func parseStep(n *yaml.Node, index int) (Step, error) {
	var s Step
	fail := func(at *yaml.Node, format string, args ...interface{}) (Step, error) {
		return s, &StepError{Line: at.Line, Msg: fmt.Sprintf("step %d: ", index) + fmt.Sprintf(format, args...)}
	}
	if n.Kind != yaml.MappingNode {
		return fail(n, "want a mapping {manager, operation, force, subresource, object}")
	}
	seen := map[string]bool{}
	var object *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			return fail(k, "duplicate field %q", k.Value)
		}
		seen[k.Value] = true
		str := func() (string, error) {
			if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
				_, err := fail(v, "%s: want a string", k.Value)
				return "", err
			}
			return v.Value, nil
		}
		var err error
		switch k.Value {
		case "manager":
			s.Manager, err = str()
		case "operation":
			var op string
			if op, err = str(); err == nil {
				switch Operation(op) {
				case Apply, Update, Delete:
					s.Operation = Operation(op)
				default:
					return fail(v, "operation %q: want Apply, Update or Delete", op)
				}
			}
		case "force":
			if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
				return fail(v, "force: want true or false")
			}
			s.Force = v.Value == "true"
		case "subresource":
			if s.Subresource, err = str(); err == nil && s.Subresource != "" && s.Subresource != "status" {
				return fail(v, "subresource %q: want \"\" or \"status\"", s.Subresource)
			}
		case "object":
			object = v
		default:
			return fail(k, "unknown field %q (want manager, operation, force, subresource, object)", k.Value)
		}
		if err != nil {
			return s, err
		}
	}
	if s.Operation == "" {
		return fail(n, "operation is required (Apply, Update or Delete)")
	}
	if s.Operation == Apply && s.Manager == "" {
		return fail(n, "an Apply needs a manager (the API server requires fieldManager for apply)")
	}
	if s.Operation == Delete {
		return s, nil
	}
	if object == nil {
		return fail(n, "object is required for %s", s.Operation)
	}
	if object.Kind == yaml.ScalarNode && object.Tag == "!!str" {
		// a block scalar holding the object's YAML
		var inner yaml.Node
		if err := yaml.Unmarshal([]byte(object.Value), &inner); err != nil {
			return fail(object, "object: not YAML: %v", err)
		}
		if len(inner.Content) != 1 || inner.Content[0].Kind != yaml.MappingNode {
			return fail(object, "object: want a YAML object")
		}
		object = inner.Content[0]
		if d := depth(object, 0); d > maxDepth {
			return fail(n, "object: nested deeper than %d levels", maxDepth)
		}
		s.Object = []byte(objectValue(n, index, object))
		return s, nil
	}
	if object.Kind != yaml.MappingNode {
		return fail(object, "object: want a mapping (or a block scalar holding one)")
	}
	if d := depth(object, 0); d > maxDepth {
		return fail(object, "object: nested deeper than %d levels", maxDepth)
	}
	js := objectValue(n, index, object)
	if js == "" {
		return fail(object, "object: cannot be converted to JSON")
	}
	s.Object = []byte(js)
	return s, nil
}

func depth(n *yaml.Node, d int) int {
	if d > maxDepth {
		return d
	}
	max := d
	for _, c := range n.Content {
		if x := depth(c, d+1); x > max {
			max = x
			if max > maxDepth {
				return max
			}
		}
	}
	return max
}

// objectValue renders a mapping node as the JSON body kubectl sends (its
// YAML converted by sigs.k8s.io/yaml, as kubectl converts it).
func objectValue(_ *yaml.Node, _ int, n *yaml.Node) string {
	y, err := yaml.Marshal(n)
	if err != nil {
		return ""
	}
	b, err := sigsyaml.YAMLToJSON(y)
	if err != nil {
		return ""
	}
	return string(b)
}
