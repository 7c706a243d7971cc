package tsdecl

import (
	"reflect"
	"strings"
	"testing"
)

type sample struct {
	Name   string `json:"name"`
	Line   int    `json:"line,omitempty"`
	Hidden string `json:"-"`
	inner  int
}

// recorder is a testing.TB that keeps the errors instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...interface{}) {
	r.errs = append(r.errs, format)
}

// TestCheckInterface: members must equal the JSON fields, optional exactly
// where Go omits empty ones; a missing interface is an error too.
func TestCheckInterface(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		errs      int
	}{
		{"equal", "export interface Sample {\n  readonly name: string;\n  line?: number;\n}\n", 0},
		{"optional where Go always writes it", "export interface Sample {\n  name?: string;\n  line?: number;\n}\n", 1},
		{"required where Go omits it", "export interface Sample {\n  name: string;\n  line: number;\n}\n", 1},
		{"member Go does not have", "export interface Sample {\n  name: string;\n  line?: number;\n  hidden: string;\n}\n", 1},
		{"no interface", "export interface Other {\n  name: string;\n}\n", 1},
	} {
		r := &recorder{TB: t}
		CheckInterface(r, tc.src, "Sample", reflect.TypeOf(sample{}))
		if len(r.errs) != tc.errs {
			t.Errorf("%s: %d errors (%s), want %d", tc.name, len(r.errs), strings.Join(r.errs, "; "), tc.errs)
		}
	}
}
