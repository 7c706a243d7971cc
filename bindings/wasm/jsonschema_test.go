package wasm

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/jsonschema"
	"github.com/crdlab/crdlab/wire"
)

// nativeSchema is what `crdlab schema` does with a CRD: decode, compile
// (a rejected CRD gives nothing), convert, render each document.
func nativeSchema(data []byte, opts jsonschema.Options) (docs []string, rejected bool, err error) {
	def, err := crd.DecodeOne(data, "")
	if err != nil {
		return nil, false, err
	}
	if c := engine.CompileCRD(def); len(c.Errors()) > 0 {
		return nil, true, nil
	}
	schemas, err := jsonschema.Convert(def, opts)
	if err != nil {
		return nil, false, err
	}
	for i := range schemas {
		b, err := schemas[i].JSON()
		if err != nil {
			return nil, false, err
		}
		docs = append(docs, schemas[i].Version+"\n"+string(b))
	}
	return docs, false, nil
}

func moduleDocs(res *wire.SchemaResult) []string {
	var out []string
	for _, d := range res.Schemas {
		out = append(out, d.Version+"\n"+d.Document)
	}
	return out
}

// TestParitySchema: the JSON Schema documents through the module are the
// native export's, byte for byte, for the CronTab example and the corpus
// sample (every corpus CRD with CRDLAB_CORPUS=all), under both drafts,
// strict or not, from CRD text and from a compiled CRD.
func TestParitySchema(t *testing.T) {
	ctx := context.Background()
	r := newRuntime(t, Options{MaxInstances: 1})
	inputs := map[string][]byte{"examples/crontab-crd.yaml": crontabCRD(t), "crontab+rule": []byte(crontabWithRule(t))}
	if !testing.Short() {
		crds := corpusCRDs(t)
		for _, n := range corpusSample(slices.Sorted(maps.Keys(crds))) {
			inputs[n] = crds[n]
		}
	}
	docs := 0
	for _, name := range slices.Sorted(maps.Keys(inputs)) {
		data := inputs[name]
		// The defaults from the CRD text (the examples) or the compiled
		// CRD (the corpus: each compiled once); draft-07 and strict from
		// the compiled CRD.
		want, rejected, err := nativeSchema(data, jsonschema.Options{})
		var c *CRD
		var got *wire.SchemaResult
		var merr error
		if strings.HasPrefix(name, "crontab") || strings.HasPrefix(name, "examples/") {
			got, merr = r.Schema(ctx, data, SchemaOptions{})
		} else if c, merr = r.Compile(ctx, data); merr == nil {
			got, merr = c.Schema(ctx, SchemaOptions{})
		}
		if err != nil {
			// Not a CRD document (e.g. a Helm template): the module
			// refuses it too.
			var e *Error
			if !errors.As(merr, &e) || e.Code != wire.CodeDecodeError {
				t.Errorf("%s: native %v, module %v", name, err, merr)
			}
			continue
		}
		if merr != nil {
			t.Errorf("%s: module: %v", name, merr)
			continue
		}
		if rejected != (len(got.CRD.Errors) > 0) {
			t.Errorf("%s: rejected natively %v, module CRD errors %v", name, rejected, got.CRD.Errors)
		}
		if g := moduleDocs(got); !slices.Equal(g, want) {
			t.Errorf("%s: module and native differ (%d and %d documents)", name, len(g), len(want))
		}
		docs += len(want)
		if c == nil {
			if c, err = r.Compile(ctx, data); err != nil {
				t.Fatal(err)
			}
		}
		want, _, _ = nativeSchema(data, jsonschema.Options{Draft: jsonschema.Draft07, Strict: true})
		got, err = c.Schema(ctx, SchemaOptions{Draft: "07", Strict: true})
		if err != nil || !slices.Equal(moduleDocs(got), want) {
			t.Errorf("%s: compiled CRD, draft-07 strict: %v, or module and native differ", name, err)
		}
		docs += len(want)
		c.Close()
	}
	if docs == 0 {
		t.Fatal("no document compared")
	}
	t.Logf("%d CRDs, %d documents byte-identical", len(inputs), docs)
}
