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
		// The update's request body is the new CRD; the old one is stored.
		"CompileUpdate": func(b []byte) (*CRD, error) { return CompileUpdate(b, []byte(boundsCRD), UpdateOptions{}) },
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
	// a deadline that cannot pass however loaded the machine is
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
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
					ctx, cancel = context.WithTimeout(ctx, time.Hour) // cannot pass, loaded or not
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

// cancelAfter is a context that ends (context.Canceled) after its Err has
// been asked n times: a cancellation at a deterministic point of the work.
type cancelAfter struct {
	context.Context
	n, asked atomic.Int64
	done     chan struct{}
	once     sync.Once
}

func newCancelAfter(n int64) *cancelAfter {
	c := &cancelAfter{Context: context.Background(), done: make(chan struct{})}
	c.n.Store(n)
	return c
}

func (c *cancelAfter) Done() <-chan struct{} { return c.done }

func (c *cancelAfter) Err() error {
	if c.asked.Add(1) > c.n.Load() {
		c.once.Do(func() { close(c.done) })
		return context.Canceled
	}
	return nil
}

// rulesCRD is a CRD whose versions each have n CEL rules.
func rulesCRD(versions, n int) []byte {
	var b strings.Builder
	b.WriteString(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"rules.example.com"},"spec":{"group":"example.com","names":{"kind":"Rules","plural":"rules"},"scope":"Namespaced","versions":[`)
	for v := 0; v < versions; v++ {
		if v > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name":"v%d","served":true,"storage":%t,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"s":{"type":"string","maxLength":64}},"x-kubernetes-validations":[`, v+1, v == 0)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"rule":"self.s.size() != %d"}`, i+1000)
		}
		b.WriteString(`]}}}}}`)
	}
	b.WriteString(`]}}`)
	return []byte(b.String())
}

// TestCompileContextStopsBetweenRules: a context that ends while a
// 10,000-rule CRD compiles stops it at the next rule with the context's
// error; the context is asked about once per rule compiled, so the few
// questions asked show that the other rules were not compiled.
func TestCompileContextStopsBetweenRules(t *testing.T) {
	src := rulesCRD(1, 10000)
	ctx := newCancelAfter(50)
	start := time.Now()
	c, err := CompileContext(ctx, src, CompileOptions{})
	took := time.Since(start)
	if c != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("CompileContext = %v, %v; want context.Canceled", c, err)
	}
	if asked := ctx.asked.Load(); asked > 100 {
		t.Errorf("the context was asked %d times after it ended at the 51st: the compilation went on", asked)
	}
	// The whole compilation, for comparison: every rule compiles.
	full := newCancelAfter(1 << 40)
	start = time.Now()
	c, err = CompileContext(full, src, CompileOptions{})
	if err != nil || len(c.Errors()) > 0 {
		t.Fatalf("full compile: %v %v", err, c.Errors())
	}
	if asked := full.asked.Load(); asked < 10000 {
		t.Errorf("a full compile asked the context %d times, want once per rule at least", asked)
	}
	t.Logf("cancelled after 50 questions: %v; full 10,000-rule compile: %v (%d questions)", took, time.Since(start), full.asked.Load())
}

// TestCompileContextStopsBetweenVersions: a context that ends during the
// first of 20 versions' rules compiles none of the other versions' 3,800
// rules (the context is asked about once per rule compiled).
func TestCompileContextStopsBetweenVersions(t *testing.T) {
	src := rulesCRD(20, 200)
	ctx := newCancelAfter(10)
	if _, err := CompileContext(ctx, src, CompileOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	t.Logf("asked %d times", ctx.asked.Load())
	if asked := ctx.asked.Load(); asked > 40 {
		t.Errorf("the context was asked %d times: the versions after it ended were validated", asked)
	}
}
