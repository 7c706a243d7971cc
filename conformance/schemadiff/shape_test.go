package schemadiff

import (
	"encoding/json"
	"testing"
)

func TestDiffStructuralShape(t *testing.T) {
	extra := []string{
		`{"type":"object","description":"d","title":"t","nullable":true,"default":{"a":1,"b":1.5},"example":[1.5],"externalDocs":{"description":"ed","url":"http://x"},"x-kubernetes-preserve-unknown-fields":true,"x-kubernetes-map-type":"atomic","x-kubernetes-validations":[{"rule":"self.a > 0","message":"m","reason":"FieldValueForbidden","fieldPath":".a","optionalOldSelf":true,"messageExpression":"'x'"}],"required":["a"],"maxProperties":3,"minProperties":1,"enum":[{"a":1},null,"x",2],"properties":{"l":{"type":"array","maxItems":3,"minItems":1,"uniqueItems":true,"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","properties":{"k":{"type":"string","format":"date","pattern":"^a","maxLength":4,"minLength":1}}}},"n":{"type":"number","maximum":3,"exclusiveMaximum":true,"minimum":1,"exclusiveMinimum":true,"multipleOf":0.5}},"additionalProperties":false,"anyOf":[{"required":["a"],"properties":{"a":{"minimum":1}}}],"not":{"additionalProperties":true},"allOf":[{"additionalProperties":{"maxLength":2},"items":{"enum":[1]},"x-kubernetes-validations":[{"rule":"true"}]}],"oneOf":[{"type":"string","x-kubernetes-int-or-string":true,"default":"x"}]}`,
		`{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true},"b":{"x-kubernetes-int-or-string":true,"anyOf":[{"maximum":3}],"allOf":[{"minimum":1}]},"c":{"type":"array","items":{"x-kubernetes-int-or-string":true}},"d":{"type":"object","additionalProperties":{"x-kubernetes-int-or-string":true,"nullable":true}}}}`,
		`{"type":"object","required":[],"enum":[],"x-kubernetes-validations":[],"x-kubernetes-list-map-keys":[],"properties":{},"allOf":[]}`,
	}
	for i, js := range append(append([]string{}, schemas...), extra...) {
		up, err := upStructural(t, js)
		if err != nil {
			continue
		}
		our, _ := ourStructural(t, js)
		check := func(what string, u, o interface{}) {
			ub, err1 := json.Marshal(u)
			ob, err2 := json.Marshal(o)
			if err1 != nil || err2 != nil {
				t.Fatalf("%v %v", err1, err2)
			}
			if string(ub) != string(ob) {
				t.Errorf("schema %d %s:\nupstream: %s\nours:     %s", i, what, ub, ob)
			}
		}
		check("NewStructural", up, our)
		check("DeepCopy", up.DeepCopy(), our.DeepCopy())
		check("StripValueValidations", up.StripValueValidations(), our.StripValueValidations())
		check("StripNullable", up.StripNullable(), our.StripNullable())
		check("Unfold", up.DeepCopy().Unfold(), our.DeepCopy().Unfold())
	}
}
