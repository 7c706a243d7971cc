package abi

import (
	"encoding/json"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	crdtypes "github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/celcomplete"
	"github.com/crdlab/crdlab/wire"
)

// complete answers "complete": internal/celcomplete (the language
// server's completion) at the request's cursor, offsets in UTF-16 code
// units: in a CRD's rule on SchemaNode, or in an expression of the
// admission policy r.Policy (object typed by the CRD of r.Handle).
func (s *Server) complete(r *wire.Request) (interface{}, *wire.Error) {
	var policy *celcomplete.Policy
	if r.Policy != "" {
		var defs []*crdtypes.CustomResourceDefinition
		if r.Handle != 0 {
			c, e := s.lookup(r.Handle)
			if e != nil {
				return nil, e
			}
			if def := c.Definition(); def != nil {
				defs = append(defs, def)
			}
		}
		p, err := celcomplete.PolicyFor([]byte(r.Policy), defs)
		if err != nil {
			return nil, &wire.Error{Code: wire.CodeDecodeError, Message: "policy: " + err.Error()}
		}
		policy = p
	}
	if policy == nil && len(r.SchemaNode) == 0 {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: `complete request needs a "schemaNode" (the schema object that carries the rule) or a "policy" (the admission policy whose expression it is)`}
	}
	var node crdtypes.JSONSchemaProps
	if policy == nil {
		if err := json.Unmarshal(r.SchemaNode, &node); err != nil {
			return nil, &wire.Error{Code: wire.CodeBadRequest, Message: "schemaNode: " + err.Error()}
		}
	}
	units := utf16Len(r.Expression)
	cursor := units
	if r.Cursor != nil {
		cursor = *r.Cursor
		if cursor < 0 || cursor > units {
			return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf("cursor %d is outside the expression (0 to %d UTF-16 code units)", cursor, units)}
		}
	}
	before := r.Expression[:byteOffset(r.Expression, cursor)]
	out := wire.CompleteResult{From: cursor, To: cursor, Options: []wire.CompletionOption{}}
	var res *celcomplete.Result
	if policy != nil {
		res = celcomplete.CompletePolicy(policy, before)
	} else {
		res = celcomplete.Complete(&node, before, r.Root)
	}
	if res == nil {
		return out, nil
	}
	out.From = utf16Len(before[:res.From])
	out.Type = res.Type
	for _, o := range res.Options {
		out.Options = append(out.Options, wire.CompletionOption{Label: o.Label, Kind: string(o.Kind), Detail: o.Detail, Info: o.Info})
	}
	return out, nil
}

// utf16Len is the length of s in UTF-16 code units (an invalid byte
// counts as one, as the U+FFFD it decodes to).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// byteOffset is the byte offset of the UTF-16 offset u in s (u within
// s); an offset inside a surrogate pair is the pair's start.
func byteOffset(s string, u int) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		w := utf16.RuneLen(r)
		if n+w > u {
			return i
		}
		n += w
		i += size
	}
	return len(s)
}
