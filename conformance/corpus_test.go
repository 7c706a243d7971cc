package conformance

import (
	"fmt"
	"github.com/crdlab/crdlab/internal/testsupport/testenv"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/conformance/upstream"
	"sigs.k8s.io/yaml"
)

var crdFileRE = regexp.MustCompile(`(?m)^kind: CustomResourceDefinition`)

// corpusCRD is one distinct CRD of the corpus.
type corpusCRD struct {
	doc     CorpusDoc
	channel string // gateway-api: "standard" or "experimental"
	cel     bool   // has x-kubernetes-validations
}

// request builds the compared request: the CRD as shipped, CEL rules
// included, and optionally an object.
func (c corpusCRD) request(object []byte) upstream.Request {
	return upstream.Request{CRD: c.doc.Data, Object: object}
}

// TestCorpus compares CRD validation (errors and warnings) for every CRD of
// the real-world corpus, and object validation for Gateway API's examples.
// CRDs are compared as shipped, with their x-kubernetes-validations: CEL
// compilation, cost limits and (for the examples) rule evaluation included.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus: skipped in -short mode")
	}
	dirs, err := CorpusDirs()
	if err != nil {
		fmt.Printf("conformance corpus: skipped: %v\n", err)
		testenv.Unavailable(t, "corpus unavailable: %v", err)
	}
	var crds []corpusCRD
	seen := map[string]bool{}
	skips := map[string][]string{}
	byGK := map[string]map[string]corpusCRD{} // channel -> group/kind -> crd
	var gatewayDir string
	for _, dir := range dirs {
		if strings.Contains(filepath.Base(dir), "gateway-api") {
			gatewayDir = dir
		}
		docs, err := ReadCorpusDocs(dir, crdFileRE)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, d := range docs {
			if d.SkipReason != "" {
				if strings.Contains(string(d.Data), "CustomResourceDefinition") {
					skips[d.SkipReason] = append(skips[d.SkipReason], d.Name)
				}
				continue
			}
			if d.Kind != "CustomResourceDefinition" {
				continue
			}
			if d.APIVersion != "apiextensions.k8s.io/v1" {
				skips["not apiextensions.k8s.io/v1"] = append(skips["not apiextensions.k8s.io/v1"], d.Name)
				continue
			}
			h := ContentHash(d.Data)
			c := corpusCRD{doc: d, channel: "standard"}
			if strings.Contains(d.Path, "experimental") {
				c.channel = "experimental"
			}
			c.cel = HasCEL(d.Data)
			gk := d.CRDGroup + "/" + d.CRDKind
			if byGK[c.channel] == nil {
				byGK[c.channel] = map[string]corpusCRD{}
			}
			if _, ok := byGK[c.channel][gk]; !ok {
				byGK[c.channel][gk] = c
			}
			if seen[h] {
				continue // an identical copy
			}
			seen[h] = true
			crds = append(crds, c)
		}
	}
	var tl tally
	for r, names := range skips {
		for _, n := range names {
			tl.skip(n, r)
		}
	}
	compare := func(t *testing.T, name string, c corpusCRD, object []byte) {
		ran := false
		ok := t.Run(name, func(t *testing.T) {
			ran = true
			compared := c.request(object)
			up := Deterministic(RunUpstream(compared))
			if *dump {
				t.Logf("upstream: err=%v\n%s", up.Err, pretty(up.Report))
			}
			cl := Deterministic(RunCrdlab(compared))
			if d := Compare(up, cl, func() Outcome { return Deterministic(RunUpstream(compared)) }); d != "" {
				t.Errorf("%s\n%s", c.doc.Name, d)
			}
		})
		if ran {
			tl.result(ok)
		}
	}
	t.Run("crds", func(t *testing.T) {
		for _, c := range crds {
			compare(t, c.doc.Name, c, nil)
		}
	})
	if gatewayDir != "" {
		t.Run("gateway-api-examples", func(t *testing.T) {
			docs, err := ReadCorpusDocs(filepath.Join(gatewayDir, "examples"), nil)
			if err != nil {
				t.Fatal(err)
			}
			sort.Slice(docs, func(i, j int) bool { return docs[i].Name < docs[j].Name })
			for _, d := range docs {
				if d.SkipReason != "" || !strings.HasPrefix(d.Group, "gateway.networking.") {
					continue
				}
				channel := "standard"
				if strings.Contains(d.Path, "experimental") {
					channel = "experimental"
				}
				c, ok := byGK[channel][d.Group+"/"+d.Kind]
				if !ok {
					c, ok = byGK["experimental"][d.Group+"/"+d.Kind]
				}
				if !ok {
					tl.skip(d.Name, "no CRD for "+d.APIVersion+" "+d.Kind)
					continue
				}
				js, err := yaml.YAMLToJSON(d.Data)
				if err != nil {
					tl.skip(d.Name, "example is not YAML")
					continue
				}
				compare(t, d.Name, c, js)
			}
		})
	}
	withCEL := 0
	for _, c := range crds {
		if c.cel {
			withCEL++
		}
	}
	tl.print(fmt.Sprintf("corpus (%d distinct CRDs, %d with CEL rules, compared with them)", len(crds), withCEL))
}
