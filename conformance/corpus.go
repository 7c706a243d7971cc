package conformance

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/internal/testsupport/corpus"
	"github.com/crdlab/crdlab/internal/yamldoc"
)

// DefaultFetchScript downloads the real-world corpus (Gateway API, Istio,
// Cluster API, cert-manager, Prometheus Operator, Kyverno, Argo CD) through
// the Go module proxy and prints one module directory per line. The path is
// relative to the repository root, which CorpusDirs finds by walking up from
// the working directory (a test's package directory).
const DefaultFetchScript = corpus.Script

// CorpusDirs returns the corpus directories: $CRDLAB_CORPUS (separated by
// the OS path list separator) or the output of the fetch script
// ($CRDLAB_CORPUS_FETCH, default the repository's DefaultFetchScript). See
// internal/testsupport/corpus.
func CorpusDirs() ([]string, error) {
	return corpus.Dirs(corpus.Options{})
}

// CorpusDoc is one YAML document of a corpus file.
type CorpusDoc struct {
	Name string // <module dir base>/<relative path>#<doc index>
	Path string
	Data []byte
	// SkipReason, when set, says why the document is not used.
	SkipReason string
	APIVersion string
	Kind       string
	Group      string // of an object: apiVersion's group
	// CRD fields (kind CustomResourceDefinition)
	CRDGroup, CRDKind string
}

// SplitDocs splits a multi-document YAML file as kubectl does (see
// internal/yamldoc) and drops the documents holding only blank lines and
// comments.
func SplitDocs(data []byte) ([][]byte, error) {
	docs, err := yamldoc.Split(data)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, d := range docs {
		if !yamldoc.Empty(d.Data) {
			out = append(out, d.Data)
		}
	}
	return out, nil
}

// ReadCorpusDocs reads the YAML documents of every *.yaml/*.yml file under
// dir whose text matches want (nil: every file).
func ReadCorpusDocs(dir string, want *regexp.Regexp) ([]CorpusDoc, error) {
	var out []CorpusDoc
	base := filepath.Base(dir)
	if regexp.MustCompile(`^v[0-9]+@`).MatchString(base) { // e.g. argo-cd/v3@v3.5.0
		base = filepath.Base(filepath.Dir(dir)) + "/" + base
	}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if ext := filepath.Ext(p); ext != ".yaml" && ext != ".yml" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if want != nil && !want.Match(data) {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		docs, err := SplitDocs(data)
		if err != nil {
			out = append(out, CorpusDoc{Name: fmt.Sprintf("%s/%s#0", base, rel), Path: p, Data: data, SkipReason: "not a YAML stream: " + err.Error()})
			return nil
		}
		for i, doc := range docs {
			cd := CorpusDoc{Name: fmt.Sprintf("%s/%s#%d", base, rel, i), Path: p, Data: doc}
			if isTemplate(doc) {
				cd.SkipReason = "template ({{ ... }})"
				out = append(out, cd)
				continue
			}
			var head struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
				Spec       struct {
					Group string `json:"group"`
					Names struct {
						Kind string `json:"kind"`
					} `json:"names"`
				} `json:"spec"`
			}
			if err := yaml.Unmarshal(doc, &head); err != nil {
				cd.SkipReason = "not YAML: " + firstLine(err.Error())
				out = append(out, cd)
				continue
			}
			cd.APIVersion, cd.Kind = head.APIVersion, head.Kind
			if i := strings.Index(head.APIVersion, "/"); i >= 0 {
				cd.Group = head.APIVersion[:i]
			}
			cd.CRDGroup, cd.CRDKind = head.Spec.Group, head.Spec.Names.Kind
			out = append(out, cd)
		}
		return nil
	})
	return out, err
}

// templateLine is a line holding a template directive (Helm, Go templates)
// rather than YAML; "{{" inside a YAML string (e.g. a description) is fine.
var templateLine = regexp.MustCompile(`(?m)^\s*(- )?\{\{|:\s*\{\{`)

