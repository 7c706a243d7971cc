// Command builtinsurface writes internal/builtin/surface.tsv: the built-in
// API surface kube-apiserver serves by default at each release crdlab
// models (group, version, kind, resource, scope, short names, subresources,
// verbs, and the prerelease lifecycle of deprecated versions).
//
// It reads upstream data from the Go module cache (go mod download -json):
// k8s.io/kubernetes's api/discovery/*.json (the discovery documents the
// release's own tests check in, generated with every API enabled),
// pkg/controlplane/instance.go (the betas still enabled by default:
// legacyBetaEnabledByDefaultResources; every other alpha and beta version is
// off by default), and k8s.io/api's zz_generated.prerelease-lifecycle.go
// files, parsed with go/parser, with each group's name from register.go (data is extracted, no code is copied).
//
// With -schemas it also writes the OpenAPI v3 schemas of every kind each
// release serves (schemas.go says how).
//
//	go -C tools run ./builtinsurface -o ../internal/builtin/surface.tsv -schemas ../internal/builtin/schemas.json.gz
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// go127 is the toolchain 1.38's modules name (conformance/versions/v1.38).
const go127 = "go1.27.3"

// releases are the patch releases read for each minor release.
var releases = []struct{ minor, kubernetes, api string }{
	{"1.31", "v1.31.14", "v0.31.14"},
	{"1.32", "v1.32.13", "v0.32.13"},
	{"1.33", "v1.33.13", "v0.33.13"},
	{"1.34", "v1.34.4", "v0.34.4"},
	{"1.35", "v1.35.4", "v0.35.4"},
	{"1.36", "v1.36.3", "v0.36.3"},
	{"1.37", "v1.37.2", "v0.37.2"},
	{"1.38", "v1.38.0-beta.0", "v0.38.0-beta.0"},
}

type resource struct {
	Group, Version, Kind, Resource string
	Namespaced                     bool
	ShortNames, Subresources       []string
	Verbs                          []string
	Deprecated, Removed            string // "1.29" or ""
	Replacement                    string // "group/version Kind" or ""
}

// row is a resource's line without its releases.
func (r resource) row() string {
	scope := "Cluster"
	if r.Namespaced {
		scope = "Namespaced"
	}
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	group := r.Group
	if group == "" {
		group = "core"
	}
	return strings.Join([]string{group, r.Version, r.Kind, r.Resource, scope,
		dash(strings.Join(r.ShortNames, ",")), dash(strings.Join(r.Subresources, ",")),
		dash(strings.Join(r.Verbs, ",")), dash(r.Deprecated), dash(r.Removed), dash(r.Replacement)}, "\t")
}

func main() {
	out := flag.String("o", "", "surface output file (default: stdout)")
	schemasOut := flag.String("schemas", "", "schemas output file (gzip-compressed JSON); not written when empty")
	flag.Parse()
	surface, schemas, err := generate(*schemasOut != "")
	if err != nil {
		fail(err)
	}
	if *schemasOut != "" {
		gz, err := gzipped(schemas)
		if err != nil {
			fail(err)
		}
		if err := os.WriteFile(*schemasOut, gz, 0o644); err != nil {
			fail(err)
		}
	}
	if *out == "" {
		os.Stdout.Write(surface)
		return
	}
	if err := os.WriteFile(*out, surface, 0o644); err != nil {
		fail(err)
	}
}

// releaseDirs are a release's upstream modules in the module cache.
type releaseDirs struct {
	kubernetes, api, apimachinery, apiextensions, aggregator string
	// apiextensionsAPI is k8s.io/apiextensions-api, where 1.38 moved the
	// apiextensions types ("" before).
	apiextensionsAPI string
}

