package apply

import (
	"testing"
)

// FuzzParseSteps: any steps file gives steps or a *StepError, never a
// panic.
func FuzzParseSteps(f *testing.F) {
	f.Add([]byte("- manager: a\n  operation: Apply\n  object: {apiVersion: v1, kind: X}\n"))
	f.Add([]byte("- {operation: Delete}\n- {operation: Update, object: \"kind: X\"}\n"))
	f.Add([]byte("[{manager: a, operation: Apply, force: true, subresource: status, object: {a: [1, {b: null}]}}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		steps, err := ParseSteps(data)
		if err != nil {
			if _, ok := err.(*StepError); !ok {
				t.Fatalf("error %T: %v", err, err)
			}
			return
		}
		if len(steps) == 0 {
			t.Fatal("no steps and no error")
		}
	})
}

// FuzzRun: any applied or updated object is answered (a result per step)
// without a panic or an internal error.
func FuzzRun(f *testing.F) {
	f.Add([]byte(`{"set":["a"],"items":[{"name":"x","v":1}],"free":{"q":[1]}}`), []byte(`{"set":["b"]}`), false)
	f.Add([]byte(`{"items":[{"name":"x","v":2},{"name":"y"}]}`), []byte(`{"items":[{"name":"x"}],"free":null}`), true)
	f.Fuzz(func(t *testing.T, a, b []byte, force bool) {
		c := freeCRD(t)
		wrap := func(body []byte) []byte {
			return append([]byte(`{"apiVersion":"stable.example.com/v1","kind":"Thing","metadata":{"name":"t","namespace":"default"},"spec":`), append(body, '}')...)
		}
		rep, err := Run(c, nil, []Step{
			{Manager: "a", Operation: Apply, Object: wrap(a)},
			{Manager: "b", Operation: Update, Object: wrap(b)},
			{Manager: "c", Operation: Apply, Force: force, Object: wrap(b)},
		}, Options{FieldValidation: "Ignore"})
		if err != nil {
			return // the update's object did not parse: misuse, reported
		}
		if len(rep.Steps) != 3 {
			t.Fatalf("%d results", len(rep.Steps))
		}
	})
}
