package schema

import (
	"errors"
	"github.com/crdlab/crdlab/internal/keys"

	"github.com/crdlab/crdlab/engine/crd"
)

// NewStructural converts an apiextensions.k8s.io/v1 JSONSchemaProps into a
// structural schema, as upstream's NewStructural does after the v1→internal
// conversion (default, example and enum values are decoded with
// crd.JSON.Value, i.e. numbers become float64). A schema that passed CRD
// validation does not fail; otherwise the error names the first unsupported
// construct found (same messages as upstream). A nil schema gives nil, nil.
func NewStructural(s *crd.JSONSchemaProps) (*Structural, error) {
	if s == nil {
		return nil, nil
	}
	out := &Structural{}
	var c converter
	if err := c.into(out, s, 0); err != nil {
		return nil, err
	}
	return out, nil
}

// converter holds, per depth, the copy of the property being converted
// and the node it is converted into before it is stored in its parent's
// map: map values are not addressable, and the address of a variable
// passed down a recursion makes Go allocate that variable on every call.
// Nothing converted keeps a pointer to either (only to what they point
// to), so they are reused for the next property at that depth.
type converter struct {
	props []*crd.JSONSchemaProps
	nodes []*Structural
}

func (c *converter) at(depth int) (*crd.JSONSchemaProps, *Structural) {
	for len(c.props) <= depth {
		c.props = append(c.props, new(crd.JSONSchemaProps))
		c.nodes = append(c.nodes, new(Structural))
	}
	return c.props[depth], c.nodes[depth]
}

// into converts s (not nil) into out (zero).
func (c *converter) into(out *Structural, s *crd.JSONSchemaProps, depth int) error {
	if err := checkUnsupportedFields(s); err != nil {
		return err
	}
	vv, err := newValueValidation(s)
	if err != nil {
		return err
	}
	g, err := newGeneric(s)
	if err != nil {
		return err
	}
	x, err := newExtensions(s)
	if err != nil {
		return err
	}
	*out = Structural{
		Generic:              g,
		Extensions:           x,
		ValueValidation:      vv,
		ValidationExtensions: ValidationExtensions{XValidations: s.XValidations},
	}

	if s.Items != nil {
		if len(s.Items.JSONSchemas) > 0 {
			return errItemsArray
		}
		if s.Items.Schema != nil {
			items := &Structural{}
			if err := c.into(items, s.Items.Schema, depth+1); err != nil {
				return err
			}
			out.Items = items
		}
	}
	if len(s.Properties) > 0 {
		out.Properties = make(map[string]Structural, len(s.Properties))
		p, ps := c.at(depth)
		for k, v := range s.Properties {
			*p, *ps = v, Structural{}
			if err := c.into(ps, p, depth+1); err != nil {
				return firstPropertyError(s)
			}
			out.Properties[k] = *ps
		}
		*p, *ps = crd.JSONSchemaProps{}, Structural{} // keep nothing alive
	}
	if s.AdditionalProperties != nil {
		if s.AdditionalProperties.Schema != nil {
			ap := &Structural{}
			if err := c.into(ap, s.AdditionalProperties.Schema, depth+1); err != nil {
				return err
			}
			out.AdditionalProperties = &StructuralOrBool{Structural: ap, Bool: true}
		} else {
			out.AdditionalProperties = &StructuralOrBool{Bool: s.AdditionalProperties.Allows}
		}
	}
	return nil
}

// firstPropertyError is the error of the first property, in key order,
// that NewStructural rejects: the one a walk in key order returns (the
// properties are converted in map order, and again in key order only when
// one fails).
func firstPropertyError(s *crd.JSONSchemaProps) error {
	for _, k := range keys.Sorted(s.Properties) {
		p := s.Properties[k]
		if _, err := NewStructural(&p); err != nil {
			return err
		}
	}
	return nil
}

var errItemsArray = errors.New("OpenAPIV3Schema 'items' must be a schema, but is an array")

func jsonValue(j *crd.JSON) (JSON, error) {
	if j == nil {
		return JSON{}, nil
	}
	v, err := j.Value()
	if err != nil {
		return JSON{}, err
	}
	return JSON{Object: v}, nil
}

func newGeneric(s *crd.JSONSchemaProps) (Generic, error) {
	g := Generic{
		Type:        s.Type,
		Description: s.Description,
		Title:       s.Title,
		Nullable:    s.Nullable,
	}
	var err error
	if g.Default, err = jsonValue(s.Default); err != nil {
		return Generic{}, err
	}
	if g.Example, err = jsonValue(s.Example); err != nil {
		return Generic{}, err
	}
	if s.ExternalDocs != nil {
		g.ExternalDocs = &ExternalDocumentation{Description: s.ExternalDocs.Description, URL: s.ExternalDocs.URL}
	}
	return g, nil
}

