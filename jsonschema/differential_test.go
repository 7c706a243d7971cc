package jsonschema_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/jsonschema"
	sj "github.com/santhosh-tekuri/jsonschema/v6"
)

var (
	updateDoc = flag.Bool("update-doc", false, "rewrite the agreement table of docs/jsonschema.md")
	mutations = flag.Int("mutations", 60, "generated mutations per served version (spread over the schema)")
)

const (
	docFile    = "../docs/jsonschema.md"
	tableBegin = "<!-- BEGIN agreement table (go test ./jsonschema -run TestDifferential -update-doc) -->"
	tableEnd   = "<!-- END agreement table -->"
)

// compiled is one exported schema compiled by santhosh-tekuri/jsonschema.
type compiled struct {
	draft2020, draft07 *sj.Schema
}

func compileSchema(t *testing.T, name string, s *jsonschema.Schema) *sj.Schema {
	t.Helper()
	b, err := s.JSON()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	doc, err := sj.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := sj.NewCompiler()
	if err := c.AddResource(name, doc); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sch, err := c.Compile(name)
	if err != nil {
		t.Fatalf("%s: santhosh-tekuri/jsonschema does not compile the schema: %v", name, err)
	}
	return sch
}

// exported holds the four schemas of every served version of a CRD.
type exported struct {
	loose, strict map[string]compiled // by version
}

func export(t *testing.T, name string, def *crd.CustomResourceDefinition) exported {
	ex := exported{loose: map[string]compiled{}, strict: map[string]compiled{}}
	for _, strict := range []bool{false, true} {
		for _, draft := range []jsonschema.Draft{jsonschema.Draft2020, jsonschema.Draft07} {
			schemas, err := jsonschema.Convert(def, jsonschema.Options{Draft: draft, Strict: strict})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for i := range schemas {
				s := &schemas[i]
				m := ex.loose
				if strict {
					m = ex.strict
				}
				c := m[s.Version]
				sch := compileSchema(t, fmt.Sprintf("mem:///%s/%s/%s/strict=%v.json", strings.NewReplacer("#", "_", " ", "_").Replace(name), s.Version, draft, strict), s)
				if draft == jsonschema.Draft07 {
					c.draft07 = sch
				} else {
					c.draft2020 = sch
				}
				m[s.Version] = c
			}
		}
	}
	return ex
}

