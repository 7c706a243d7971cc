package crdtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/unstructured"
	"sigs.k8s.io/yaml"
)

// crdDoc is one CustomResourceDefinition read from a file.
type crdDoc struct {
	path        string
	doc         map[string]interface{} // the whole document, JSON values
	name        string
	group, kind string
	annotations map[string]string
	versions    []string
}

// target is one CRD a suite runs against (OpenShift runs a suite once per
// matching CRD file, e.g. once per feature set).
type target struct {
	crd     *crdDoc
	version string // "" = keep every version
	label   string // the CRD file's base name, shown when a suite has several targets
	// kubeVersion is the Kubernetes release the suite runs at ("" is the
	// default).
	kubeVersion string
}

// loader reads and caches CRD files, their directories, feature-gate
// manifests and compiled CRDs. It is safe for concurrent use.
type loader struct {
	mu       sync.Mutex
	files    map[string]*fileEntry
	extra    []*crdDoc // --crd
	gates    map[string]*gateEntry
	compiled map[string]*compileEntry
	sources  map[*engine.CRD][]byte // the JSON each CRD was compiled from
	observe  func(Request)
	// builtins is Options.Builtins.
	builtins admission.BuiltinKinds
	// observeAdmission is Options.ObserveAdmission.
	observeAdmission func(AdmissionObserved)
	fs               fileSystem
	backend          Backend
	// kubeVersion overrides the suites' (Options.KubeVersion); share is
	// Options.Share; defaultKubeVersion is Options.DefaultKubeVersion.
	kubeVersion        string
	defaultKubeVersion string
	share              *engine.CompileShare
}

type fileEntry struct {
	docs []*crdDoc
	err  error
}

type gateEntry struct {
	manifests []map[string]interface{}
	err       error
}

type compileEntry struct {
	once sync.Once
	crd  *engine.CRD
	err  error
}

func newLoader(fsys fileSystem) *loader {
	return &loader{fs: fsys, files: map[string]*fileEntry{}, gates: map[string]*gateEntry{}, compiled: map[string]*compileEntry{}, sources: map[*engine.CRD][]byte{}}
}

// readCRDs returns the CRDs in a YAML or JSON file (other documents are
// skipped; a file with none returns none).
func (l *loader) readCRDs(path string) ([]*crdDoc, error) {
	l.mu.Lock()
	e, ok := l.files[path]
	l.mu.Unlock()
	if ok {
		return e.docs, e.err
	}
	e = &fileEntry{}
	data, err := l.fs.ReadFile(path)
	if err != nil {
		e.err = err
	} else {
		e.docs, e.err = parseCRDs(path, data)
	}
	l.mu.Lock()
	l.files[path] = e
	l.mu.Unlock()
	return e.docs, e.err
}

func parseCRDs(path string, data []byte) ([]*crdDoc, error) {
	var out []*crdDoc
	for i, part := range splitYAML(data) {
		var m map[string]interface{}
		if err := yaml.Unmarshal(part.data, &m); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, part.line, err)
		}
		if m == nil || m["kind"] != "CustomResourceDefinition" {
			continue
		}
		d := &crdDoc{path: path, doc: m}
		meta, _ := m["metadata"].(map[string]interface{})
		d.name, _ = meta["name"].(string)
		d.annotations = map[string]string{}
		if an, ok := meta["annotations"].(map[string]interface{}); ok {
			for k, v := range an {
				if s, ok := v.(string); ok {
					d.annotations[k] = s
				}
			}
		}
		spec, _ := m["spec"].(map[string]interface{})
		d.group, _ = spec["group"].(string)
		if names, ok := spec["names"].(map[string]interface{}); ok {
			d.kind, _ = names["kind"].(string)
		}
		vs, _ := spec["versions"].([]interface{})
		for _, v := range vs {
			if vm, ok := v.(map[string]interface{}); ok {
				name, _ := vm["name"].(string)
				d.versions = append(d.versions, name)
			}
		}
		_ = i
		out = append(out, d)
	}
	return out, nil
}

type yamlPart struct {
	data []byte
	line int
}