// generate reads every release: the surface (surface.tsv) and, when
// withSchemas, the schemas (schemas.json.gz's content, uncompressed).
func generate(withSchemas bool) (surface, schemas []byte, err error) {
	// rows[row] = minor releases serving it, in order.
	rows := map[string][]string{}
	var order []string
	var perRelease []releaseData
	for _, rel := range releases {
		var dirs releaseDirs
		for _, m := range []struct {
			dir *string
			mod string
		}{
			{&dirs.kubernetes, "k8s.io/kubernetes@" + rel.kubernetes},
			{&dirs.api, "k8s.io/api@" + rel.api},
			{&dirs.apimachinery, "k8s.io/apimachinery@" + rel.api},
			{&dirs.apiextensions, "k8s.io/apiextensions-apiserver@" + rel.api},
			{&dirs.aggregator, "k8s.io/kube-aggregator@" + rel.api},
		} {
			if !withSchemas && m.dir != &dirs.kubernetes && m.dir != &dirs.api {
				continue
			}
			if *m.dir, err = moduleDir(m.mod); err != nil {
				return nil, nil, err
			}
		}
		if withSchemas && rel.minor >= "1.38" {
			if dirs.apiextensionsAPI, err = moduleDir("k8s.io/apiextensions-api@" + rel.api); err != nil {
				return nil, nil, err
			}
		}
		res, err := served(dirs.kubernetes)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", rel.kubernetes, err)
		}
		life, err := lifecycle(dirs.api)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", rel.api, err)
		}
		for _, r := range res {
			if l, ok := life[r.Group+"/"+r.Version+"/"+r.Kind]; ok {
				r.Deprecated, r.Removed, r.Replacement = l.Deprecated, l.Removed, l.Replacement
			}
			row := r.row()
			if _, ok := rows[row]; !ok {
				order = append(order, row)
			}
			rows[row] = append(rows[row], rel.minor)
		}
		if withSchemas {
			defs, kinds, err := schemasOf(dirs, res)
			if err != nil {
				return nil, nil, err
			}
			perRelease = append(perRelease, releaseData{rel.minor, defs, kinds})
		}
	}
	sort.Strings(order)
	var b bytes.Buffer
	b.WriteString("# Generated by tools/builtinsurface from k8s.io/kubernetes and k8s.io/api; DO NOT EDIT.\n")
	b.WriteString("# releases\tgroup\tversion\tkind\tresource\tscope\tshortNames\tsubresources\tverbs\tdeprecated\tremoved\treplacement\n")
	for _, row := range order {
		b.WriteString(ranges(rows[row]) + "\t" + row + "\n")
	}
	if withSchemas {
		if schemas, err = writeSchemas(perRelease); err != nil {
			return nil, nil, err
		}
	}
	return b.Bytes(), schemas, nil
}

// ranges renders the minor releases of a row as comma-separated runs:
// "1.31-1.37", "1.31,1.33-1.34".
func ranges(minors []string) string {
	idx := map[string]int{}
	for i, r := range releases {
		idx[r.minor] = i
	}
	var parts []string
	for i := 0; i < len(minors); {
		j := i
		for j+1 < len(minors) && idx[minors[j+1]] == idx[minors[j]]+1 {
			j++
		}
		if i == j {
			parts = append(parts, minors[i])
		} else {
			parts = append(parts, minors[i]+"-"+minors[j])
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "builtinsurface:", err)
	os.Exit(1)
}

// moduleDir downloads a module (go mod download -json) and returns its
// directory in the module cache.
func moduleDir(mod string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", mod)
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GO111MODULE=on")
	if strings.Contains(mod, "@v1.38.") || strings.Contains(mod, "@v0.38.") {
		// 1.38's modules need Go 1.27 (the oracle modules' toolchain)
		cmd.Env = append(cmd.Env, "GOTOOLCHAIN="+go127)
	}
	outb, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %v", mod, err)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(outb, &info); err != nil {
		return "", err
	}
	if info.Error != "" {
		return "", fmt.Errorf("go mod download %s: %s", mod, info.Error)
	}
	return info.Dir, nil
}

type discoveryList struct {
	GroupVersion string `json:"groupVersion"`
	Resources    []struct {
		Name       string   `json:"name"`
		Kind       string   `json:"kind"`
		Namespaced bool     `json:"namespaced"`
		ShortNames []string `json:"shortNames"`
		Verbs      []string `json:"verbs"`
	} `json:"resources"`
}

// served reads a release's discovery documents and keeps the group
// versions and resources enabled by default.
func served(kdir string) ([]resource, error) {
	legacy, err := legacyBetas(filepath.Join(kdir, "pkg", "controlplane", "instance.go"))
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(kdir, "api", "discovery", "api*__*.json"))
	if err != nil {
		return nil, err
	}
	var out []resource
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var l discoveryList
		if err := json.Unmarshal(data, &l); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		group, version, ok := strings.Cut(l.GroupVersion, "/")
		if !ok {
			group, version = "", l.GroupVersion
		}
		stable := !strings.Contains(version, "alpha") && !strings.Contains(version, "beta")
		byName := map[string]*resource{}
		var names []string
		for _, r := range l.Resources {
			name, sub, isSub := strings.Cut(r.Name, "/")
			if isSub {
				continue
			}
			_ = sub
			if !stable && !legacy[groupPrefix(group)+"/"+version+"/"+name] {
				continue
			}
			verbs := append([]string(nil), r.Verbs...)
			sort.Strings(verbs)
			byName[name] = &resource{Group: group, Version: version, Kind: r.Kind, Resource: name,
				Namespaced: r.Namespaced, ShortNames: r.ShortNames, Verbs: verbs}
			names = append(names, name)
		}
		for _, r := range l.Resources {
			name, sub, isSub := strings.Cut(r.Name, "/")
			if isSub && byName[name] != nil {
				byName[name].Subresources = append(byName[name].Subresources, sub)
			}
		}
		for _, n := range names {
			sort.Strings(byName[n].Subresources)
			out = append(out, *byName[n])
		}
	}
	return out, nil
}

