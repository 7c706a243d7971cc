package wasm

import (
	"context"
	"encoding/json"
	"os"
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

// TestParityCompletePolicy: at every cursor of these policy expressions,
// the module's "complete" with a policy answers what
// celcomplete.CompletePolicy answers natively for the same CRD and policy.
func TestParityCompletePolicy(t *testing.T) {
	crdText, err := os.ReadFile("../../examples/crontab-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	policies, err := os.ReadFile("../../examples/admission/policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	policy := []byte(strings.SplitN(string(policies), "\n---\n", 2)[0])
	defs, err := crd.Decode(crdText, "crontab-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	native, err := celcomplete.PolicyFor(policy, defs)
	if err != nil {
		t.Fatal(err)
	}
	r := newRuntime(t, Options{})
	ctx := context.Background()
	compiled, err := r.Compile(ctx, crdText)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, expr := range []string{
		"object.spec.replicas <= 5 && variables.replicas > 0 && oldObject.metadata.name == 'é'",
		"request.userInfo.groups.exists(g, g == 'x') && authorizer.requestResource.check('update').allowed()",
	} {
		units := utf16.Encode([]rune(expr))
		for cursor := 0; cursor <= len(units); cursor++ {
			before := string(utf16.Decode(units[:cursor]))
			want := wire.CompleteResult{From: cursor, To: cursor, Options: []wire.CompletionOption{}}
			if res := celcomplete.CompletePolicy(native, before); res != nil {
				n++
				want.From = len(utf16.Encode([]rune(before[:res.From])))
				want.Type = res.Type
				for _, o := range res.Options {
					want.Options = append(want.Options, wire.CompletionOption{Label: o.Label, Kind: string(o.Kind), Detail: o.Detail, Info: o.Info})
				}
			}
			c := cursor
			got, err := compiled.CompletePolicy(ctx, policy, expr, CompleteOptions{Cursor: &c})
			if err != nil {
				t.Fatalf("%q at %d: %v", expr, cursor, err)
			}
			gb, _ := json.Marshal(got)
			wb, _ := json.Marshal(want)
			if string(gb) != string(wb) {
				t.Errorf("%q at %d:\n module %s\n native %s", expr, cursor, gb, wb)
			}
		}
	}
	if n < 40 {
		t.Fatalf("only %d cursors complete: the test compares little", n)
	}
}
