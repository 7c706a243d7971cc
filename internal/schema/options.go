package schema

import (
	"strconv"
	"strings"
)

// UnknownFieldPathOptions tracks the paths of unknown fields while an object
// is walked (pruning, ObjectMeta coercion), as upstream's options.go.
type UnknownFieldPathOptions struct {
	// TrackUnknownFieldPaths turns the tracking on.
	TrackUnknownFieldPaths bool
	// ParentPath is the path of the current node, built while walking.
	ParentPath []string
	// UnknownFieldPaths are the recorded paths, e.g. "spec.foo[1].bar".
	UnknownFieldPaths []string
}

// AppendKey descends into the field key.
func (o *UnknownFieldPathOptions) AppendKey(key string) {
	if !o.TrackUnknownFieldPaths {
		return
	}
	if len(o.ParentPath) > 0 {
		o.ParentPath = append(o.ParentPath, ".")
	}
	o.ParentPath = append(o.ParentPath, key)
}

// AppendIndex descends into the list index.
func (o *UnknownFieldPathOptions) AppendIndex(index int) {
	if !o.TrackUnknownFieldPaths {
		return
	}
	o.ParentPath = append(o.ParentPath, "[", strconv.Itoa(index), "]")
}

// RecordUnknownField records the path of the unknown field key of the
// current node.
func (o *UnknownFieldPathOptions) RecordUnknownField(key string) {
	if !o.TrackUnknownFieldPaths {
		return
	}
	l := len(o.ParentPath)
	o.AppendKey(key)
	o.UnknownFieldPaths = append(o.UnknownFieldPaths, strings.Join(o.ParentPath, ""))
	o.ParentPath = o.ParentPath[:l]
}