func isTemplate(doc []byte) bool {
	if !bytes.Contains(doc, []byte("{{")) {
		return false
	}
	if templateLine.Match(doc) {
		return true
	}
	var v interface{}
	return yaml.Unmarshal(doc, &v) != nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// ContentHash identifies identical documents (the corpus ships copies).
func ContentHash(b []byte) string {
	h := sha256.Sum256(bytes.TrimSpace(b))
	return fmt.Sprintf("%x", h[:8])
}

// HasCEL reports whether a CRD uses x-kubernetes-validations.
func HasCEL(crd []byte) bool {
	return bytes.Contains(crd, []byte("x-kubernetes-validations"))
}

// StripCEL returns the CRD (as JSON) without its x-kubernetes-validations.
// The suites compare CRDs with their rules; this is kept as a tool to
// minimize a corpus difference to its CEL or non-CEL part.
func StripCEL(crd []byte) ([]byte, error) {
	js, err := yaml.YAMLToJSON(crd)
	if err != nil {
		return nil, err
	}
	var v interface{}
	if err := json.Unmarshal(js, &v); err != nil {
		return nil, err
	}
	stripCEL(v, false)
	return json.Marshal(v)
}

// stripCEL deletes x-kubernetes-validations keys of schema objects; the keys
// of a properties map are property names, not keywords.
func stripCEL(v interface{}, inProperties bool) {
	switch v := v.(type) {
	case map[string]interface{}:
		if !inProperties {
			delete(v, "x-kubernetes-validations")
		}
		for k, c := range v {
			stripCEL(c, !inProperties && (k == "properties" || k == "patternProperties" || k == "definitions"))
		}
	case []interface{}:
		for _, c := range v {
			stripCEL(c, false)
		}
	}
}

// CorpusFileRE selects the files that hold a CRD.
var CorpusFileRE = regexp.MustCompile(`(?m)^kind: CustomResourceDefinition`)

// CorpusCRD is one distinct CRD of the corpus (identical copies dropped).
type CorpusCRD struct {
	Doc     CorpusDoc
	Channel string // gateway-api: "standard" or "experimental"
	CEL     bool   // has x-kubernetes-validations
}

// Request is the compared request: the CRD as shipped, CEL rules included,
// and optionally an object.
func (c CorpusCRD) Request(object []byte) upstream.Request {
	return upstream.Request{CRD: c.Doc.Data, Object: object}
}

// CorpusExample is one of Gateway API's example objects, with the CRD of its
// kind in its channel (the standard one when its channel has none).
type CorpusExample struct {
	Doc    CorpusDoc
	CRD    CorpusCRD
	Object []byte // JSON
}

// Corpus is the corpus's CRDs and examples, and what was left out
// (reason -> document names).
type Corpus struct {
	CRDs     []CorpusCRD
	Examples []CorpusExample
	Skips    map[string][]string
}

// LoadCorpus reads the CRDs of every corpus directory and the example
// objects of Gateway API's.
func LoadCorpus(dirs []string) (*Corpus, error) {
	c := &Corpus{Skips: map[string][]string{}}
	seen := map[string]bool{}
	byGK := map[string]map[string]CorpusCRD{} // channel -> group/kind -> crd
	var gatewayDir string
	for _, dir := range dirs {
		if strings.Contains(filepath.Base(dir), "gateway-api") {
			gatewayDir = dir
		}
		docs, err := ReadCorpusDocs(dir, CorpusFileRE)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", dir, err)
		}
		for _, d := range docs {
			if d.SkipReason != "" {
				if strings.Contains(string(d.Data), "CustomResourceDefinition") {
					c.Skips[d.SkipReason] = append(c.Skips[d.SkipReason], d.Name)
				}
				continue
			}
			if d.Kind != "CustomResourceDefinition" {
				continue
			}
			if d.APIVersion != "apiextensions.k8s.io/v1" {
				c.Skips["not apiextensions.k8s.io/v1"] = append(c.Skips["not apiextensions.k8s.io/v1"], d.Name)
				continue
			}
			crd := CorpusCRD{Doc: d, Channel: "standard", CEL: HasCEL(d.Data)}
			if strings.Contains(d.Path, "experimental") {
				crd.Channel = "experimental"
			}
			gk := d.CRDGroup + "/" + d.CRDKind
			if byGK[crd.Channel] == nil {
				byGK[crd.Channel] = map[string]CorpusCRD{}
			}
			if _, ok := byGK[crd.Channel][gk]; !ok {
				byGK[crd.Channel][gk] = crd
			}
			h := ContentHash(d.Data)
			if seen[h] {
				continue // an identical copy
			}
			seen[h] = true
			c.CRDs = append(c.CRDs, crd)
		}
	}
	if gatewayDir == "" {
		return c, nil
	}
	docs, err := ReadCorpusDocs(filepath.Join(gatewayDir, "examples"), nil)
	if err != nil {
		return nil, err
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
		crd, ok := byGK[channel][d.Group+"/"+d.Kind]
		if !ok {
			crd, ok = byGK["experimental"][d.Group+"/"+d.Kind]
		}
		if !ok {
			r := "no CRD for " + d.APIVersion + " " + d.Kind
			c.Skips[r] = append(c.Skips[r], d.Name)
			continue
		}
		js, err := yaml.YAMLToJSON(d.Data)
		if err != nil {
			c.Skips["example is not YAML"] = append(c.Skips["example is not YAML"], d.Name)
			continue
		}
		c.Examples = append(c.Examples, CorpusExample{Doc: d, CRD: crd, Object: js})
	}
	return c, nil
}
