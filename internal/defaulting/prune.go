package defaulting

import (
	"fmt"
	"github.com/crdlab/crdlab/internal/keys"
	"reflect"

	"github.com/crdlab/crdlab/internal/objectmeta"
	"github.com/crdlab/crdlab/internal/pruning"
	"github.com/crdlab/crdlab/internal/schema"
)

// PruneDefaults prunes every default value of s, in place, as the value
// would be pruned inside a resource of schema s: each default is placed at
// its position in a surrounding object, the embedded ObjectMeta of that
// object is coerced (dropping malformed fields) and the object is pruned with
// s as resource root. kube-apiserver does this to the structural schema of
// every served version.
//
// Like upstream it mutates the schema nodes of s (their Default and, for
// properties, the Properties map entries): call it on a schema you own.
// Default values themselves are copied before pruning, never changed in
// place. Properties are visited in sorted order, so with several bad
// defaults the error reported is that of the first in key order (upstream
// visits them in map order).
func PruneDefaults(s *schema.Structural) error {
	p := defaultPruner{root: s}
	_, err := p.prune(s, NewRootObjectFunc())
	return err
}

type defaultPruner struct {
	root *schema.Structural
}

func (p *defaultPruner) prune(s *schema.Structural, f SurroundingObjectFunc) (changed bool, err error) {
	if s == nil {
		return false, nil
	}
	if s.Default.Object != nil {
		obj, acc, err := f(schema.DeepCopyJSONValue(s.Default.Object))
		if err != nil {
			return false, fmt.Errorf("failed to prune default value: %v", err)
		}
		if ferr := objectmeta.Coerce(nil, obj, p.root, true, true); ferr != nil {
			return false, fmt.Errorf("failed to prune default value: %v", ferr)
		}
		pruning.PruneWithOptions(obj, p.root, true, pruning.Options{})
		pruned, _, err := acc(obj)
		if err != nil {
			return false, fmt.Errorf("failed to prune default value: %v", err)
		}
		if !reflect.DeepEqual(pruned, s.Default.Object) {
			changed = true
		}
		s.Default.Object = pruned
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		c, err := p.prune(s.AdditionalProperties.Structural, f.Child("*"))
		if err != nil {
			return false, err
		}
		changed = changed || c
	}
	if s.Items != nil {
		c, err := p.prune(s.Items, f.Index())
		if err != nil {
			return false, err
		}
		changed = changed || c
	}
	keys := keys.Sorted(s.Properties)
	for _, k := range keys {
		sub := s.Properties[k]
		c, err := p.prune(&sub, f.Child(k))
		if err != nil {
			return false, err
		}
		if c {
			s.Properties[k] = sub
			changed = true
		}
	}
	return changed, nil
}
