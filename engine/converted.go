package engine

import (
	"fmt"
	"sort"
)

// CoerceConverted applies to obj, an object the CRD's converter (a
// conversion webhook) returned at version, what the storage codec's
// schemaCoercingConverter (customresource_handler.go) does after the
// converter: pruning with version's structural schema, dropping
// non-nullable nulls without defaults, and the ObjectMeta coercion of
// unstructuredSchemaCoercer without dropInvalidMetadata. obj is changed in
// place; the result lists the paths of the fields dropped, sorted. The
// error is the coercion's (the API server returns it as the read's error),
// or misuse (an invalid CRD, a version that is not the CRD's).
func (c *CRD) CoerceConverted(obj map[string]interface{}, version string) ([]string, error) {
	if len(c.errs) > 0 {
		return nil, fmt.Errorf("CustomResourceDefinition %q is invalid: %v", c.def.Metadata.Name, c.errs.ToAggregate())
	}
	if c.buildErr != nil {
		return nil, c.buildErr
	}
	v, ok := c.validators[version]
	if !ok {
		return nil, fmt.Errorf("version %q is not a served or storage version of CustomResourceDefinition %q", version, c.def.Metadata.Name)
	}
	pruned, err := v.coerce(obj, false)
	if err != nil {
		return nil, err
	}
	if pruned == nil {
		pruned = []string{}
	}
	sort.Strings(pruned)
	return pruned, nil
}
