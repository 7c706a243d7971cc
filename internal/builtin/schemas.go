package builtin

// The OpenAPI v3 schemas of the built-in kinds (schemas.json.gz, written by
// tools/builtinsurface): read on first use, one release's definition table
// built on the first request at that release.

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/schema"
)

//go:embed schemas.json.gz
var schemasGz []byte

// snode is one schema node of schemas.json.gz (tools/builtinsurface's node:
// keep the JSON keys in step).
type snode struct {
	Ref           string            `json:"$,omitempty"`
	Type          string            `json:"t,omitempty"`
	Format        string            `json:"f,omitempty"`
	OneOf         []string          `json:"o,omitempty"`
	Enum          []interface{}     `json:"e,omitempty"`
	Required      []string          `json:"r,omitempty"`
	Properties    map[string]*snode `json:"p,omitempty"`
	Items         *snode            `json:"i,omitempty"`
	Additional    *snode            `json:"a,omitempty"`
	ListType      string            `json:"lt,omitempty"`
	ListMapKeys   []string          `json:"lk,omitempty"`
	MapType       string            `json:"mt,omitempty"`
	PatchMergeKey string            `json:"pk,omitempty"`
	PatchStrategy string            `json:"ps,omitempty"`
	Preserve      bool              `json:"pu,omitempty"`
	Embedded      bool              `json:"er,omitempty"`
	IntOrString   bool              `json:"is,omitempty"`
	Nullable      bool              `json:"n,omitempty"`
	Go            string            `json:"go,omitempty"`
	Inline        []string          `json:"in,omitempty"`
}

type schemaFile struct {
	Nodes    []*snode `json:"nodes"`
	Releases []struct {
		Release      string            `json:"release"`
		Kinds        map[string]string `json:"kinds"`
		Defs         map[string]int    `json:"defs"`
		RemovedKinds []string          `json:"removedKinds"`
		RemovedDefs  []string          `json:"removedDefs"`
	} `json:"releases"`
}

// schemaTable is one release's definitions and kinds.
type schemaTable struct {
	defs  map[string]*snode
	kinds map[string]string // "core/v1/Pod" → definition
}

var (
	schemaFileOnce sync.Once
	schemaFileData *schemaFile
	schemaFileErr  error
	// schemaTables holds one entry per release, each built once on first
	// use and read-only afterwards.
	schemaTables map[string]*lazyTable
)

type lazyTable struct {
	once sync.Once
	t    *schemaTable
	err  error
}

func loadSchemaFile() (*schemaFile, error) {
	schemaFileOnce.Do(func() {
		r, err := gzip.NewReader(bytes.NewReader(schemasGz))
		if err != nil {
			schemaFileErr = fmt.Errorf("built-in schemas: %v", err)
			return
		}
		data, err := io.ReadAll(r)
		if err != nil {
			schemaFileErr = fmt.Errorf("built-in schemas: %v", err)
			return
		}
		var f schemaFile
		if err := json.Unmarshal(data, &f); err != nil {
			schemaFileErr = fmt.Errorf("built-in schemas: %v", err)
			return
		}
		schemaFileData = &f
		schemaTables = make(map[string]*lazyTable, len(f.Releases))
		for _, r := range f.Releases {
			schemaTables[r.Release] = &lazyTable{}
		}
	})
	return schemaFileData, schemaFileErr
}

// tableFor returns rel's definitions: the first release's, then each
// later release's differences applied in turn.
func tableFor(rel kubeversion.Release) (*schemaTable, error) {
	f, err := loadSchemaFile()
	if err != nil {
		return nil, err
	}
	key := rel.String()
	lt, ok := schemaTables[key]
	if !ok {
		return nil, fmt.Errorf("no built-in schemas for Kubernetes %s", key)
	}
	lt.once.Do(func() { lt.t, lt.err = buildTable(f, key) })
	return lt.t, lt.err
}

func buildTable(f *schemaFile, key string) (*schemaTable, error) {
	defs := map[string]int{}
	kinds := map[string]string{}
	for _, r := range f.Releases {
		for name, i := range r.Defs {
			defs[name] = i
		}
		for _, name := range r.RemovedDefs {
			delete(defs, name)
		}
		for k, d := range r.Kinds {
			kinds[k] = d
		}
		for _, k := range r.RemovedKinds {
			delete(kinds, k)
		}
		if r.Release == key {
			break
		}
	}
	t := &schemaTable{defs: make(map[string]*snode, len(defs)), kinds: kinds}
	for name, i := range defs {
		if i < 0 || i >= len(f.Nodes) {
			return nil, fmt.Errorf("built-in schemas: %s: definition %d out of range", key, i)
		}
		t.defs[name] = f.Nodes[i]
	}
	return t, nil
}

// KindSchema is the OpenAPI v3 schema kube-apiserver publishes for a
// built-in kind at a release, as a structural schema.
type KindSchema struct {
	// Definition is the kind's OpenAPI definition name
	// ("io.k8s.api.apps.v1.Deployment").
	Definition string
	// Structural is the schema, definitions inlined; descriptions and
	// defaults are left out. A definition that contains itself (the CRD's
	// JSONSchemaProps) is an object preserving unknown fields where it
	// recurs. resource.Quantity (a string or a number) and the types that
	// hold any JSON (apiextensions' JSON and JSONSchemaProps unions) have
	// no type.
	// The caller owns it: each call builds a new one.
	Structural *schema.Structural
	// GoTypes maps each definition the kind reaches to its Go type as the
	// json decoder names it in errors ("v1.DeploymentSpec").
	GoTypes map[string]string
	// Patches are the nodes with x-kubernetes-patch-merge-key or
	// x-kubernetes-patch-strategy (strategic merge patch's), by path:
	// property names, "[]" for a list's items and "{}" for a map's values,
	// joined by "." ("spec.template.spec.containers.[].ports"). They are kept
	// beside the structural schema, whose type (shared with custom
	// resources, linked into the WebAssembly module) has no field for them.
	Patches map[string]Patch
}

