package abi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/wire"
)

func TestDeadlineContextReadsTheClock(t *testing.T) {
	if ctx := withTimeout(0); ctx.Done() != nil {
		t.Errorf("timeoutMs 0: the context can end")
	}
	ctx := withTimeout(30)
	if _, ok := ctx.Deadline(); !ok || ctx.Err() != nil {
		t.Fatalf("fresh deadline: %v", ctx.Err())
	}
	select {
	case <-ctx.Done():
		t.Fatal("done before the deadline")
	default:
	}
	time.Sleep(40 * time.Millisecond)
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatalf("after the deadline: %v", ctx.Err())
	}
	select {
	case <-ctx.Done():
	default:
		t.Fatal("Done not closed once Err saw the deadline")
	}
}

func TestRequestLimits(t *testing.T) {
	s := NewServer()
	// A CRD body over 3 MiB is refused before decoding.
	big := crd + "#" + strings.Repeat("x", int(engine.MaxRequestBodyBytes)) + "\n"
	env := call(t, s, request(t, map[string]interface{}{"op": "compile", "crd": big}))
	if env.Error == nil || env.Error.Code != wire.CodeDecodeError || env.Error.Message != "Request entity too large: limit is 3145728" {
		t.Fatalf("big CRD: %+v", env.Error)
	}
	env = call(t, s, request(t, map[string]interface{}{"op": "compile", "crd": crd, "timeoutMs": 60000}))
	if env.Error != nil {
		t.Fatal(env.Error)
	}
	var compiled wire.CompileResult
	mustDecode(t, env.Result, &compiled)
	// An object over 3 MiB: the API server's 413 message as decodeError.
	obj := `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x"},"spec":{"pad":"` + strings.Repeat("p", int(engine.MaxRequestBodyBytes)) + `"}}`
	env = call(t, s, request(t, map[string]interface{}{"op": "validate", "handle": compiled.Handle, "object": obj, "timeoutMs": 60000}))
	var rep wire.Report
	mustDecode(t, env.Result, &rep)
	if rep.Object == nil || rep.Object.DecodeError != "Request entity too large: limit is 3145728" {
		t.Fatalf("big object: %+v", rep.Object)
	}
	// A result too large to render is refused with ResponseTooLarge.
	res := &engine.Result{}
	for i := 0; i < 100; i++ {
		res.Warnings = append(res.Warnings, strings.Repeat("w", 1<<20))
	}
	if n := reportSize(res); n <= MaxResponseBytes {
		t.Fatalf("reportSize of 100 MiB of warnings: %d", n)
	}
}

func TestTimeoutCode(t *testing.T) {
	e := engineError(wire.CodeInvalid, fmt.Errorf("validating the object: %w", context.DeadlineExceeded))
	if e.Code != wire.CodeTimeout {
		t.Errorf("deadline error: code %s", e.Code)
	}
	if e := engineError(wire.CodeInvalid, errors.New("version \"v9\" is not served")); e.Code != wire.CodeInvalid {
		t.Errorf("misuse: code %s", e.Code)
	}
}

func mustDecode(t *testing.T, raw []byte, v interface{}) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%v: %.300s", err, raw)
	}
}
