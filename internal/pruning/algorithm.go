// Package pruning removes the fields of a custom resource that its structural
// schema does not specify, mirroring kube-apiserver's
// k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning (v0.37.2):
//
//   - x-kubernetes-preserve-unknown-fields keeps unknown fields of a node, but
//     the properties and additionalProperties it does specify are still pruned
//     below it;
//   - apiVersion, kind and metadata are kept at the resource root and in
//     x-kubernetes-embedded-resource objects (metadata itself is coerced by
//     the objectmeta package, not here);
//   - everything below a node without a schema (a property of a node with
//     additionalProperties: true, or a list item without items) is removed.
//
// The pruned paths are reported the way kube-apiserver reports them in its
// "unknown field" warnings (UnknownFieldPathOptions with
// TrackUnknownFieldPaths): keys joined with ".", list indexes as "[i]", no
// escaping, sorted with sort.Strings.
package pruning

import (
	"sort"

	"github.com/crdlab/crdlab/internal/schema"
)

// Options mirrors upstream's UnknownFieldPathOptions.
type Options struct {
	// TrackUnknownFieldPaths records the path of every pruned field.
	TrackUnknownFieldPaths bool
}

// Prune removes, in place, the fields of obj that s does not specify and
// returns the sorted paths of the pruned fields. isResourceRoot says that obj
// is a whole resource: its apiVersion, kind and metadata are kept.
// It is upstream's PruneWithOptions with TrackUnknownFieldPaths set.
func Prune(obj interface{}, s *schema.Structural, isResourceRoot bool) []string {
	return PruneWithOptions(obj, s, isResourceRoot, Options{TrackUnknownFieldPaths: true})
}

// PruneWithOptions is Prune with the path tracking chosen by opts; without
// tracking it returns nil.
func PruneWithOptions(obj interface{}, s *schema.Structural, isResourceRoot bool, opts Options) []string {
	s = schema.ResourceRoot(s, isResourceRoot)
	p := &pruner{schema.UnknownFieldPathOptions{TrackUnknownFieldPaths: opts.TrackUnknownFieldPaths}}
	p.prune(obj, s)
	sort.Strings(p.UnknownFieldPaths)
	return p.UnknownFieldPaths
}

// metaFields are kept at a resource root and in embedded resources.
var metaFields = map[string]bool{
	"apiVersion": true,
	"kind":       true,
	"metadata":   true,
}

// pruner carries the path of the node being visited as the list of string
// pieces upstream builds ("spec", ".", "items", "[", "0", "]") and the
// unknown fields' paths, as upstream's pruner carries its options.
type pruner struct {
	schema.UnknownFieldPathOptions
}

func (p *pruner) prune(x interface{}, s *schema.Structural) {
	if s != nil && s.XPreserveUnknownFields {
		p.skipPrune(x, s)
		return
	}
	l := len(p.ParentPath)
	defer func() { p.ParentPath = p.ParentPath[:l] }()

	switch x := x.(type) {
	case map[string]interface{}:
		if s == nil {
			for k := range x {
				p.RecordUnknownField(k)
				delete(x, k)
			}
			return
		}
		p.pruneFields(x, s, false)
	case []interface{}:
		var items *schema.Structural
		if s != nil {
			items = s.Items
		}
		for i, v := range x {
			p.AppendIndex(i)
			p.prune(v, items)
			p.ParentPath = p.ParentPath[:l]
		}
	}
}

// skipPrune walks a node with x-kubernetes-preserve-unknown-fields: unknown
// fields stay, specified ones are pruned by their schema.
func (p *pruner) skipPrune(x interface{}, s *schema.Structural) {
	if s == nil {
		return
	}
	l := len(p.ParentPath)
	defer func() { p.ParentPath = p.ParentPath[:l] }()

	switch x := x.(type) {
	case map[string]interface{}:
		p.pruneFields(x, s, true)
	case []interface{}:
		for i, v := range x {
			p.AppendIndex(i)
			p.skipPrune(v, s.Items)
			p.ParentPath = p.ParentPath[:l]
		}
	}
}

// pruneFields walks the fields of an object with schema s: specified ones
// (properties, additionalProperties) are pruned by their schema, the
// others dropped and recorded, or kept when keepUnknown
// (x-kubernetes-preserve-unknown-fields).
func (p *pruner) pruneFields(x map[string]interface{}, s *schema.Structural, keepUnknown bool) {
	l := len(p.ParentPath)
	for k, v := range x {
		if s.XEmbeddedResource && metaFields[k] {
			continue
		}
		if _, ok := s.Properties[k]; ok {
			if isCompound(v) { // prune of anything else does nothing
				prop := s.Properties[k]
				p.AppendKey(k)
				p.prune(v, &prop)
				p.ParentPath = p.ParentPath[:l]
			}
		} else if s.AdditionalProperties != nil {
			p.AppendKey(k)
			p.prune(v, s.AdditionalProperties.Structural)
			p.ParentPath = p.ParentPath[:l]
		} else if !keepUnknown {
			// upstream does not report apiVersion, kind and metadata at the
			// top of the pruned value (path still empty).
			if !metaFields[k] || len(p.ParentPath) > 0 {
				p.RecordUnknownField(k)
			}
			delete(x, k)
		}
	}
}

// isCompound reports whether x is an object or a list, the values a walk
// descends into (a property's schema is a copy out of its map, moved to the
// heap when its address is taken: only taken for them).
func isCompound(x interface{}) bool {
	switch x.(type) {
	case map[string]interface{}, []interface{}:
		return true
	}
	return false
}
