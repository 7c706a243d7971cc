package admission

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	kcel "github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/schema"
)

// The one built-in kind type checking resolves: apiextensions.k8s.io/v1
// CustomResourceDefinition, whose schema the policy status controller's
// definitions resolver gives from apiextensions-apiserver's generated
// OpenAPI definitions (references inlined, recursive ones as {type:
// object}). crdkind.json holds it reduced to what the CEL type depends
// on; conformance/admission_typecheck_test.go (TestCRDKindSchemaIsUpstreams)
// writes and pins it.
//
//go:embed crdkind.json
var crdKindJSON []byte

// crdKindGVK is the kind crdkind.json types.
var crdKindGVK = GVK{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}

// kindSchema is crdkind.json's node (conformance/upstream.KindSchema).
type kindSchema struct {
	Type                 string                `json:"type"`
	Format               string                `json:"format"`
	IntOrString          bool                  `json:"intOrString"`
	EmbeddedResource     bool                  `json:"embeddedResource"`
	Required             []string              `json:"required"`
	Properties           map[string]kindSchema `json:"properties"`
	Items                *kindSchema           `json:"items"`
	AdditionalProperties *kindSchema           `json:"additionalProperties"`
}

func (k *kindSchema) structural() *schema.Structural {
	s := &schema.Structural{Generic: schema.Generic{Type: k.Type}}
	s.XIntOrString, s.XEmbeddedResource = k.IntOrString, k.EmbeddedResource
	if k.Format != "" || len(k.Required) > 0 {
		s.ValueValidation = &schema.ValueValidation{Format: k.Format, Required: k.Required}
	}
	if k.Properties != nil {
		s.Properties = make(map[string]schema.Structural, len(k.Properties))
		for n, p := range k.Properties {
			s.Properties[n] = *p.structural()
		}
	}
	if k.Items != nil {
		s.Items = k.Items.structural()
	}
	if k.AdditionalProperties != nil {
		s.AdditionalProperties = &schema.StructuralOrBool{Structural: k.AdditionalProperties.structural(), Bool: true}
	}
	return s
}

// crdKindSchema is CustomResourceDefinition's schema, decoded once.
var crdKindSchema = sync.OnceValues(func() (*schema.Structural, error) {
	var k kindSchema
	if err := json.Unmarshal(crdKindJSON, &k); err != nil {
		return nil, fmt.Errorf("crdkind.json: %v", err)
	}
	return k.structural(), nil
})

// crdKindType is the CEL type of a CustomResourceDefinition, object types
// named after name.
func crdKindType(name string) (*kcel.DeclType, error) {
	s, err := crdKindSchema()
	if err != nil {
		return nil, err
	}
	return kcel.SchemaDeclType(s, true).MaybeAssignTypeName(name), nil
}
