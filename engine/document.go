package engine

import "context"

// Document is one object document parsed once, for callers that read an
// object's identity before validating it (a catalogue finding each
// object's CRD by apiVersion and kind): ParseDocument reads it as
// Validate would, Object gives the decoded value to look at, and
// CRD.ValidateDocument validates it without parsing it again. The
// result is the one Validate gives for the same bytes, positions
// included (they are computed from the bytes, and only when asked).
//
// A Document is validated once: its decoded value becomes the request's
// object, which validation prunes and defaults. A second
// ValidateDocument parses the bytes again.
type Document struct {
	src  []byte
	body *jsonBody // nil once validated
}

// ParseDocument parses one object document (YAML or JSON) as Validate
// does. It never fails: a document that is not an object is reported by
// the validation, as the API server reports it.
func ParseDocument(object []byte) *Document {
	return &Document{src: object, body: toJSONBody(object)}
}

// Bytes returns the document as given to ParseDocument.
func (d *Document) Bytes() []byte { return d.src }

// Object returns the decoded object when the document is a YAML mapping
// read without producing its JSON text (the common case), before it is
// validated: the value the API server decodes from the JSON kubectl
// sends. The caller must not change it. ok is false otherwise (JSON
// documents, YAML whose conversion is not certain): read Bytes then.
func (d *Document) Object() (obj map[string]interface{}, ok bool) {
	if d.body == nil || d.body.value == nil {
		return nil, false
	}
	return d.body.value, true
}

// ValidateDocument is ValidateContext of a parsed document: the same
// result, without parsing the document again.
func (c *CRD) ValidateDocument(ctx context.Context, d *Document, opts ValidateOptions) (*Result, error) {
	body := d.body
	d.body = nil
	if body == nil || bodyTooLarge(d.src, opts.MaxBodyBytes) != nil {
		return c.ValidateContext(ctx, d.src, opts)
	}
	if err := checkOneBody(d.src, opts); err != nil {
		return nil, err
	}
	version := opts.Version
	if version == "" {
		version = c.pickVersion(body)
	}
	return c.validateIn(ctx, version, d.src, body, opts)
}
