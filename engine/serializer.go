package engine

// The request body as the API server's JSON serializer
// (k8s.io/apimachinery/pkg/runtime/serializer/json) reads it: the body
// kubectl sends for a JSON or YAML document, the apiVersion and kind the
// serializer interprets first, and the strict decoding of the whole object.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/crdlab/crdlab/internal/jsonstrict"
	"github.com/crdlab/crdlab/internal/objectmeta"
	"github.com/crdlab/crdlab/internal/yamljson"
	"sigs.k8s.io/yaml"
)

// gvk is a group, version and kind.
type gvk struct{ Group, Version, Kind string }

func (g gvk) groupVersion() string {
	if g.Group == "" {
		return g.Version
	}
	return g.Group + "/" + g.Version
}

// toJSON returns the body the API server receives for one object document:
// valid JSON as is (so duplicate fields reach the server), YAML converted as
// kubectl does (sigs.k8s.io/yaml.YAMLToJSON), and a document that looks like
// JSON but is neither valid JSON nor YAML as is (the server reports the JSON
// syntax error).
func toJSON(doc []byte) ([]byte, error) {
	trimmed := bytes.TrimSpace(doc)
	looksJSON := len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[')
	if looksJSON && (json.Valid(trimmed) || jsonTooDeep(trimmed)) {
		return trimmed, nil
	}
	js, err := yaml.YAMLToJSON(doc)
	if err != nil && looksJSON {
		return trimmed, nil
	}
	return js, err
}

// jsonTooDeep reports whether encoding/json rejects data for nesting
// deeper than its 10,000 levels before any other syntax error. YAMLToJSON
// then fails too (goyaml.v2 stops at the same 10,001st flow level: the
// valid JSON before it is the same flow collections in YAML), so toJSON
// returns data as is without running goyaml.v2's parser, which recurses
// once per level (in the wasm module on the JavaScript engine's stack,
// which 10,000 levels overflow; issue 16).
func jsonTooDeep(data []byte) bool {
	err := json.Unmarshal(data, new(json.RawMessage))
	return err != nil && strings.HasSuffix(err.Error(), "exceeded max depth")
}

// jsonBody is one request body as the API server receives it, converted
// once per request: the JSON text (toJSON), or, for YAML documents the
// yamljson shortcut reads with certainty, the decoded object itself, the
// text being written from it only when an error message quotes it.
type jsonBody struct {
	json  []byte
	err   error
	value map[string]interface{} // the shortcut's object: what jsonstrict.Decode(json) gives

	interpreted bool
	gvk         gvk
	gvkErr      error
}

func toJSONBody(doc []byte) *jsonBody {
	trimmed := bytes.TrimSpace(doc)
	if len(trimmed) > 0 && trimmed[0] != '{' && trimmed[0] != '[' {
		if v, ok := yamljson.Value(doc, canonicalNumber); ok {
			if m, ok := v.(map[string]interface{}); ok {
				return &jsonBody{value: m}
			}
		}
	}
	js, err := toJSON(doc)
	return &jsonBody{json: js, err: err}
}

// text returns the JSON text. For the shortcut's object it is written
// from the object — the bytes YAMLToJSON writes — so it must be called
// before the decoded object is changed.
func (b *jsonBody) text() []byte {
	if b.json == nil && b.value != nil {
		b.json, _ = json.Marshal(b.value)
	}
	return b.json
}

// decode is jsonstrict.Decode(b.text(), strict); the shortcut's object has no
// duplicate fields to report. The caller owns the result.
func (b *jsonBody) decode(strict bool) (interface{}, []error, error) {
	if b.value != nil {
		return b.value, nil, nil
	}
	return jsonstrict.Decode(b.json, strict)
}

// interpret is interpret(b.text()), computed once: the caller gets its own
// copy. For the shortcut's object only the top-level keys encoding/json
// could match to apiVersion or kind (it matches names as bytes.EqualFold
// does) are encoded and read.
func (b *jsonBody) interpret() (*gvk, error) {
	if !b.interpreted {
		b.interpreted = true
		text := b.json
		if b.value != nil {
			typeMeta := map[string]interface{}{}
			for k, v := range b.value {
				if strings.EqualFold(k, "apiVersion") || strings.EqualFold(k, "kind") {
					typeMeta[k] = v
				}
			}
			text, _ = json.Marshal(typeMeta)
		}
		g, err := interpret(text)
		if g != nil {
			b.gvk = *g
		}
		b.gvkErr = err
	}
	if b.gvkErr != nil {
		return nil, b.gvkErr
	}
	g := b.gvk
	return &g, nil
}

// interpret mirrors json.SimpleMetaFactory.Interpret: it reads apiVersion and
// kind with encoding/json (whose syntax errors are therefore the ones the API
// server reports).
func interpret(data []byte) (*gvk, error) {
	findKind := struct {
		// +optional
		APIVersion string `json:"apiVersion,omitempty"`
		// +optional
		Kind string `json:"kind,omitempty"`
	}{}
	if err := json.Unmarshal(data, &findKind); err != nil {
		return nil, fmt.Errorf("couldn't get version/kind; json parse error: %v", err)
	}
	g, v, err := objectmeta.ParseGroupVersion(findKind.APIVersion)
	if err != nil {
		return nil, err
	}
	return &gvk{Group: g, Version: v, Kind: findKind.Kind}, nil
}

// gvkWithDefaults mirrors the json serializer's helper of the same name.
func gvkWithDefaults(actual, def gvk) gvk {
	if len(actual.Kind) == 0 {
		actual.Kind = def.Kind
	}
	if len(actual.Version) == 0 && len(actual.Group) == 0 {
		actual.Group = def.Group
		actual.Version = def.Version
	}
	if len(actual.Version) == 0 && actual.Group == def.Group {
		actual.Version = def.Version
	}
	return actual
}

// canonicalNumber is jsonstrict.Number for the literals json.Marshal writes back
// unchanged from the decoded value (not "-0"), so that jsonBody.text of the
// shortcut's object is the text YAMLToJSON writes.
func canonicalNumber(s string) (interface{}, bool) {
	v, ok := jsonstrict.Number(s)
	if i, isInt := v.(int64); ok && isInt && strconv.FormatInt(i, 10) != s {
		return nil, false
	}
	return v, ok
}
