package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const boundsCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "self.num >= 0"
            - rule: "self.l.all(a, self.l.all(b, a + b >= 0))"
            properties:
              num: {type: integer}
              s: {type: string}
              l: {type: array, maxItems: 100, items: {type: integer}}
`

func boundsObject(n int, s string) []byte {
	return []byte(fmt.Sprintf(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default"},"spec":{"num":%d,"s":%q,"l":[1,2,3]}}`, n, s))
}

func mustCompileBounds(t testing.TB) *CRD {
	t.Helper()
	c, err := Compile([]byte(boundsCRD))
	if err != nil || len(c.Errors()) > 0 {
		t.Fatalf("compile: %v %v", err, c.Errors())
	}
	return c
}

func TestRequestBodyLimit(t *testing.T) {
	c := mustCompileBounds(t)
	// The object document exactly at the limit is read; one byte more is not.
	base := len(boundsObject(1, ""))
	at := boundsObject(1, strings.Repeat("x", int(MaxRequestBodyBytes)-base))
	if len(at) != int(MaxRequestBodyBytes) {
		t.Fatalf("test object is %d bytes", len(at))
	}
	res, err := c.Validate(at, ValidateOptions{})
	if err != nil || !res.Valid() {
		t.Fatalf("object at the limit: %v %+v", err, res)
	}
	over := boundsObject(1, strings.Repeat("x", int(MaxRequestBodyBytes)-base+1))
	const want = "Request entity too large: limit is 3145728"
	for name, validate := range map[string]func() (*Result, error){
		"CRD.Validate": func() (*Result, error) { return c.Validate(over, ValidateOptions{}) },
		"Validator.Validate": func() (*Result, error) {
			v, _ := c.Validator("v1")
			return v.Validate(over, ValidateOptions{})
		},
	} {
		res, err := validate()
		if err != nil || res.DecodeError != want || res.Object != nil || len(res.Errors) != 0 {
			t.Errorf("%s over the limit: %v %+v, want DecodeError %q", name, err, res, want)
		}
	}
	// Misuse is still an error.
	if _, err := c.Validate(over, ValidateOptions{Version: "v9"}); err == nil {
		t.Errorf("unserved version over the limit: no error")
	}
	// MaxBodyBytes changes the limit, a negative one lifts it.
	if res, _ := c.Validate(at, ValidateOptions{MaxBodyBytes: 1000}); res == nil || res.DecodeError != "Request entity too large: limit is 1000" {
		t.Errorf("MaxBodyBytes 1000: %+v", res)
	}
	if res, err := c.Validate(over, ValidateOptions{MaxBodyBytes: -1}); err != nil || !res.Valid() {
		t.Errorf("MaxBodyBytes -1: %v %+v", err, res)
	}
	// A CRD over the limit is not decoded.
	big := []byte(boundsCRD + "#" + strings.Repeat("x", int(MaxRequestBodyBytes)) + "\n")
	for name, compile := range map[string]func([]byte) (*CRD, error){
		"Compile":        Compile,
		"CompileContext": func(b []byte) (*CRD, error) { return CompileContext(context.Background(), b, CompileOptions{}) },
	} {
		_, err := compile(big)
		var tooLarge *RequestEntityTooLargeError
		if !errors.As(err, &tooLarge) || err.Error() != want {
			t.Errorf("%s over the limit: %v", name, err)
		}
	}
}

// endingContext ends after its Err has been asked `after` times: it stands
// for a deadline that passes in the middle of a validation.
type endingContext struct {
	context.Context
	after int32
	asked atomic.Int32
	done  chan struct{}
	once  sync.Once
}

func newEndingContext(after int32) *endingContext {
	return &endingContext{Context: context.Background(), after: after, done: make(chan struct{})}
}

func (c *endingContext) Done() <-chan struct{} { return c.done }
func (c *endingContext) Err() error {
	if c.asked.Add(1) > c.after {
		c.once.Do(func() { close(c.done) })
		return context.DeadlineExceeded
	}
	return nil
}

func TestValidateContext(t *testing.T) {
	c := mustCompileBounds(t)
	obj := boundsObject(-1, "")
	// The deadline passes before the second rule: it is named, the first
	// rule's error stands, no further rule runs.
	res, err := c.ValidateContext(newEndingContext(3), obj, ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(res.Errors)
	want := `[spec: Invalid value: failed rule: self.num >= 0 spec: Invalid value: "object": x-kubernetes-validations[1]: operation interrupted: context deadline exceeded, no further validation rules will be run for rule: self.l.all(a, self.l.all(b, a + b >= 0))]`
	if got != want {
		t.Errorf("interrupted:\n got %s\nwant %s", got, want)
	}
	// The next object validates normally, with or without a context.
	for _, ctx := range []context.Context{context.Background(), context.TODO()} {
		res, err = c.ValidateContext(ctx, boundsObject(1, ""), ValidateOptions{})
		if err != nil || !res.Valid() {
			t.Errorf("next object: %v %+v", err, res)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if res, err = c.ValidateContext(ctx, boundsObject(1, ""), ValidateOptions{}); err != nil || !res.Valid() {
		t.Errorf("with a deadline: %v %+v", err, res)
	}
	// A context that has ended: nothing runs, the error is the context's.
	done, cancelDone := context.WithCancel(context.Background())
	cancelDone()
	if _, err := c.ValidateContext(done, obj, ValidateOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := CompileContext(done, []byte(boundsCRD), CompileOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("CompileContext cancelled: %v", err)
	}
	// The context ends after the rules (schema validation has no rule to
	// name): the error is the context's.
	v, _ := c.Validator("")
	if _, err := v.ValidateContext(newEndingContext(1), []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"default"},"spec":{"s":1}}`), ValidateOptions{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("ended outside the rules: %v", err)
	}
}

// TestConcurrentValidate validates from 64 goroutines at once (run with
// -race): one compiled CRD is safe for concurrent use, results do not mix.
func TestConcurrentValidate(t *testing.T) {
	c := mustCompileBounds(t)
	const goroutines, perGoroutine = 64, 20
	var wg sync.WaitGroup
	errc := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < perGoroutine; i++ {
				n := g*perGoroutine + i
				if g%2 == 1 {
					n = -n - 1 // odd goroutines send invalid objects
				}
				ctx := context.Background()
				if i%2 == 1 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, time.Minute)
					defer cancel()
				}
				res, err := c.ValidateContext(ctx, boundsObject(n, fmt.Sprint(n)), ValidateOptions{})
				if err != nil {
					errc <- err
					return
				}
				spec := res.Object.(map[string]interface{})["spec"].(map[string]interface{})
				if spec["s"] != fmt.Sprint(n) || res.Valid() != (n >= 0) {
					errc <- fmt.Errorf("goroutine %d object %d: got s=%v valid=%v errors %v", g, n, spec["s"], res.Valid(), res.Errors)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
}