// splitYAML splits a stream on "---" lines.
func splitYAML(data []byte) []yamlPart {
	var out []yamlPart
	lines := strings.SplitAfter(string(data), "\n")
	var cur strings.Builder
	start := 1
	for i, ln := range lines {
		t := strings.TrimRight(ln, "\r\n")
		if t == "---" || strings.HasPrefix(t, "--- ") || strings.HasPrefix(t, "---\t") {
			if strings.TrimSpace(cur.String()) != "" {
				out = append(out, yamlPart{[]byte(cur.String()), start})
			}
			cur.Reset()
			start = i + 2
			continue
		}
		cur.WriteString(ln)
	}
	if strings.TrimSpace(cur.String()) != "" {
		out = append(out, yamlPart{[]byte(cur.String()), start})
	}
	return out
}

// addExtra reads --crd files and directories (recursively, *.yaml, *.yml,
// *.json).
func (l *loader) addExtra(paths []string) error {
	for _, p := range paths {
		st, err := l.fs.Stat(p)
		if err != nil {
			return err
		}
		var files []string
		if st.IsDir() {
			err := l.fs.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				ext := strings.ToLower(filepath.Ext(path))
				if !d.IsDir() && (ext == ".yaml" || ext == ".yml" || ext == ".json") {
					files = append(files, path)
				}
				return nil
			})
			if err != nil {
				return err
			}
			sort.Strings(files)
		} else {
			files = []string{p}
		}
		found := 0
		for _, f := range files {
			docs, err := l.readCRDs(f)
			if err != nil {
				if st.IsDir() {
					continue // a directory may hold other YAML
				}
				return err
			}
			found += len(docs)
			l.extra = append(l.extra, docs...)
		}
		if found == 0 {
			return fmt.Errorf("%s: no CustomResourceDefinition found", p)
		}
	}
	return nil
}

// targets resolves the CRDs a suite runs against.
func (l *loader) targets(s *SuiteFile) ([]target, error) {
	dir := filepath.Dir(s.Path)
	var docs []*crdDoc
	openshift := false
	kv := s.KubeVersion
	if kv == "" {
		kv = l.defaultKubeVersion
	}
	if l.kubeVersion != "" {
		kv = l.kubeVersion
	}
	if kv != "" {
		rs, err := engine.ParseKubeVersions(kv)
		if err == nil && len(rs) != 1 {
			err = fmt.Errorf("%q: give one release (crdlab test --kube-version runs several)", kv)
		}
		if err != nil {
			return nil, fmt.Errorf("kubeVersion: %v", err)
		}
		kv = rs[0]
	}
	switch {
	case s.CRD != "":
		for _, cand := range []string{filepath.Join(dir, s.CRD), filepath.Join(dir, "zz_generated.crd-manifests", s.CRD)} {
			if _, err := l.fs.Stat(cand); err == nil {
				ds, err := l.readCRDs(cand)
				if err != nil {
					return nil, err
				}
				docs = ds
				break
			}
		}
		if docs == nil {
			for _, d := range l.extra {
				if filepath.Base(d.path) == filepath.Base(s.CRD) {
					docs = append(docs, d)
				}
			}
		}
		if len(docs) == 0 {
			return nil, fmt.Errorf("crd %q: no such CRD file next to the suite (or among --crd)", s.CRD)
		}
		if len(docs) > 1 {
			// A file of several CRDs: the ones serving the suite's objects.
			group, kind := firstObjectGK(s)
			var keep []*crdDoc
			for _, d := range docs {
				if d.group == group && d.kind == kind {
					keep = append(keep, d)
				}
			}
			if len(keep) > 0 {
				docs = keep
			}
		}
	case s.CRDName != "":
		for _, d := range l.extra {
			if d.name == s.CRDName {
				docs = append(docs, d)
			}
		}
		if len(docs) == 0 {
			var err error
			docs, err = l.openShiftCRDs(dir, s.CRDName, s.FeatureGates)
			if err != nil {
				return nil, err
			}
			openshift = true
		}
		if len(docs) == 0 {
			return nil, fmt.Errorf("no CRD named %q matches this suite (give --crd, or keep the suite in OpenShift's layout <group>/<version>/tests/%s/ next to zz_generated.crd-manifests/)", s.CRDName, s.CRDName)
		}
	default:
		group, kind := firstObjectGK(s)
		for _, d := range l.extra {
			if d.group == group && d.kind == kind {
				docs = append(docs, d)
			}
		}
		if len(docs) == 0 && onlyAdmission(s) {
			// Admission cases on built-in kinds need no CRD.
			return []target{{label: filepath.Base(s.Path), kubeVersion: kv}}, nil
		}
		if len(docs) == 0 {
			return nil, fmt.Errorf("the suite names no CRD (crd: FILE or crdName: NAME) and no --crd CRD serves %s.%s", kind, group)
		}
	}
	version := s.Version
	if version == "" && (openshift || s.CRDName != "") {
		// OpenShift's rule: the single version of the CRD files.
		for _, d := range docs {
			if len(d.versions) > 1 {
				return nil, fmt.Errorf("%s: too many versions, specify one in the suite (version:)", d.path)
			}
			if len(d.versions) == 1 {
				if version != "" && version != d.versions[0] {
					return nil, fmt.Errorf("too many versions, specify one in the suite: saw %s and %s", version, d.versions[0])
				}
				version = d.versions[0]
			}
		}
	}
	out := make([]target, len(docs))
	for i, d := range docs {
		out[i] = target{crd: d, version: version, label: filepath.Base(d.path), kubeVersion: kv}
	}
	return out, nil
}

