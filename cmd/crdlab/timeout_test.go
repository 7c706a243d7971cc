package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/crdlab/crdlab/internal/limits"
)

// The default per-object timeout is the API server's request timeout (its
// equality with upstream's is checked by the conformance module's
// TestRequestTimeoutIsTheAPIServers), and --engine wasm gets it scaled by
// the module's measured slowness against the native engine: with the
// native default it answered "context deadline exceeded" where the API
// server (and the native engine) answers the cost budget error.
func TestDefaultTimeoutsLeaveBothRuntimesTheAPIServersAnswer(t *testing.T) {
	if apiServer := time.Duration(limits.RequestTimeoutSeconds) * time.Second; defaultTimeout != apiServer {
		t.Errorf("defaultTimeout = %v, want the API server's request timeout, %v", defaultTimeout, apiServer)
	}
	// CPU seconds on the conformance case runtime-per-object-budget (rules
	// that exhaust the 10M runtime budget): RATIONALE.md.
	const native, wasm = 3.36, 33.33
	// Whatever input the native engine answers within its default, the
	// module answers within its own at the same machine load.
	if need := defaultTimeout.Seconds() * wasm / native; need > (defaultTimeout * wasmTimeoutFactor).Seconds() {
		t.Errorf("wasm: %.0fs needed for the native default's answers, %v given", need, defaultTimeout*wasmTimeoutFactor)
	}
}

// --timeout resolves, for every command that has it, to the default
// natively, to wasmTimeoutFactor times it under --engine wasm, and to the
// value given whenever it is given (0 included).
func TestTimeoutFlagUnderEachEngine(t *testing.T) {
	for _, name := range []string{"validate", "cost", "bench"} {
		c := commands[name]
		for _, tc := range []struct {
			args []string
			want time.Duration
		}{
			{nil, time.Minute},
			{[]string{"--engine", "native"}, time.Minute},
			{[]string{"--engine", "wasm"}, 10 * time.Minute},
			{[]string{"--engine", "WASM"}, 10 * time.Minute},
			{[]string{"--engine", "wasm", "--timeout", "10s"}, 10 * time.Second},
			{[]string{"--engine", "wasm", "--timeout", "1m"}, time.Minute},
			{[]string{"--timeout", "0", "--engine", "wasm"}, 0},
		} {
			fs := newFlags(c)
			c.flags(fs)
			var out bytes.Buffer
			if code := parseFlags(c, fs, tc.args, &out, &out); code >= 0 {
				t.Fatalf("%s %v: exit %d: %s", name, tc.args, code, out.String())
			}
			got, err := fs.GetDuration("timeout")
			if err != nil || got != tc.want {
				t.Errorf("%s %v: --timeout %v (%v), want %v", name, tc.args, got, err, tc.want)
			}
		}
	}
}
