package conformance

import (
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine"
)

var kubeVersions = flag.Bool("kube-versions", false, "run TestVersionCases: the cases at every supported Kubernetes release against its oracle (make conformance-versions)")

// TestVersionCases runs every case through the oracle of every Kubernetes
// release crdlab supports besides the default one (conformance/versions,
// built with that release's modules) and through crdlab at that release
// (engine.CompileOptions.KubeVersion), and compares them as TestCases
// does. crdlab compiles through one engine.CompileShare for every release
// (first filled at the default release), as a --kube-version matrix does,
// so that the differential covers the sharing too. Subtests are named <release>/<file>/<case>. The oracles of the
// releases not yet supported are not run here (see `make versions-report`).
func TestVersionCases(t *testing.T) {
	if !*kubeVersions {
		t.Skip("builds one oracle per release (minutes on a cold build cache): run with -kube-versions (make conformance-versions)")
	}
	cases, err := LoadCases("testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	versions, err := OracleVersions("versions")
	if err != nil {
		t.Fatal(err)
	}
	supported := engine.SupportedKubeVersions()
	share := engine.NewCompileShare()
	for _, c := range cases {
		RunCrdlabShared(c.Request, engine.DefaultKubeVersion, share)
	}
	ran := 0
	for _, v := range versions {
		if v.Name() == engine.DefaultKubeVersion || !slices.Contains(supported, v.Name()) {
			continue
		}
		ran++
		t.Run(v.Name(), func(t *testing.T) {
			t.Parallel()
			bin := filepath.Join(t.TempDir(), "oracle")
			if err := BuildOracle(v, bin); err != nil {
				t.Fatal(err)
			}
			o, err := StartOracle(bin)
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close()
			if !strings.HasPrefix(o.Hello.Apiextensions, fmt.Sprintf("v0.%d.", v.Minor)) {
				t.Fatalf("the %s oracle runs k8s.io/apiextensions-apiserver %s", v.Name(), o.Hello.Apiextensions)
			}
			var tl tally
			for _, c := range cases {
				skipped := false
				ok := t.Run(c.ID, func(t *testing.T) {
					switch {
					case c.KnownDifference != "":
						skipped = true
						tl.skip(c.ID, "known difference: "+c.KnownDifference)
						t.Skip(c.KnownDifference)
					case c.Skip != "":
						skipped = true
						tl.skip(c.ID, c.Skip)
						t.Skip(c.Skip)
					case c.KnownDifferenceAt[v.Name()] != "":
						skipped = true
						why := c.KnownDifferenceAt[v.Name()]
						tl.skip(c.ID, "known difference at "+v.Name()+": "+why)
						t.Skip(why)
					}
					canon := func(o Outcome) Outcome { return CanonicalPointers(Deterministic(o)) }
					up := canon(o.Run(c.ID, c.Request))
					cl := canon(RunCrdlabShared(c.Request, v.Name(), share))
					if d := Compare(up, cl, func() Outcome { return canon(o.Run(c.ID, c.Request)) }); d != "" {
						t.Errorf("%s (Kubernetes %s)\n%s", c.Description, v.Name(), d)
					}
				})
				if !skipped {
					tl.result(ok)
				}
			}
			tl.print(fmt.Sprintf("cases at Kubernetes %s (%d)", v.Name(), len(cases)))
		})
	}
	if ran == 0 {
		t.Logf("no release besides %s is supported", engine.DefaultKubeVersion)
	}
}

func TestOracleToolchainReadsTheToolchainLine(t *testing.T) {
	tests := []struct {
		name, gomod, want string
	}{
		{"no toolchain line", "module m\n\ngo 1.26.0\n\ngodebug default=go1.26\n", ""},
		{"toolchain line", "module m\n\ngo 1.27.0\n\ntoolchain go1.27.3\n\ngodebug default=go1.27\n", "go1.27.3"},
		{"toolchain word in a comment only", "// toolchain go1.27.3\nmodule m\n", ""},
		{"malformed toolchain", "module m\ntoolchain default\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := OracleToolchain([]byte(tt.gomod)); got != tt.want {
				t.Errorf("OracleToolchain = %q, want %q", got, tt.want)
			}
		})
	}
}
