// Package testenv is the test suites' one rule for inputs that come from
// outside the checkout (the Go module proxy, a built WebAssembly module,
// git): where one is unavailable a developer's run skips the test with the
// reason, and a CI run (CI set, as CI systems and .ci/run set it) fails, so
// that CI cannot pass by skipping what a new machine could not fetch.
// No test installs or reuses a build of github.com/crdlab/crdlab from a
// shared cache (RATIONALE.md, "Tests on a new machine").
package testenv

import (
	"fmt"
	"os"
	"strconv"
)

// TB is the part of testing.TB that Unavailable uses.
type TB interface {
	Helper()
	Skip(args ...any)
	Fatal(args ...any)
}

// InCI reports whether the tests run in CI: the CI variable is set and not
// false (CI=true, CI=1), as GitHub Actions, GitLab and .ci/run set it.
func InCI() bool {
	v := os.Getenv("CI")
	if v == "" {
		return false
	}
	b, err := strconv.ParseBool(v)
	return err != nil || b // CI=yes and other non-boolean values count as set
}

// Unavailable skips t, saying what is missing, or fails it in CI.
func Unavailable(t TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		t.Fatal("unavailable in CI, where every input must be fetched or built: " + msg)
		return
	}
	t.Skip(msg)
}