// stripCEL removes x-kubernetes-validations from a CRD (JSON).
func stripCEL(data []byte) []byte {
	var v interface{}
	if err := json.Unmarshal(data, &v); err != nil {
		return data
	}
	var walk func(v interface{})
	walk = func(v interface{}) {
		switch x := v.(type) {
		case map[string]interface{}:
			delete(x, "x-kubernetes-validations")
			for _, e := range x {
				walk(e)
			}
		case []interface{}:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	b, _ := json.Marshal(v)
	return b
}

// engineVerdict is crdlab's verdict restricted to what JSON Schema
// expresses: ObjectMeta rules and list-map key uniqueness are left out
// (CEL rules are stripped from the CRD beforehand).
func engineVerdict(c *engine.CRD, obj []byte, fv engine.FieldValidation) (bool, string, error) {
	res, err := c.Validate(obj, engine.ValidateOptions{FieldValidation: fv})
	if err != nil {
		return false, "", err
	}
	if res.DecodeError != "" {
		return false, res.DecodeError, nil
	}
	var msgs []string
	for _, e := range res.Errors {
		if !expressible(c.Definition(), res.Object, e) {
			continue
		}
		msgs = append(msgs, e.Error())
	}
	return len(msgs) == 0, strings.Join(msgs, "; "), nil
}

var metaPath = regexp.MustCompile(`(^|\.)metadata(\.|$|\[)`)

func isString(v interface{}) bool {
	_, ok := v.(string)
	return ok
}

// valueAt returns the value at a field path of a decoded object.
func valueAt(v interface{}, path string) interface{} {
	for _, seg := range pathSeg.FindAllString(path, -1) {
		switch x := v.(type) {
		case map[string]interface{}:
			v = x[strings.Trim(seg, "[]")]
		case []interface{}:
			var i int
			if _, err := fmt.Sscan(strings.Trim(seg, "[]"), &i); err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

func expressible(def *crd.CustomResourceDefinition, obj interface{}, e *field.Error) bool {
	if metaPath.MatchString(e.Field) && !strings.Contains(e.Detail, "in body") {
		return false // ObjectMeta rules
	}
	if m := formatError.FindStringSubmatch(e.Detail); m != nil && !jsonschema.FormatExpressed(m[1]) && isString(valueAt(obj, e.Field)) {
		return false // documented limitation: formats JSON Schema does not express
	}
	if m := junctorError.FindStringSubmatch(e.Detail); m != nil {
		for i := range def.Spec.Versions {
			v := &def.Spec.Versions[i]
			if v.Schema == nil {
				continue
			}
			// the junctor may be the node's or an ancestor's (a branch
			// constraining a property)
			segs := pathSeg.FindAllString(m[1], -1)
			for j := len(segs); j >= 0; j-- {
				prefix := strings.Join(segs[:j], ".")
				if n := resolve(v.Schema.OpenAPIV3Schema, strings.ReplaceAll(prefix, ".[", "[")); n != nil && lossyJunctors(n) {
					return false // documented: a junctor holding a format JSON Schema does not express
				}
			}
		}
	}
	if e.Type == field.ErrorTypeDuplicate {
		list := regexp.MustCompile(`\[[0-9]+\]$`).ReplaceAllString(e.Field, "")
		for i := range def.Spec.Versions {
			v := &def.Spec.Versions[i]
			if v.Schema == nil {
				continue
			}
			if n := resolve(v.Schema.OpenAPIV3Schema, list); n != nil && n.XListType != nil && *n.XListType == "map" {
				return false // list-map keys
			}
		}
	}
	return true
}

var formatError = regexp.MustCompile(` in body must be of type ([a-z0-9-]+): `)

var junctorError = regexp.MustCompile(`^"([^"]+)" must (?:validate|not validate) `)

// lossyJunctors reports whether a junctor of s holds a format the export
// does not express.
func lossyJunctors(s *crd.JSONSchemaProps) bool {
	var lossy func(s *crd.JSONSchemaProps) bool
	lossy = func(s *crd.JSONSchemaProps) bool {
		if s == nil {
			return false
		}
		if s.Format != "" && !jsonschema.FormatExpressed(s.Format) {
			return true
		}
		for _, l := range [][]crd.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
			for i := range l {
				if lossy(&l[i]) {
					return true
				}
			}
		}
		for _, p := range s.Properties {
			p := p
			if lossy(&p) {
				return true
			}
		}
		if s.Items != nil && lossy(s.Items.Schema) {
			return true
		}
		return lossy(s.Not)
	}
	for _, l := range [][]crd.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range l {
			if lossy(&l[i]) {
				return true
			}
		}
	}
	return lossy(s.Not)
}

var pathSeg = regexp.MustCompile(`\[[^\]]*\]|[^.\[]+`)

// resolve finds the schema node of a field path (a.b[0].c, m[key]).
func resolve(s *crd.JSONSchemaProps, path string) *crd.JSONSchemaProps {
	for _, seg := range pathSeg.FindAllString(path, -1) {
		if s == nil {
			return nil
		}
		if strings.HasPrefix(seg, "[") {
			inner := seg[1 : len(seg)-1]
			if _, err := fmt.Sscan(inner, new(int)); err == nil && s.Items != nil {
				s = s.Items.Schema
				continue
			}
			if s.AdditionalProperties != nil {
				s = s.AdditionalProperties.Schema
				continue
			}
			return nil
		}
		if p, ok := s.Properties[seg]; ok {
			s = &p
		} else if s.AdditionalProperties != nil {
			s = s.AdditionalProperties.Schema
		} else {
			return nil
		}
	}
	return s
}

func schemaVerdict(s *sj.Schema, inst interface{}) (bool, string) {
	if err := s.Validate(inst); err != nil {
		msg := err.Error()
		if len(msg) > 400 {
			msg = msg[:400] + "..."
		}
		return false, strings.ReplaceAll(msg, "\n", " ")
	}
	return true, ""
}

// crdStats is the agreement of one CRD.
type crdStats struct {
	name                  string
	versions              int
	given, generated      int
	agree, total          int
	agreeStrict           int
	skip                  string
	disagreements         []string
	limitationsHit        int
	limitationExampleSeen map[string]bool
}

// limitations are the documented differences (docs/jsonschema.md):
// a disagreement whose object name matches is counted, not failed.
var limitations = []struct {
	name string
	re   *regexp.Regexp
}{
	{"a null value the API server drops counts for min/maxProperties in JSON Schema",
		regexp.MustCompile(`: null \(strict=(true|false)\): crdlab valid=false \([^)]*should have at (least|most) [0-9]+ properties`)},
}

// limitation returns the documented limitation a disagreement falls under.
func limitation(d string) string {
	for _, l := range limitations {
		if l.re.MatchString(d) {
			return l.name
		}
	}
	return ""
}

func TestDifferential(t *testing.T) {
	var inputs []*crdInput
	inputs = append(inputs, conformanceInputs(t)...)
	nCases := len(inputs)
	if testing.Short() {
		t.Log("corpus skipped (-short)")
	} else if dirs, err := corpusDirs(); err != nil {
		t.Logf("corpus skipped: %v", err)
	} else {
		corpus, err := corpusInputs(dirs)
		if err != nil {
			t.Fatal(err)
		}
		if len(corpus) == 0 {
			t.Log("corpus skipped: no CRDs found")
		}
		inputs = append(inputs, corpus...)
	}

	var stats []*crdStats
	for i, in := range inputs {
		st := &crdStats{name: in.name}
		stats = append(stats, st)
		start := time.Now()
		runCRD(t, in, st)
		if d := time.Since(start); d > 5*time.Second {
			t.Logf("%s: %v", in.name, d.Round(time.Millisecond))
		}
		if i == nCases-1 {
			t.Logf("conformance cases: %d CRDs", nCases)
		}
	}
	var failures int
	for _, st := range stats {
		for _, d := range st.disagreements {
			failures++
			if failures <= 40 {
				t.Errorf("%s: %s", st.name, d)
			}
		}
	}
	if failures > 40 {
		t.Errorf("... %d disagreements in all", failures)
	}
	summary := renderTable(stats, nCases)
	t.Log("\n" + summary)
	if *updateDoc {
		writeTable(t, summary)
	}
}

func runCRD(t *testing.T, in *crdInput, st *crdStats) {
	def, err := crd.DecodeOne(in.data, in.name)
	if err != nil {
		st.skip = "does not decode"
		return
	}
	if c := engine.CompileCRD(def); len(c.Errors()) > 0 {
		st.skip = "invalid CRD (crdlab schema refuses it)"
		return
	}
	strippedDef, err := crd.DecodeOne(stripCEL(in.data), in.name)
	if err != nil {
		st.skip = "does not decode without CEL"
		return
	}
	eng := engine.CompileCRD(strippedDef)
	if len(eng.Errors()) > 0 {
		st.skip = "invalid without its CEL rules"
		return
	}
	ex := export(t, in.name, def)
	st.versions = len(ex.loose)
	objs := append([]objInput{}, in.objects...)
	st.given = len(objs)
	versions := servedSchemas(def)
	var names []string
	for v := range versions {
		names = append(names, v)
	}
	sort.Strings(names)
	for _, v := range names {
		g := generated(def.Spec.Group, v, def.Spec.Names.Kind, versions[v], *mutations)
		st.generated += len(g)
		objs = append(objs, g...)
	}
	for _, o := range objs {
		var head struct {
			APIVersion string `json:"apiVersion"`
		}
		_ = json.Unmarshal(o.data, &head)
		version := head.APIVersion[strings.LastIndex(head.APIVersion, "/")+1:]
		c, ok := ex.loose[version]
		if !ok {
			continue // not served: no schema to pick
		}
		inst, err := sj.UnmarshalJSON(bytes.NewReader(o.data))
		if err != nil {
			t.Fatalf("%s: %s: %v", in.name, o.name, err)
		}
		for _, strict := range []bool{false, true} {
			fv, sch := engine.Ignore, c
			if strict {
				fv, sch = engine.Strict, ex.strict[version]
			}
			want, why, err := engineVerdict(eng, o.data, fv)
			if err != nil {
				t.Errorf("%s: %s: engine: %v", in.name, o.name, err)
				continue
			}
			got, gotWhy := schemaVerdict(sch.draft2020, inst)
			got07, _ := schemaVerdict(sch.draft07, inst)
			st.total++
			if got != got07 {
				st.disagreements = append(st.disagreements, fmt.Sprintf("%s (strict=%v): draft 2020-12 says %v, draft-07 says %v", o.name, strict, got, got07))
				continue
			}
			if got == want {
				if strict {
					st.agreeStrict++
				} else {
					st.agree++
				}
				continue
			}
			d := fmt.Sprintf("%s (strict=%v): crdlab valid=%v (%s), JSON Schema valid=%v (%s)\n    object: %s",
				o.name, strict, want, why, got, gotWhy, truncate(string(o.data), 600))
			if limitation(d) != "" {
				st.limitationsHit++
				continue
			}
			st.disagreements = append(st.disagreements, d)
		}
	}
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func renderTable(stats []*crdStats, nCases int) string {
	pct := func(a, total int) string {
		half := total / 2
		if half == 0 {
			return "–"
		}
		return fmt.Sprintf("%d/%d (%.1f %%)", a, half, 100*float64(a)/float64(half))
	}
	row := func(name string, st crdStats, note string) string {
		return fmt.Sprintf("| %s | %d | %d | %d | %s | %s | %s |\n", name, st.versions, st.given, st.generated,
			pct(st.agree, st.total), pct(st.agreeStrict, st.total), note)
	}
	add := func(sum *crdStats, st *crdStats) {
		sum.versions += st.versions
		sum.given += st.given
		sum.generated += st.generated
		sum.agree += st.agree
		sum.agreeStrict += st.agreeStrict
		sum.total += st.total
	}
	header := "| CRD | served versions | given objects | generated objects | agreement (non-strict) | agreement (--strict) | note |\n|---|---|---|---|---|---|---|\n"
	var cases, corpus crdStats
	skipped, disagreeing := 0, 0
	var rows strings.Builder
	for i, st := range stats {
		if i < nCases {
			if st.skip != "" {
				skipped++
				continue
			}
			if len(st.disagreements) > 0 {
				disagreeing++
			}
			add(&cases, st)
			continue
		}
		note := st.skip
		if n := len(st.disagreements); n > 0 {
			note = fmt.Sprintf("%d disagreements", n)
		}
		if st.limitationsHit > 0 {
			note = strings.TrimPrefix(note+fmt.Sprintf("; %d documented limitation", st.limitationsHit), "; ")
		}
		rows.WriteString(row(st.name, *st, note))
		add(&corpus, st)
	}
	out := "Conformance cases (conformance/testdata/cases), all their CRDs together:\n\n" + header +
		row(fmt.Sprintf("%d CRDs", nCases-skipped), cases, fmt.Sprintf("%d CRDs skipped (rejected by the API server); %d with disagreements", skipped, disagreeing))
	if len(stats) > nCases {
		out += "\nReal-world corpus (scripts/corpus.sh), one row per CRD:\n\n" + header + rows.String() +
			row("**all corpus CRDs**", corpus, "")
	}
	return out
}

func writeTable(t *testing.T, table string) {
	data, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, tableBegin), strings.Index(s, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no table markers", docFile)
	}
	s = s[:i+len(tableBegin)] + "\n\n" + table + "\n" + s[j:]
	if err := os.WriteFile(docFile, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
