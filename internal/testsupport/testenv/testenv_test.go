package testenv

import (
	"fmt"
	"testing"
)

type recorder struct {
	skipped, failed string
}

func (r *recorder) Helper()           {}
func (r *recorder) Skip(args ...any)  { r.skipped = fmt.Sprint(args...) }
func (r *recorder) Fatal(args ...any) { r.failed = fmt.Sprint(args...) }

func TestUnavailableSkipsOutsideCIAndFailsInCI(t *testing.T) {
	for _, tt := range []struct {
		ci       string
		set      bool
		wantFail bool
	}{
		{set: false},
		{ci: "false", set: true},
		{ci: "0", set: true},
		{ci: "true", set: true, wantFail: true},
		{ci: "1", set: true, wantFail: true},
		{ci: "yes", set: true, wantFail: true},
	} {
		t.Run(fmt.Sprintf("CI=%q,set=%v", tt.ci, tt.set), func(t *testing.T) {
			if tt.set {
				t.Setenv("CI", tt.ci)
			} else {
				t.Setenv("CI", "")
				// t.Setenv cannot unset; an empty value must count as unset.
			}
			var r recorder
			Unavailable(&r, "corpus: %s", "offline")
			if tt.wantFail {
				if r.failed == "" || r.skipped != "" {
					t.Fatalf("in CI: skipped %q, failed %q; want a failure", r.skipped, r.failed)
				}
				if want := "unavailable in CI, where every input must be fetched or built: corpus: offline"; r.failed != want {
					t.Errorf("failure %q, want %q", r.failed, want)
				}
				return
			}
			if r.skipped != "corpus: offline" || r.failed != "" {
				t.Fatalf("outside CI: skipped %q, failed %q; want the skip", r.skipped, r.failed)
			}
		})
	}
}