// onlyAdmission reports whether the suite has admission cases only.
func onlyAdmission(s *SuiteFile) bool {
	t := s.Tests
	return len(t.Admission) > 0 && len(t.OnCreate) == 0 && len(t.OnUpdate) == 0 && len(t.Sequences) == 0 && len(t.Apply) == 0
}

// firstObjectGK returns the group and kind of the suite's first object.
func firstObjectGK(s *SuiteFile) (string, string) {
	var text string
	switch {
	case len(s.Tests.OnCreate) > 0:
		text = s.Tests.OnCreate[0].Initial
	case len(s.Tests.OnUpdate) > 0:
		text = s.Tests.OnUpdate[0].Initial
	case len(s.Tests.Sequences) > 0:
		for _, st := range s.Tests.Sequences[0].Steps {
			if st.Create != "" {
				text = st.Create
				break
			}
		}
	case len(s.Tests.Admission) > 0:
		text = firstNonEmpty(s.Tests.Admission[0].Object, s.Tests.Admission[0].OldObject)
	}
	var m struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	_ = yaml.Unmarshal([]byte(text), &m)
	group := m.APIVersion
	if i := strings.LastIndex(group, "/"); i >= 0 {
		group = group[:i]
	} else {
		group = ""
	}
	return group, m.Kind
}

// openShiftCRDs mirrors OpenShift's tests/crd_filter.go: the CRD files of
// <suiteDir>/../../zz_generated.crd-manifests named crdName; with feature
// gates, the files whose feature set (release.openshift.io/feature-set)
// enables every listed gate and disables every "-"-prefixed one, read from
// payload-manifests/featuregates for the first cluster profile of the file.
func (l *loader) openShiftCRDs(suiteDir, crdName string, gates []string) ([]*crdDoc, error) {
	dir := filepath.Join(suiteDir, "..", "..", "zz_generated.crd-manifests")
	entries, err := l.fs.ReadDir(dir)
	if err != nil {
		return nil, nil
	}
	var out []*crdDoc
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		docs, err := l.readCRDs(filepath.Join(dir, e.Name()))
		if err != nil || len(docs) != 1 || docs[0].name != crdName {
			continue // not every file is a CRD
		}
		d := docs[0]
		if len(gates) == 0 {
			out = append(out, d)
			continue
		}
		featureSets := map[string]bool{}
		if fs := d.annotations["release.openshift.io/feature-set"]; fs != "" {
			for _, f := range strings.Split(fs, ",") {
				featureSets[f] = true
			}
		}
		if featureSets["CustomNoUpgrade"] {
			// CustomNoUpgrade holds every field.
			if !anyDisabled(gates) {
				out = append(out, d)
			}
			continue
		}
		var profiles []string
		for k, v := range d.annotations {
			if strings.HasPrefix(k, "include.release.openshift.io/") && v == "true" {
				profiles = append(profiles, k)
			}
		}
		if len(profiles) == 0 {
			out = append(out, d)
			continue
		}
		sort.Strings(profiles)
		status, err := l.featureGateStatus(suiteDir, profiles[0], featureSets, majorVersions(d.annotations))
		if err != nil {
			return nil, fmt.Errorf("feature gates for %s: %v", d.path, err)
		}
		keep := true
		for _, g := range gates {
			name := strings.TrimPrefix(g, "-")
			enabled, found := status[name]
			if !found {
				return nil, fmt.Errorf("unable to find featureGate/%s to check for %s", g, d.path)
			}
			if strings.HasPrefix(g, "-") == enabled {
				keep = false
			}
		}
		if keep {
			out = append(out, d)
		}
	}
	return out, nil
}

