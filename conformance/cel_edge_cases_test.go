package conformance

// Edge cases of value conversion, equality, message expressions and
// ratcheting, compared with upstream by TestCELDifferential.

var celEdgeCases = []celCase{
	{
		name: "invalid formatted strings become evaluation errors",
		schema: `{"type":"object","properties":{
			"d":{"type":"string","format":"duration","x-kubernetes-validations":[{"rule":"self > duration('1s')"}]},
			"t":{"type":"string","format":"date-time","x-kubernetes-validations":[{"rule":"self > timestamp('2000-01-01T00:00:00Z')"}]},
			"dt":{"type":"string","format":"date","x-kubernetes-validations":[{"rule":"self > timestamp('2000-01-01T00:00:00Z')"}]},
			"b":{"type":"string","format":"byte","x-kubernetes-validations":[{"rule":"size(self) > 0"}]},
			"d2":{"type":"string","format":"duration","x-kubernetes-validations":[{"rule":"self == duration('26h')"}]}}}`,
		objects: [][]string{
			{`{"d":"forever","t":"yesterday","dt":"2020-13-01","b":"!!!","d2":"1 day 2 hours"}`},
			{`{"d":"1h30m","t":"2024-01-01T00:00:00.123Z","dt":"2024-01-01","b":"AAEC","d2":"1d2h"}`},
		},
	},
	{
		name: "preserve-unknown-fields values and equality",
		schema: `{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true,
			"properties":{"known":{"type":"string"},"raw":{"x-kubernetes-preserve-unknown-fields":true}},
			"x-kubernetes-validations":[
				{"rule":"self == oldSelf","message":"spec is immutable"},
				{"rule":"self.raw == oldSelf.raw","message":"raw is immutable"},
				{"rule":"has(self.known)"},
				{"rule":"self.all(k, k != 'forbidden')"}
			]}}}`,
		objects: [][]string{
			{`{"spec":{"known":"a","raw":{"x":[1,2]},"extra":1}}`, `{"spec":{"known":"a","raw":{"x":[1,2]},"extra":2}}`},
			{`{"spec":{"raw":{"x":[1,3]}}}`, `{"spec":{"known":"a","raw":{"x":[1,2]}}}`},
		},
	},
	{
		name: "messageExpression failures fall back",
		schema: `{"type":"object","properties":{"s":{"type":"string","x-kubernetes-validations":[
			{"rule":"self == 'ok'","messageExpression":"'line1\\nline2'"},
			{"rule":"self == 'ok'","message":"m2","messageExpression":"self.substring(100)"},
			{"rule":"self == 'ok'","messageExpression":"'x'.repeat(6000)"},
			{"rule":"self == 'ok'","messageExpression":"'  '"},
			{"rule":"self == 'ok'","messageExpression":"'  trimmed  '"}
		]}}}`,
		objects: [][]string{{`{"s":"bad"}`}},
	},
	{
		name: "fieldPath into maps and escaped keys",
		schema: `{"type":"object","properties":{"spec":{"type":"object","properties":{
			"m":{"type":"object","additionalProperties":{"type":"object","properties":{"v":{"type":"integer"}}}},
			"a.b":{"type":"string"}},
			"x-kubernetes-validations":[
				{"rule":"self.m.all(k, self.m[k].v > 0)","fieldPath":".m['key.with.dots'].v","reason":"FieldValueInvalid"},
				{"rule":"self.a__dot__b == 'x'","fieldPath":"['a.b']"},
				{"rule":"false","fieldPath":".m.plain"}
			]}}}`,
		objects: [][]string{{`{"spec":{"m":{"key.with.dots":{"v":0}},"a.b":"y"}}`}},
	},
	{
		name: "map types and correlation",
		schema: `{"type":"object","properties":{
			"granular":{"type":"object","additionalProperties":{"type":"integer","x-kubernetes-validations":[{"rule":"self >= oldSelf","message":"decreased"}]}},
			"atomic":{"type":"object","x-kubernetes-map-type":"atomic","additionalProperties":{"type":"integer","x-kubernetes-validations":[{"rule":"self >= oldSelf","message":"decreased"}]}},
			"listAtomic":{"type":"array","items":{"type":"integer","x-kubernetes-validations":[{"rule":"self >= oldSelf","message":"decreased"}]}}}}`,
		objects: [][]string{
			{`{"granular":{"a":1,"b":5},"atomic":{"a":1},"listAtomic":[1]}`, `{"granular":{"a":2,"b":5},"atomic":{"a":2},"listAtomic":[2]}`},
		},
	},
	{
		name: "ratcheting inside map lists and nested objects",
		schema: `{"type":"object","properties":{"spec":{"type":"object","properties":{
			"l":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","required":["k"],
				"properties":{"k":{"type":"string"},"v":{"type":"string","x-kubernetes-validations":[{"rule":"self.size() < 3"}]}},
				"x-kubernetes-validations":[{"rule":"self.v != 'bad'"}]}},
			"plain":{"type":"array","items":{"type":"string","x-kubernetes-validations":[{"rule":"self.size() < 3"}]}},
			"o":{"type":"object","properties":{"x":{"type":"string"}},"x-kubernetes-validations":[{"rule":"self.x.size() < 3"}]}}}}}`,
		objects: [][]string{
			{`{"spec":{"l":[{"k":"b","v":"long"},{"k":"a","v":"bad"}],"plain":["long","x"],"o":{"x":"long"}}}`,
				`{"spec":{"l":[{"k":"a","v":"bad"},{"k":"b","v":"long"}],"plain":["long","x"],"o":{"x":"long"}}}`},
			{`{"spec":{"l":[{"k":"a","v":"bad"},{"k":"c","v":"long"}],"plain":["x","long"],"o":{"x":"longer"}}}`,
				`{"spec":{"l":[{"k":"a","v":"bad"}],"plain":["long","x"],"o":{"x":"long"}}}`},
		},
	},
	{
		name: "nullable items and null fields",
		schema: `{"type":"object","properties":{"spec":{"type":"object","properties":{
			"l":{"type":"array","items":{"type":"string","nullable":true},"x-kubernetes-validations":[{"rule":"self.all(x, x == null || x.size() > 1)"},{"rule":"self.size() == 3"}]},
			"n":{"type":"string","nullable":true},
			"nn":{"type":"string"}},
			"x-kubernetes-validations":[{"rule":"!has(self.n)"},{"rule":"has(self.nn) && self.nn == ''"}]}}}`,
		objects: [][]string{
			{`{"spec":{"l":["ab",null,"c"],"n":null,"nn":null}}`},
		},
	},
	{
		name: "root metadata and embedded metadata limits",
		schema: `{"type":"object","x-kubernetes-validations":[
				{"rule":"self.metadata.name.size() < 5"},
				{"rule":"has(self.metadata.generateName) || true"},
				{"rule":"self.metadata.name.matches('^[a-z]+$')"}],
			"properties":{"spec":{"type":"object","properties":{
				"tpl":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object","properties":{"x":{"type":"integer"}}}},
					"x-kubernetes-validations":[{"rule":"self.metadata.name == self.kind"},{"rule":"self.spec.x > 0"}]}}}}}`,
		objects: [][]string{
			{`{"apiVersion":"a/v1","kind":"K","metadata":{"name":"toolong"},"spec":{"tpl":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"Pod"},"spec":{"x":0}}}}`},
		},
	},
	{
		name: "unescapable property names keep their rules",
		schema: `{"type":"object","properties":{"spec":{"type":"object","properties":{
			"1st":{"type":"string","x-kubernetes-validations":[{"rule":"self == 'a'"}]},
			"with space":{"type":"object","properties":{"v":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.v == 1"}]}},
			"x-kubernetes-validations":[{"rule":"self.size() == 2"}]}}}`,
		objects: [][]string{{`{"spec":{"1st":"b","with space":{"v":2}}}`}},
	},
	{
		name: "allOf rules are not ratcheted",
		schema: `{"type":"object","properties":{"s":{"type":"string","allOf":[{"x-kubernetes-validations":[{"rule":"self.size() < 3","message":"short"}]}],
			"x-kubernetes-validations":[{"rule":"self.size() < 3","message":"top"}]}}}`,
		objects: [][]string{{`{"s":"long"}`, `{"s":"long"}`}},
	},
	{
		name: "int-or-string with maxLength and quantity",
		schema: `{"type":"object","properties":{"q":{"x-kubernetes-int-or-string":true,"maxLength":10,
			"x-kubernetes-validations":[{"rule":"type(self) == string ? quantity(self).isLessThan(quantity('1Gi')) : self < 1024"},{"rule":"string(self).size() < 5"}]}}}`,
		objects: [][]string{{`{"q":"2Gi"}`}, {`{"q":2000}`}, {`{"q":"x"}`}},
	},
}

