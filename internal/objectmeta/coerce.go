package objectmeta

import (
	"github.com/crdlab/crdlab/internal/keys"
	"sort"

	"github.com/crdlab/crdlab/engine/field"
	"github.com/crdlab/crdlab/internal/schema"
)

// CoerceOptions says how CoerceWithOptions treats malformed and unknown
// metadata fields.
type CoerceOptions struct {
	// DropInvalidFields drops apiVersion/kind that are not strings and
	// metadata fields of the wrong type instead of failing.
	DropInvalidFields bool
	// ReturnUnknownFieldPaths returns the paths of unknown metadata fields.
	ReturnUnknownFieldPaths bool
}

// Coerce is CoerceWithOptions without unknown field paths.
func Coerce(pth *field.Path, obj interface{}, s *schema.Structural, isResourceRoot, dropInvalidFields bool) *field.Error {
	err, _ := CoerceWithOptions(pth, obj, s, isResourceRoot, CoerceOptions{DropInvalidFields: dropInvalidFields})
	return err
}

// CoerceWithOptions checks the types of apiVersion and kind of embedded
// resources (and of the root when isResourceRoot) and replaces their
// metadata by its ObjectMeta round trip (unknown fields pruned, a zero
// creationTimestamp removed). It walks obj along s in sorted key order and
// stops at the first error. The unknown field paths come back sorted.
func CoerceWithOptions(pth *field.Path, obj interface{}, s *schema.Structural, isResourceRoot bool, opts CoerceOptions) (*field.Error, []string) {
	s = schema.ResourceRoot(s, isResourceRoot)
	c := coercer{opts: opts}
	track := &schema.UnknownFieldPathOptions{TrackUnknownFieldPaths: opts.ReturnUnknownFieldPaths}
	err := c.coerce(pth, obj, s, track)
	sort.Strings(track.UnknownFieldPaths)
	return err, track.UnknownFieldPaths
}

type coercer struct {
	opts CoerceOptions
}

func (c *coercer) coerce(pth *field.Path, x interface{}, s *schema.Structural, track *schema.UnknownFieldPathOptions) *field.Error {
	if s == nil {
		return nil
	}
	origLen := len(track.ParentPath)
	defer func() { track.ParentPath = track.ParentPath[:origLen] }()

	switch x := x.(type) {
	case map[string]interface{}:
		for _, k := range keys.Sorted(x) {
			v, present := x[k]
			if !present {
				continue
			}
			if s.XEmbeddedResource {
				switch k {
				case "apiVersion", "kind":
					if _, ok := v.(string); !ok {
						if c.opts.DropInvalidFields {
							delete(x, k)
						} else {
							return field.Invalid(pth.Child(k), v, "must be a string")
						}
					}
				case "metadata":
					meta, found, unknown, err := GetObjectMetaWithOptions(x, ObjectMetaOptions{
						DropMalformedFields:     c.opts.DropInvalidFields,
						ReturnUnknownFieldPaths: c.opts.ReturnUnknownFieldPaths,
						ParentPath:              pth,
					})
					track.UnknownFieldPaths = append(track.UnknownFieldPaths, unknown...)
					if err != nil {
						if !c.opts.DropInvalidFields {
							return field.Invalid(pth.Child("metadata"), v, err.Error())
						}
						// with DropInvalidFields, a non-object metadata passes through
					} else if found {
						_ = SetObjectMeta(x, meta) // never fails; a zero creationTimestamp is never written
					}
					// as upstream, the walk below continues with the value
					// read before the replacement
				}
			}
			if _, ok := s.Properties[k]; ok {
				switch v.(type) {
				case map[string]interface{}, []interface{}:
					// coerce of anything else does nothing: the
					// property's schema (a copy out of its map, on the
					// heap once its address is taken) and path are
					// only made for these.
					prop := s.Properties[k]
					track.AppendKey(k)
					if err := c.coerce(pth.Child(k), v, &prop, track); err != nil {
						return err
					}
					track.ParentPath = track.ParentPath[:origLen]
				}
			} else if s.AdditionalProperties != nil {
				track.AppendKey(k)
				if err := c.coerce(pth.Key(k), v, s.AdditionalProperties.Structural, track); err != nil {
					return err
				}
				track.ParentPath = track.ParentPath[:origLen]
			}
		}
	case []interface{}:
		for i, v := range x {
			track.AppendIndex(i)
			if err := c.coerce(pth.Index(i), v, s.Items, track); err != nil {
				return err
			}
			track.ParentPath = track.ParentPath[:origLen]
		}
	}
	return nil
}
