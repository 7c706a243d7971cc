package abi

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	crdtypes "github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/celcomplete"
	"github.com/crdlab/crdlab/wire"
)

const completeNode = `{"type":"object","properties":{
  "replicas":{"type":"integer","description":"how many"},
  "max-surge":{"x-kubernetes-int-or-string":true},
  "ports":{"type":"array","items":{"type":"object","properties":{"port":{"type":"integer"},"name":{"type":"string"}}}}}}`

func completeCall(t *testing.T, fields map[string]interface{}) (wire.CompleteResult, *wire.Error) {
	t.Helper()
	fields["op"] = "complete"
	env := call(t, NewServer(), request(t, fields))
	var res wire.CompleteResult
	if env.Error == nil {
		if err := json.Unmarshal(env.Result, &res); err != nil {
			t.Fatal(err)
		}
	}
	return res, env.Error
}

// The op answers what celcomplete.Complete answers, option for option.
func TestCompleteIsCelcomplete(t *testing.T) {
	var node crdtypes.JSONSchemaProps
	if err := json.Unmarshal([]byte(completeNode), &node); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		expr string
		root bool
	}{
		{"self.", false}, {"self.re", false}, {"self.ports.all(p, p.", false}, {"self.", true},
		{"self.?", false}, {"self.ports.", false}, {"self.ports[0].na", false},
	} {
		res, e := completeCall(t, map[string]interface{}{"schemaNode": json.RawMessage(completeNode), "expression": c.expr, "root": c.root})
		if e != nil {
			t.Fatalf("%q: %+v", c.expr, e)
		}
		want := celcomplete.Complete(&node, c.expr, c.root)
		if want == nil {
			t.Fatalf("%q: celcomplete has nothing: a useless case", c.expr)
		}
		var opts []wire.CompletionOption
		for _, o := range want.Options {
			opts = append(opts, wire.CompletionOption{Label: o.Label, Kind: string(o.Kind), Detail: o.Detail, Info: o.Info})
		}
		if res.From != want.From || res.To != len(c.expr) || res.Type != want.Type || !reflect.DeepEqual(res.Options, opts) {
			t.Errorf("%q: got %+v, want %+v", c.expr, res, want)
		}
	}
}

// The cursor and the range are UTF-16 offsets: text after the cursor is
// not read, and a non-ASCII string before it counts as JavaScript does.
func TestCompleteOffsetsAreUTF16(t *testing.T) {
	expr := "self.replicas > 0 && '😀é' != '' && self.ma == 1"
	cursor := len([]rune("self.replicas > 0 && '")) + 2 + len([]rune("é' != '' && self.ma")) // 😀 is two units
	res, e := completeCall(t, map[string]interface{}{"schemaNode": json.RawMessage(completeNode), "expression": expr, "cursor": cursor})
	if e != nil {
		t.Fatal(e)
	}
	if res.To != cursor || res.From != cursor-2 || len(res.Options) == 0 || res.Options[0].Label != "max__dash__surge" {
		t.Fatalf("got %+v, want from %d to %d starting with max__dash__surge", res, cursor-2, cursor)
	}
	if res.Options[0].Info != `the property "max-surge"` || res.Options[0].Detail != "dyn (int-or-string)" {
		t.Errorf("option %+v", res.Options[0])
	}
}

func TestCompleteNothingIsEmptyOptions(t *testing.T) {
	for _, expr := range []string{"self", "self.nope.", "self.replicas == 'a.", "1."} {
		res, e := completeCall(t, map[string]interface{}{"schemaNode": json.RawMessage(completeNode), "expression": expr})
		if e != nil {
			t.Fatalf("%q: %+v", expr, e)
		}
		n := len([]rune(expr))
		if res.Options == nil || len(res.Options) != 0 || res.From != n || res.To != n || res.Type != "" {
			t.Errorf("%q: got %+v, want no options at %d", expr, res, n)
		}
	}
}

func TestCompleteBadRequests(t *testing.T) {
	for _, c := range []struct {
		name   string
		fields map[string]interface{}
		want   string
	}{
		{"no schema node", map[string]interface{}{"expression": "self."}, `needs a "schemaNode"`},
		{"schema node not an object", map[string]interface{}{"schemaNode": []int{1}, "expression": "self."}, "schemaNode: json: cannot unmarshal array"},
		{"cursor past the end", map[string]interface{}{"schemaNode": json.RawMessage(completeNode), "expression": "self.", "cursor": 6}, "cursor 6 is outside the expression (0 to 5 UTF-16 code units)"},
		{"negative cursor", map[string]interface{}{"schemaNode": json.RawMessage(completeNode), "expression": "self.", "cursor": -1}, "cursor -1 is outside"},
	} {
		_, e := completeCall(t, c.fields)
		if e == nil || e.Code != wire.CodeBadRequest || !strings.Contains(e.Message, c.want) {
			t.Errorf("%s: got %+v, want BadRequest %q", c.name, e, c.want)
		}
	}
}

// With "policy", the expression is an admission policy's: object has the
// fields of the compiled CRD (handle) at the version the policy matches,
// the policy's variables are offered where an identifier starts.
func TestCompleteInAPolicyExpression(t *testing.T) {
	s := NewServer()
	env := call(t, s, request(t, map[string]interface{}{"op": "compile", "crd": readExample(t, "crontab-crd.yaml")}))
	var c wire.CompileResult
	if err := json.Unmarshal(env.Result, &c); err != nil {
		t.Fatal(err)
	}
	policy := readExample(t, "admission/policy.yaml")
	policy = policy[:strings.Index(policy, "\n---\n")] // the first document: crontab-rules
	for _, tt := range []struct {
		name   string
		fields map[string]interface{}
		from   int
		labels []string
	}{
		{"object's fields", map[string]interface{}{"handle": c.Handle, "expression": "object.spec."}, 12, []string{"cronSpec", "image", "replicas"}},
		{"names", map[string]interface{}{"handle": c.Handle, "expression": "size(o"}, 5, []string{"object", "oldObject"}},
		{"variables", map[string]interface{}{"handle": c.Handle, "expression": "variables."}, 10, []string{"replicas"}},
		{"without a handle object is dyn", map[string]interface{}{"expression": "object.spec."}, 12, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.fields["op"], tt.fields["policy"] = "complete", policy
			env := call(t, s, request(t, tt.fields))
			if env.Error != nil {
				t.Fatalf("%+v", env.Error)
			}
			var res wire.CompleteResult
			if err := json.Unmarshal(env.Result, &res); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range res.Options {
				if o.Kind == "property" || (o.Kind == "variable" && strings.HasPrefix(o.Label, "o")) {
					got = append(got, o.Label)
				}
			}
			if !reflect.DeepEqual(got, tt.labels) || (got != nil && res.From != tt.from) {
				t.Errorf("got %v from %d, want %v from %d", got, res.From, tt.labels, tt.from)
			}
		})
	}
	env = call(t, s, request(t, map[string]interface{}{"op": "complete", "policy": "spec: {variables: 3}", "expression": "object."}))
	if env.Error == nil || env.Error.Code != wire.CodeDecodeError || !strings.HasPrefix(env.Error.Message, "policy: ") {
		t.Errorf("a policy that does not decode: %+v", env.Error)
	}
	env = call(t, s, request(t, map[string]interface{}{"op": "complete", "policy": policy, "handle": 99, "expression": "object."}))
	if env.Error == nil || env.Error.Code != wire.CodeNotFound {
		t.Errorf("an unknown handle: %+v", env.Error)
	}
}