func init() { celCases = append(celCases, celEdgeCases...) }

var celTypeCases = []celCase{
	{
		name: "type denotations and conversions",
		schema: `{"type":"object","properties":{"spec":{"type":"object","properties":{
			"t":{"type":"string","format":"date-time"},"b":{"type":"string","format":"byte"},"l":{"type":"array","items":{"type":"integer"}},
			"m":{"type":"object","additionalProperties":{"type":"string"}},"u":{"x-kubernetes-int-or-string":true},
			"if":{"type":"string"},"var":{"type":"integer"},"true":{"type":"boolean"}},
			"x-kubernetes-validations":[
				{"rule":"type(self.t) == google.protobuf.Timestamp"},
				{"rule":"type(self.t) == timestamp && type(self.b) == bytes && type(self.l) == list && type(self.m) == map"},
				{"rule":"type(self.u) == int || type(self.u) == string"},
				{"rule":"self.__if__ == 'x' && self.__var__ == 1 && self.__true__"},
				{"rule":"self.if == 'x'"},
				{"rule":"string(self.b) == 'abc'"},
				{"rule":"uint(self.__var__) == 1u && double(self.__var__) == 1.0"},
				{"rule":"self.l == [1, 2.0]"},
				{"rule":"[1, 'a'].size() == 2"},
				{"rule":"duration('1x') > duration('1s')"},
				{"rule":"'abc'.matches('[')"}
			]}}}`,
		objects: [][]string{{`{"spec":{"t":"2024-01-01T00:00:00Z","b":"YWJj","l":[1,2],"m":{},"u":3,"if":"x","var":1,"true":true}}`}},
	},
}

func init() { celCases = append(celCases, celTypeCases...) }
