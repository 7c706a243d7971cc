package wasm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/celcomplete"
	"github.com/crdlab/crdlab/wire"
)

const completeSpec = `{"type":"object","x-kubernetes-embedded-resource":false,"properties":{
 "replicas":{"type":"integer"},"image":{"type":"string","description":"the image"},
 "max-surge":{"x-kubernetes-int-or-string":true},"namespace":{"type":"string"},
 "timeout":{"type":"string","format":"duration"},
 "items":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"quantity":{"type":"string"}}}},
 "labels":{"type":"object","additionalProperties":{"type":"string"}},
 "template":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}}`

// TestParityComplete: at every cursor of these expressions, the module's
// "complete" answers what internal/celcomplete answers natively (offsets
// converted to UTF-16).
func TestParityComplete(t *testing.T) {
	var node crd.JSONSchemaProps
	if err := json.Unmarshal([]byte(completeSpec), &node); err != nil {
		t.Fatal(err)
	}
	r := newRuntime(t, Options{})
	ctx := context.Background()
	n := 0
	for _, expr := range []string{
		"self.items.all(i, i.name.startsWith('é') && quantity(i.quantity).isLessThan(quantity('1')))",
		"self.?image.orValue('').split('/').join('-') == oldSelf.image",
		"self.labels.exists(k, self.labels[k].size() < 3) && self.template.metadata.name != ''",
		"self.timeout.getSeconds() > 0 && self.__namespace__.matches('^a') && self.max__dash__surge == 1",
	} {
		units := utf16.Encode([]rune(expr))
		for cursor := 0; cursor <= len(units); cursor++ {
			before := string(utf16.Decode(units[:cursor]))
			for _, root := range []bool{false, true} {
				want := wire.CompleteResult{From: cursor, To: cursor, Options: []wire.CompletionOption{}}
				if res := celcomplete.Complete(&node, before, root); res != nil {
					n++
					want.From = len(utf16.Encode([]rune(before[:res.From])))
					want.Type = res.Type
					for _, o := range res.Options {
						want.Options = append(want.Options, wire.CompletionOption{Label: o.Label, Kind: string(o.Kind), Detail: o.Detail, Info: o.Info})
					}
				}
				c := cursor
				got, err := r.Complete(ctx, []byte(completeSpec), expr, CompleteOptions{Root: root, Cursor: &c})
				if err != nil {
					t.Fatalf("%q at %d: %v", expr, cursor, err)
				}
				gb, _ := json.Marshal(got)
				wb, _ := json.Marshal(want)
				if string(gb) != string(wb) {
					t.Errorf("%q at %d (root %v):\n module %s\n native %s", expr, cursor, root, gb, wb)
				}
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d cursors complete: the test compares little", n)
	}
}

func TestCompleteRejectsANodeThatIsNotJSON(t *testing.T) {
	_, err := newRuntime(t, Options{}).Complete(context.Background(), []byte("type: object"), "self.", CompleteOptions{})
	if err == nil || !strings.Contains(err.Error(), "BadRequest: schemaNode is not JSON") {
		t.Fatalf("got %v", err)
	}
}