// groupPrefix is a group's first label ("" for the core group), the
// directory name k8s.io/api's import paths use for most groups.
func groupPrefix(g string) string {
	p, _, _ := strings.Cut(g, ".")
	return p
}

var withResource = regexp.MustCompile(`([a-z]+)(v[0-9]+(?:alpha|beta)[0-9]+)\.SchemeGroupVersion\.WithResource\("([a-z]+)"\)`)

// legacyBetas reads legacyBetaEnabledByDefaultResources from
// pkg/controlplane/instance.go: "flowcontrol/v1beta3/flowschemas".
func legacyBetas(file string) (map[string]bool, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	src := string(data)
	i := strings.Index(src, "legacyBetaEnabledByDefaultResources = ")
	if i < 0 {
		return out, nil
	}
	end := strings.Index(src[i:], "\n\t}")
	if end < 0 {
		return nil, fmt.Errorf("%s: legacyBetaEnabledByDefaultResources: no end", file)
	}
	for _, m := range withResource.FindAllStringSubmatch(src[i:i+end], -1) {
		out[m[1]+"/"+m[2]+"/"+m[3]] = true
	}
	return out, nil
}

type life struct{ Deprecated, Removed, Replacement string }

// lifecycle reads every zz_generated.prerelease-lifecycle.go of k8s.io/api:
// "group/version/Kind" → its deprecation, removal and replacement.
func lifecycle(adir string) (map[string]life, error) {
	files, err := filepath.Glob(filepath.Join(adir, "*", "*", "zz_generated.prerelease-lifecycle.go"))
	if err != nil {
		return nil, err
	}
	out := map[string]life{}
	for _, f := range files {
		dir := filepath.Dir(f)
		group, err := groupName(filepath.Join(dir, "register.go"))
		if err != nil {
			return nil, err
		}
		version := filepath.Base(dir)
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 || fn.Body == nil || len(fn.Body.List) != 1 {
				continue
			}
			star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
			if !ok {
				continue
			}
			id, ok := star.X.(*ast.Ident)
			if !ok {
				continue
			}
			ret, ok := fn.Body.List[0].(*ast.ReturnStmt)
			if !ok {
				continue
			}
			key := group + "/" + version + "/" + id.Name
			l := out[key]
			switch fn.Name.Name {
			case "APILifecycleDeprecated":
				l.Deprecated = majorMinor(ret)
			case "APILifecycleRemoved":
				l.Removed = majorMinor(ret)
			case "APILifecycleReplacement":
				l.Replacement = replacement(ret)
			default:
				continue
			}
			out[key] = l
		}
	}
	return out, nil
}

var groupNameRE = regexp.MustCompile(`(?m)^const GroupName = "(.*)"$`)

func groupName(register string) (string, error) {
	data, err := os.ReadFile(register)
	if err != nil {
		return "", err
	}
	m := groupNameRE.FindSubmatch(data)
	if m == nil {
		return "", fmt.Errorf("%s: no GroupName constant", register)
	}
	return strings.TrimSpace(string(m[1])), nil
}

// majorMinor renders `return 1, 29` as "1.29" ("" for 0, 0).
func majorMinor(ret *ast.ReturnStmt) string {
	if len(ret.Results) != 2 {
		return ""
	}
	var n [2]int
	for i, r := range ret.Results {
		lit, ok := r.(*ast.BasicLit)
		if !ok {
			return ""
		}
		n[i], _ = strconv.Atoi(lit.Value)
	}
	if n[0] == 0 && n[1] == 0 {
		return ""
	}
	return fmt.Sprintf("%d.%d", n[0], n[1])
}

// replacement renders `return schema.GroupVersionKind{Group: "g", Version:
// "v1", Kind: "K"}` as "g/v1 K" ("v1 K" for the core group).
func replacement(ret *ast.ReturnStmt) string {
	if len(ret.Results) != 1 {
		return ""
	}
	lit, ok := ret.Results[0].(*ast.CompositeLit)
	if !ok {
		return ""
	}
	f := map[string]string{}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		k, _ := kv.Key.(*ast.Ident)
		v, _ := kv.Value.(*ast.BasicLit)
		if k != nil && v != nil {
			f[k.Name], _ = strconv.Unquote(v.Value)
		}
	}
	if f["Kind"] == "" {
		return ""
	}
	gv := f["Version"]
	if f["Group"] != "" {
		gv = f["Group"] + "/" + gv
	}
	return gv + " " + f["Kind"]
}