func newExtensions(s *crd.JSONSchemaProps) (Extensions, error) {
	x := Extensions{
		XEmbeddedResource: s.XEmbeddedResource,
		XIntOrString:      s.XIntOrString,
		XListMapKeys:      s.XListMapKeys,
		XListType:         s.XListType,
		XMapType:          s.XMapType,
	}
	if s.XPreserveUnknownFields != nil {
		if !*s.XPreserveUnknownFields {
			return Extensions{}, errors.New("internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined")
		}
		x.XPreserveUnknownFields = true
	}
	return x, nil
}

func newValueValidation(s *crd.JSONSchemaProps) (*ValueValidation, error) {
	not, err := newNestedValueValidation(s.Not)
	if err != nil {
		return nil, err
	}
	v := &ValueValidation{
		Format:           s.Format,
		Maximum:          s.Maximum,
		ExclusiveMaximum: s.ExclusiveMaximum,
		Minimum:          s.Minimum,
		ExclusiveMinimum: s.ExclusiveMinimum,
		MaxLength:        s.MaxLength,
		MinLength:        s.MinLength,
		Pattern:          s.Pattern,
		MaxItems:         s.MaxItems,
		MinItems:         s.MinItems,
		UniqueItems:      s.UniqueItems,
		MultipleOf:       s.MultipleOf,
		MaxProperties:    s.MaxProperties,
		MinProperties:    s.MinProperties,
		Required:         s.Required,
		Not:              not,
	}
	for i := range s.Enum {
		e, err := jsonValue(&s.Enum[i])
		if err != nil {
			return nil, err
		}
		v.Enum = append(v.Enum, e)
	}
	for _, list := range []struct {
		in  []crd.JSONSchemaProps
		out *[]NestedValueValidation
	}{{s.AllOf, &v.AllOf}, {s.AnyOf, &v.AnyOf}, {s.OneOf, &v.OneOf}} {
		for i := range list.in {
			clause, err := newNestedValueValidation(&list.in[i])
			if err != nil {
				return nil, err
			}
			*list.out = append(*list.out, *clause)
		}
	}
	return v, nil
}

func newNestedValueValidation(s *crd.JSONSchemaProps) (*NestedValueValidation, error) {
	if s == nil {
		return nil, nil
	}
	if err := checkUnsupportedFields(s); err != nil {
		return nil, err
	}
	vv, err := newValueValidation(s)
	if err != nil {
		return nil, err
	}
	g, err := newGeneric(s)
	if err != nil {
		return nil, err
	}
	x, err := newExtensions(s)
	if err != nil {
		return nil, err
	}
	out := &NestedValueValidation{
		ValueValidation:      *vv,
		ValidationExtensions: ValidationExtensions{XValidations: s.XValidations},
		ForbiddenGenerics:    g,
		ForbiddenExtensions:  x,
	}
	if s.Items != nil {
		if len(s.Items.JSONSchemas) > 0 {
			return nil, errItemsArray
		}
		if out.Items, err = newNestedValueValidation(s.Items.Schema); err != nil {
			return nil, err
		}
	}
	if s.Properties != nil {
		out.Properties = make(map[string]NestedValueValidation, len(s.Properties))
		for _, k := range keys.Sorted(s.Properties) {
			p := s.Properties[k]
			nvv, err := newNestedValueValidation(&p)
			if err != nil {
				return nil, err
			}
			out.Properties[k] = *nvv
		}
	}
	if s.AdditionalProperties != nil {
		if s.AdditionalProperties.Schema != nil {
			if out.AdditionalProperties, err = newNestedValueValidation(s.AdditionalProperties.Schema); err != nil {
				return nil, err
			}
		} else if s.AdditionalProperties.Allows {
			out.AdditionalProperties = &NestedValueValidation{}
		}
	}
	return out, nil
}

// checkUnsupportedFields reports the first JSON-Schema construct that CRD
// validation forbids but which is still set.
func checkUnsupportedFields(s *crd.JSONSchemaProps) error {
	switch {
	case len(s.ID) > 0:
		return errors.New("OpenAPIV3Schema 'id' is not supported")
	case len(s.Schema) > 0:
		return errors.New("OpenAPIV3Schema 'schema' is not supported")
	case s.Ref != nil && len(*s.Ref) > 0:
		return errors.New("OpenAPIV3Schema '$ref' is not supported")
	case len(s.PatternProperties) > 0:
		return errors.New("OpenAPIV3Schema 'patternProperties' is not supported")
	case len(s.Dependencies) > 0:
		return errors.New("OpenAPIV3Schema 'dependencies' is not supported")
	case s.AdditionalItems != nil:
		return errors.New("OpenAPIV3Schema 'additionalItems' is not supported")
	case len(s.Definitions) > 0:
		return errors.New("OpenAPIV3Schema 'definitions' is not supported")
	}
	return nil
}
