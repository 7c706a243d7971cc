package crdtest

import (
	"os"
	"testing"
)

// TestDefaultKubeVersionIsTheReleaseOfSuitesThatNameNone: the release of a
// suite is Options.KubeVersion, else the suite's kubeVersion, else
// Options.DefaultKubeVersion (crdlab test's .crdlab.yaml), else the
// default. gadgets-crd.yaml's rule is over the cost budget at 1.35, so
// every case of a suite run at 1.35 fails with the CRD's errors.
func TestDefaultKubeVersionIsTheReleaseOfSuitesThatNameNone(t *testing.T) {
	crd, err := os.ReadFile("../examples/kube-versions/gadgets-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	suite := func(kubeVersion string) []byte {
		s := "name: Gadget\ncrd: gadgets-crd.yaml\n"
		if kubeVersion != "" {
			s += "kubeVersion: \"" + kubeVersion + "\"\n"
		}
		return []byte(s + `tests:
  onCreate:
  - name: a gadget is created
    initial: |
      apiVersion: example.com/v1
      kind: Gadget
      spec: {}
`)
	}
	tests := []struct {
		name                     string
		suiteVersion             string
		opts                     Options
		wantPassed, wantFailures int
	}{
		{name: "the default release", wantPassed: 1},
		{name: "DefaultKubeVersion for a suite naming none", opts: Options{DefaultKubeVersion: "1.35"}, wantFailures: 1},
		{name: "the suite's kubeVersion over DefaultKubeVersion", suiteVersion: "1.37", opts: Options{DefaultKubeVersion: "1.35"}, wantPassed: 1},
		{name: "KubeVersion over the suite's", suiteVersion: "1.37", opts: Options{KubeVersion: "1.35", DefaultKubeVersion: "1.37"}, wantFailures: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := RunFiles(map[string][]byte{"gadgets-crd.yaml": crd, "gadgets.crdtest.yaml": suite(tt.suiteVersion)}, tt.opts, ".")
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.LoadErrors) > 0 {
				t.Fatalf("load errors: %+v", rep.LoadErrors)
			}
			passed, failed := rep.Counts()
			if passed != tt.wantPassed || failed != tt.wantFailures {
				t.Errorf("passed %d, failed %d; want %d, %d: %+v", passed, failed, tt.wantPassed, tt.wantFailures, rep.Results)
			}
		})
	}
}