func anyDisabled(gates []string) bool {
	for _, g := range gates {
		if strings.HasPrefix(g, "-") {
			return true
		}
	}
	return false
}

func majorVersions(annotations map[string]string) map[uint64]bool {
	var s string
	keys := keys.Sorted(annotations)
	for _, k := range keys {
		if strings.HasPrefix(k, "release.openshift.io/major-version") {
			s = annotations[k]
			break
		}
	}
	out := map[uint64]bool{}
	for _, v := range strings.Split(s, ",") {
		if n, err := strconv.ParseUint(v, 10, 64); err == nil {
			out[n] = true
		}
	}
	return out
}

// featureGateStatus finds payload-manifests/featuregates above suiteDir and
// returns the gates (name → enabled) of the first manifest (in file-name
// order) matching the cluster profile, one of the feature sets (Default
// when none) and one of the major versions (any when none).
func (l *loader) featureGateStatus(suiteDir, profile string, featureSets map[string]bool, versions map[uint64]bool) (map[string]bool, error) {
	manifests, err := l.gateManifests(suiteDir)
	if err != nil {
		return nil, err
	}
	if len(featureSets) == 0 {
		featureSets = map[string]bool{"Default": true}
	}
	for _, m := range manifests {
		meta, _ := m["metadata"].(map[string]interface{})
		an := map[string]string{}
		if a, ok := meta["annotations"].(map[string]interface{}); ok {
			for k, v := range a {
				s, _ := v.(string)
				an[k] = s
			}
		}
		if _, ok := an[profile]; !ok {
			continue
		}
		if !featureSets[an["release.openshift.io/feature-set"]] {
			continue
		}
		if len(versions) > 0 {
			match := false
			for v := range majorVersions(an) {
				if versions[v] {
					match = true
				}
			}
			if !match {
				continue
			}
		}
		out := map[string]bool{}
		status, _ := m["status"].(map[string]interface{})
		fgs, _ := status["featureGates"].([]interface{})
		if len(fgs) == 0 {
			return nil, fmt.Errorf("feature gate manifest without status.featureGates")
		}
		first, _ := fgs[0].(map[string]interface{})
		for key, enabled := range map[string]bool{"enabled": true, "disabled": false} {
			list, _ := first[key].([]interface{})
			for _, g := range list {
				gm, _ := g.(map[string]interface{})
				if name, ok := gm["name"].(string); ok {
					out[name] = enabled
				}
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("no feature gate manifest found for cluster profile %q, feature sets %v and versions %v", profile, keysOf(featureSets), versions)
}

func keysOf(m map[string]bool) []string {
	out := keys.Sorted(m)
	return out
}

func (l *loader) gateManifests(suiteDir string) ([]map[string]interface{}, error) {
	abs, err := l.fs.Abs(suiteDir)
	if err != nil {
		return nil, err
	}
	for d := abs; ; d = filepath.Dir(d) {
		p := filepath.Join(d, "payload-manifests", "featuregates")
		if st, err := l.fs.Stat(p); err == nil && st.IsDir() {
			l.mu.Lock()
			e, ok := l.gates[p]
			l.mu.Unlock()
			if ok {
				return e.manifests, e.err
			}
			e = &gateEntry{}
			var files []string
			e.err = l.fs.WalkDir(p, func(path string, de fs.DirEntry, err error) error {
				if err == nil && !de.IsDir() {
					files = append(files, path)
				}
				return err
			})
			sort.Strings(files)
			for _, f := range files {
				data, err := l.fs.ReadFile(f)
				if err != nil {
					e.err = err
					break
				}
				var m map[string]interface{}
				if err := yaml.Unmarshal(data, &m); err != nil {
					e.err = fmt.Errorf("%s: %v", f, err)
					break
				}
				e.manifests = append(e.manifests, m)
			}
			l.mu.Lock()
			l.gates[p] = e
			l.mu.Unlock()
			return e.manifests, e.err
		}
		if d == filepath.Dir(d) {
			return nil, fmt.Errorf("no payload-manifests/featuregates directory above %s", suiteDir)
		}
	}
}

// crdBytes returns the target's CRD as JSON: restricted to the suite's
// version (served and storage, as OpenShift's loadVersionedCRD does) and
// with patches applied.
func (t target) crdBytes(patches []Patch) ([]byte, error) {
	doc := unstructured.DeepCopy(t.crd.doc).(map[string]interface{})
	if len(patches) > 0 {
		// OpenShift patches the file as written, then installs its spec.
		patched, err := applyPatch(doc, patches)
		if err != nil {
			return nil, err
		}
		doc, _ = patched.(map[string]interface{})
		if doc == nil {
			return nil, fmt.Errorf("the patched CRD is not an object")
		}
	} else if t.version != "" {
		spec, _ := doc["spec"].(map[string]interface{})
		vs, _ := spec["versions"].([]interface{})
		var keep []interface{}
		for _, v := range vs {
			vm, _ := v.(map[string]interface{})
			if vm != nil && vm["name"] == t.version {
				vm["served"] = true
				vm["storage"] = true
				keep = append(keep, vm)
			}
		}
		if len(keep) == 0 {
			return nil, fmt.Errorf("%s: could not find CRD version matching version %s", t.crd.path, t.version)
		}
		spec["versions"] = keep
	}
	return json.Marshal(doc)
}

// compile compiles the target's CRD (with patches), once per distinct
// input; an invalid CRD is an error.
func (l *loader) compile(t target, patches []Patch) (*engine.CRD, error) {
	pj, err := json.Marshal(patches)
	if err != nil {
		return nil, err
	}
	key := t.crd.path + "\x00" + t.crd.name + "\x00" + t.version + "\x00" + t.kubeVersion + "\x00" + string(pj)
	l.mu.Lock()
	e, ok := l.compiled[key]
	if !ok {
		e = &compileEntry{}
		l.compiled[key] = e
	}
	l.mu.Unlock()
	e.once.Do(func() {
		var data []byte
		if data, e.err = t.crdBytes(patches); e.err != nil {
			return
		}
		e.crd, data, e.err = compileLenient(data, engine.CompileOptions{KubeVersion: t.kubeVersion, Share: l.share})
		if e.crd != nil {
			l.mu.Lock()
			l.sources[e.crd] = data
			l.mu.Unlock()
		}
		if e.err == nil && len(e.crd.Errors()) > 0 && l.backend == nil {
			e.err = fmt.Errorf("%s: the API server would reject the CRD: %v", t.crd.path, e.crd.Errors().ToAggregate())
		}
	})
	return e.crd, e.err
}

// compileLenient compiles a CRD the way envtest installs it: the YAML is
// read into the typed apiextensions/v1 struct by the client, which drops
// unknown fields silently, so the API server never sees them. crdlab's
// decoder is strict (as the API server is with a raw request), so unknown
// fields it reports are removed and the CRD is decoded again.
func compileLenient(data []byte, opts engine.CompileOptions) (*engine.CRD, []byte, error) {
	var doc interface{}
	for attempt := 0; ; attempt++ {
		c, err := engine.CompileWithOptions(data, opts)
		var de *crd.DecodeError
		if err == nil || attempt == 1000 || !errors.As(err, &de) || !strings.HasPrefix(de.Msg, "unknown field") || de.Path == "" {
			return c, data, err
		}
		if doc == nil {
			if err := json.Unmarshal(data, &doc); err != nil {
				return nil, nil, err
			}
		}
		if !removeFieldPath(doc, de.Path) {
			return c, data, err
		}
		if data, err = json.Marshal(doc); err != nil {
			return nil, nil, err
		}
	}
}

// removeFieldPath removes the field at a path such as
// "spec.versions[0].schema.openAPIV3Schema.properties[spec].x".
func removeFieldPath(doc interface{}, path string) bool {
	var segs []string
	for _, part := range strings.Split(path, ".") {
		for part != "" {
			i := strings.IndexByte(part, '[')
			if i < 0 {
				segs = append(segs, part)
				break
			}
			if i > 0 {
				segs = append(segs, part[:i])
			}
			j := strings.IndexByte(part, ']')
			if j < i {
				return false
			}
			segs = append(segs, part[i+1:j])
			part = part[j+1:]
		}
	}
	cur := doc
	for k, seg := range segs {
		last := k == len(segs)-1
		switch c := cur.(type) {
		case map[string]interface{}:
			if last {
				if _, ok := c[seg]; !ok {
					return false
				}
				delete(c, seg)
				return true
			}
			cur = c[seg]
		case []interface{}:
			n, err := strconv.Atoi(seg)
			if err != nil || n < 0 || n >= len(c) || last {
				return false
			}
			cur = c[n]
		default:
			return false
		}
	}
	return false
}

// crdJSON returns the JSON a compiled CRD came from.
func (l *loader) crdJSON(c *engine.CRD) []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sources[c]
}