// Patch is a node's strategic-merge-patch extensions.
type Patch struct {
	// MergeKey is x-kubernetes-patch-merge-key ("name").
	MergeKey string
	// Strategy is x-kubernetes-patch-strategy ("merge", "retainKeys",
	// "merge,retainKeys").
	Strategy string
}

// SchemaFor returns the schema of group/version kind (group "" or "core"
// for the core group) at release rel, or an error when the release does
// not serve it.
func SchemaFor(rel kubeversion.Release, group, version, kind string) (*KindSchema, error) {
	t, err := tableFor(rel)
	if err != nil {
		return nil, err
	}
	g := group
	if g == "" {
		g = "core"
	}
	def, ok := t.kinds[g+"/"+version+"/"+kind]
	if !ok {
		gv := version
		if group != "" && group != "core" {
			gv = group + "/" + version
		}
		return nil, fmt.Errorf("Kubernetes %s serves no %s %s", rel, gv, kind)
	}
	out := &KindSchema{Definition: def, GoTypes: map[string]string{}, Patches: map[string]Patch{}}
	b := &structuralBuilder{t: t, onPath: map[string]bool{}, out: out}
	out.Structural = b.structural(t.defs[def], def, "")
	return out, nil
}

// structuralBuilder converts a kind's definitions into one structural
// schema; onPath are the definitions being inlined above the node.
type structuralBuilder struct {
	t      *schemaTable
	onPath map[string]bool
	out    *KindSchema
}

// structural converts n (of definition def when def != "") at path with
// its references inlined.
func (b *structuralBuilder) structural(n *snode, def, path string) *schema.Structural {
	if n == nil {
		return &schema.Structural{}
	}
	b.patch(n, path)
	if n.Ref != "" {
		target := b.t.defs[n.Ref]
		if b.onPath[n.Ref] || target == nil {
			return &schema.Structural{Generic: schema.Generic{Type: "object"}, Extensions: schema.Extensions{XPreserveUnknownFields: true}}
		}
		b.onPath[n.Ref] = true
		s := b.structural(target, n.Ref, path)
		delete(b.onPath, n.Ref)
		// the property's own extensions (list type, map type) sit beside
		// its reference
		mergeExtensions(s, n)
		return s
	}
	if def != "" && n.Go != "" {
		b.out.GoTypes[def] = n.Go
	}
	s := &schema.Structural{Generic: schema.Generic{Type: n.Type, Nullable: n.Nullable}}
	mergeExtensions(s, n)
	if n.IntOrString || (n.Format == "int-or-string" && len(n.OneOf) > 0) {
		s.Type = ""
		s.XIntOrString = true
	}
	var vv schema.ValueValidation
	if n.Format != "" && !s.XIntOrString {
		vv.Format = n.Format
	}
	for _, e := range n.Enum {
		vv.Enum = append(vv.Enum, schema.JSON{Object: e})
	}
	vv.Required = append([]string(nil), n.Required...)
	if vv.Format != "" || len(vv.Enum) > 0 || len(vv.Required) > 0 {
		s.ValueValidation = &vv
	}
	if len(n.Properties) > 0 {
		s.Properties = make(map[string]schema.Structural, len(n.Properties))
		for name, p := range n.Properties {
			s.Properties[name] = *b.structural(p, "", join(path, name))
		}
	}
	if n.Items != nil {
		s.Items = b.structural(n.Items, "", join(path, "[]"))
	}
	if n.Additional != nil {
		s.AdditionalProperties = &schema.StructuralOrBool{Structural: b.structural(n.Additional, "", join(path, "{}")), Bool: true}
	}
	return s
}

// patch records a node's strategic-merge-patch extensions at path.
func (b *structuralBuilder) patch(n *snode, path string) {
	if n.PatchMergeKey == "" && n.PatchStrategy == "" {
		return
	}
	p := b.out.Patches[path]
	if n.PatchMergeKey != "" {
		p.MergeKey = n.PatchMergeKey
	}
	if n.PatchStrategy != "" {
		p.Strategy = n.PatchStrategy
	}
	b.out.Patches[path] = p
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func mergeExtensions(s *schema.Structural, n *snode) {
	if n.ListType != "" {
		lt := n.ListType
		s.XListType = &lt
	}
	if len(n.ListMapKeys) > 0 {
		s.XListMapKeys = append([]string(nil), n.ListMapKeys...)
	}
	if n.MapType != "" {
		mt := n.MapType
		s.XMapType = &mt
	}
	s.XPreserveUnknownFields = s.XPreserveUnknownFields || n.Preserve
	s.XEmbeddedResource = s.XEmbeddedResource || n.Embedded
	if n.IntOrString {
		s.XIntOrString = true
		s.Type = ""
	}
}

// goName is a Go type's name without its package ("DeploymentSpec"), as
// reflect.Type.Name() gives it.
func goName(goType string) string {
	if i := strings.LastIndex(goType, "."); i >= 0 {
		return goType[i+1:]
	}
	return goType
}
