package conformance

import (
	"fmt"
	"strings"
)

var celCases = []celCase{
	{
		name: "scalar rules, messages, reasons, fieldPath",
		schema: `{"type":"object","properties":{"spec":{"type":"object",
			"x-kubernetes-validations":[
				{"rule":"self.replicas <= 5","message":"too many replicas"},
				{"rule":"self.name.startsWith('a')","messageExpression":"'bad name: ' + self.name"},
				{"rule":"self.replicas >= 0","reason":"FieldValueForbidden","fieldPath":".replicas"},
				{"rule":"size(self.name) < 3","reason":"FieldValueRequired"},
				{"rule":"self.name != 'bob'","reason":"FieldValueDuplicate"},
				{"rule":"self.ratio < 1.5"},
				{"rule":"  "}
			],
			"properties":{"replicas":{"type":"integer"},"name":{"type":"string","maxLength":10},"ratio":{"type":"number"}}}}}`,
		objects: [][]string{
			{`{"spec":{"replicas":3,"name":"al","ratio":1}}`},
			{`{"spec":{"replicas":-7,"name":"bob","ratio":2.5}}`},
			{`{"spec":{}}`},
		},
	},
	{
		name: "compile errors and types",
		schema: `{"type":"object","x-kubernetes-validations":[
				{"rule":"self.spec.nope == 1"},
				{"rule":"self.spec.count + 'a' == 1"},
				{"rule":"self.spec.count"},
				{"rule":"self.spec.count > 1","messageExpression":"1"},
				{"rule":"self.spec.count > 1","messageExpression":"self.nope"},
				{"rule":"self.metadata.name.startsWith('x')"},
				{"rule":"self.apiVersion != '' && self.kind != ''"},
				{"rule":"self.spec.__namespace__ == 'x' && self.spec.namespace == 'x'"},
				{"rule":"self.spec.a__dash__b == 'x' && self.spec.c__dot__d == 'y'"}
			],
			"properties":{"spec":{"type":"object","properties":{
				"count":{"type":"integer"},"namespace":{"type":"string"},"a-b":{"type":"string"},"c.d":{"type":"string"},"1bad":{"type":"string"}}}}}`,
		objects: [][]string{
			{`{"apiVersion":"v1","kind":"K","metadata":{"name":"xy"},"spec":{"count":3,"namespace":"x","a-b":"x","c.d":"y"}}`},
			{`{"apiVersion":"v1","kind":"K","metadata":{"name":"ab"},"spec":{"count":0,"namespace":"z","a-b":"q","c.d":"y"}}`},
		},
	},
	{
		name: "lists and maps costs",
		schema: `{"type":"object","properties":{
			"list":{"type":"array","items":{"type":"string"},"x-kubernetes-validations":[{"rule":"self.all(x, x.size() < 5)"},{"rule":"self.exists(x, x == 'a')"}]},
			"boundedList":{"type":"array","maxItems":10,"items":{"type":"string","maxLength":20},"x-kubernetes-validations":[{"rule":"self.all(x, self.all(y, x != y || x == y))"}]},
			"map":{"type":"object","additionalProperties":{"type":"integer"},"x-kubernetes-validations":[{"rule":"self.all(k, self[k] > 0)"}]},
			"objs":{"type":"array","items":{"type":"object","properties":{"v":{"type":"string"}},"x-kubernetes-validations":[{"rule":"self.v.matches('^[a-z]+$')"}]}},
			"nested":{"type":"array","items":{"type":"array","items":{"type":"string"}},"x-kubernetes-validations":[{"rule":"self.all(l, l.all(s, s.size() > 0))"}]}
		}}`,
		objects: [][]string{
			{`{"list":["a","bb"],"boundedList":["x"],"map":{"a":1,"b":2},"objs":[{"v":"abc"},{"v":"ABC"}],"nested":[["a"],[""]]}`},
			{`{"list":["toolong"],"map":{"a":0},"objs":[]}`},
		},
	},
	{
		name: "set and map lists equality and concatenation",
		schema: `{"type":"object","properties":{"spec":{"type":"object","properties":{
			"set":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
			"ml":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","required":["k"],"properties":{"k":{"type":"string"},"v":{"type":"integer"}}}}
			},"x-kubernetes-validations":[
				{"rule":"self.set == ['b','a']"},
				{"rule":"self.set + ['a','c'] == ['b','a','c']"},
				{"rule":"self.ml + [{'k':'a','v':9}] == [{'k':'b','v':2},{'k':'a','v':9}]"},
				{"rule":"self.ml == oldSelf.ml","message":"ml is immutable"},
				{"rule":"self.set.size() <= oldSelf.set.size()"}
			]}}}`,
		objects: [][]string{
			{`{"spec":{"set":["a","b"],"ml":[{"k":"a","v":1},{"k":"b","v":2}]}}`},
			{`{"spec":{"set":["a","b"],"ml":[{"k":"b","v":2},{"k":"a","v":1}]}}`, `{"spec":{"set":["a"],"ml":[{"k":"a","v":1},{"k":"b","v":2}]}}`},
		},
	},
	{
		name: "transition rules per map-list item and optionalOldSelf",
		schema: `{"type":"object","properties":{"items":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
			"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"value":{"type":"integer"}},
			"x-kubernetes-validations":[
				{"rule":"self.value >= oldSelf.value","message":"value may not decrease"},
				{"rule":"oldSelf.hasValue() ? self.value != 0 : self.value > 10","optionalOldSelf":true},
				{"rule":"self.value < 100"}
			]}}}}`,
		objects: [][]string{
			{`{"items":[{"name":"a","value":5}]}`},
			{`{"items":[{"name":"a","value":4},{"name":"b","value":1}]}`, `{"items":[{"name":"b","value":2},{"name":"a","value":5}]}`},
			{`{"items":[{"name":"a","value":500}]}`, `{"items":[{"name":"a","value":500}]}`},
		},
	},
	{
		name: "ratcheting of unchanged invalid values",
		schema: `{"type":"object","properties":{"spec":{"type":"object","properties":{
			"a":{"type":"string","x-kubernetes-validations":[{"rule":"self.size() < 3"}]},
			"b":{"type":"string","x-kubernetes-validations":[{"rule":"self.size() < 3"}]}}}}}`,
		objects: [][]string{
			{`{"spec":{"a":"long","b":"long"}}`, `{"spec":{"a":"long","b":"x"}}`},
		},
	},
	{
		name: "formats int-or-string and preserve-unknown-fields",
		schema: `{"type":"object","properties":{
			"d":{"type":"string","format":"duration","x-kubernetes-validations":[{"rule":"self > duration('1h')"}]},
			"t":{"type":"string","format":"date-time","x-kubernetes-validations":[{"rule":"self.getFullYear() > 2020"}]},
			"dt":{"type":"string","format":"date","x-kubernetes-validations":[{"rule":"self.getMonth() == 0"}]},
			"b":{"type":"string","format":"byte","x-kubernetes-validations":[{"rule":"size(self) == 3"}]},
			"ios":{"x-kubernetes-int-or-string":true,"x-kubernetes-validations":[{"rule":"type(self) == int ? self > 1 : self.endsWith('%')"},{"rule":"self == 5 || self != 5"}]},
			"any":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"x-kubernetes-validations":[{"rule":"has(self.x)"}]}
		}}`,
		objects: [][]string{
			{`{"d":"2h","t":"2024-01-02T03:04:05Z","dt":"2024-01-05","b":"YWJj","ios":"50%","any":{"x":{"y":1}}}`},
			{`{"d":"30m","t":"2019-01-02T03:04:05Z","dt":"2024-02-05","b":"YQ==","ios":1,"any":{}}`},
			{`{"ios":"abc"}`},
		},
	},
	{
		name: "runtime errors and per-call cost limit",
		schema: `{"type":"object","properties":{"spec":{"type":"object","properties":{
			"m":{"type":"object","additionalProperties":{"type":"string"}},
			"l":{"type":"array","items":{"type":"integer"}}},
			"x-kubernetes-validations":[
				{"rule":"self.m['missing'] == 'x'"},
				{"rule":"self.l[5] == 1"},
				{"rule":"1 / (size(self.l) - 3) == 1"},
				{"rule":"self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))"}
			]}}}`,
		objects: [][]string{
			{`{"spec":{"m":{"a":"b"},"l":[1,2,3]}}`},
			{`{"spec":{"m":{},"l":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119]}}`},
		},
	},
	{
		name: "embedded resources and nullable",
		schema: `{"type":"object","properties":{
			"embedded":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,
				"x-kubernetes-validations":[{"rule":"self.kind == 'Pod' && self.metadata.name.size() > 0"}]},
			"opt":{"type":"object","nullable":true,"properties":{"x":{"type":"string","nullable":true}},
				"x-kubernetes-validations":[{"rule":"!has(self.x) || self.x == null || self.x == 'ok'"}]}
		}}`,
		objects: [][]string{
			{`{"embedded":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}},"opt":{"x":null}}`},
			{`{"embedded":{"apiVersion":"v1","kind":"Svc","metadata":{"name":"p"}},"opt":{"x":"bad"}}`},
			{`{"opt":null}`},
		},
	},
	{
		name: "allOf rules",
		schema: `{"type":"object","properties":{"spec":{"type":"object","properties":{"x":{"type":"integer"}},
			"allOf":[{"x-kubernetes-validations":[{"rule":"self.x > 0","message":"positive"}]}],
			"x-kubernetes-validations":[{"rule":"self.x < 10"}]}}}`,
		objects: [][]string{
			{`{"spec":{"x":20}}`},
			{`{"spec":{"x":-1}}`},
		},
	},
}

func init() {
	// An object whose rules together exceed the per-object runtime budget.
	ints := make([]string, 300)
	for i := range ints {
		ints[i] = fmt.Sprint(i)
	}
	item := `{"l":[` + strings.Join(ints, ",") + `]}`
	items := make([]string, 30)
	for i := range items {
		items[i] = item
	}
	celCases = append(celCases, celCase{
		name: "per-object runtime budget exhausted",
		schema: `{"type":"object","properties":{"items":{"type":"array","items":{"type":"object",
			"properties":{"l":{"type":"array","items":{"type":"integer"}}},
			"x-kubernetes-validations":[{"rule":"self.l.all(a, self.l.all(b, a + b >= 0))"}]}}}}`,
		objects: [][]string{{`{"items":[` + strings.Join(items, ",") + `]}`}},
	})
}

var celLibraryCases = []celCase{
	{
		name: "kubernetes libraries",
		schema: `{"type":"object","properties":{"spec":{"type":"object","properties":{
			"q":{"type":"string","maxLength":20},"u":{"type":"string"},"s":{"type":"string","maxLength":64},
			"ip":{"type":"string"},"cidr":{"type":"string"},"l":{"type":"array","maxItems":50,"items":{"type":"integer"}},
			"names":{"type":"array","items":{"type":"string","maxLength":63},"maxItems":10},"v":{"type":"string"}},
			"x-kubernetes-validations":[
				{"rule":"quantity(self.q).isLessThan(quantity('1Gi'))","messageExpression":"'quantity ' + self.q + ' too large'"},
				{"rule":"isURL(self.u) && url(self.u).getScheme() == 'https'"},
				{"rule":"self.s.find('[0-9]+') == '12'"},
				{"rule":"self.s.findAll('[a-z]').size() < 3"},
				{"rule":"self.l.isSorted() && self.l.sum() < 100"},
				{"rule":"ip(self.ip).family() == 4"},
				{"rule":"cidr(self.cidr).containsIP(self.ip)"},
				{"rule":"!format.dns1123Label().validate(self.s).hasValue()","messageExpression":"format.dns1123Label().validate(self.s).value().join(', ')"},
				{"rule":"self.names.all(n, n.lowerAscii() == n)"},
				{"rule":"sets.contains(self.l, [1, 2])"},
				{"rule":"isSemver(self.v) && semver(self.v).isGreaterThan(semver('1.0.0'))"},
				{"rule":"self.l.indexOf(3) >= 0"},
				{"rule":"self.names.map(n, n + '-x').exists(n, n == 'a-x')"},
				{"rule":"self.names.sortBy(n, n)[0] == 'a'"}
			]}}}`,
		objects: [][]string{
			{`{"spec":{"q":"500Mi","u":"https://example.com/x","s":"ab12","ip":"10.0.0.1","cidr":"10.0.0.0/8","l":[1,2,3],"names":["a","b"],"v":"1.2.3"}}`},
			{`{"spec":{"q":"2Gi","u":"ftp://x","s":"AB-12x","ip":"::1","cidr":"10.0.0.0/8","l":[3,1,200],"names":["Q"],"v":"0.1.0"}}`},
			{`{"spec":{"q":"bad","u":"not a url","s":"xyz","ip":"nope","cidr":"1.2.3.4","l":[],"names":[],"v":"x"}}`},
		},
	},
}

func init() { celCases = append(celCases, celLibraryCases...) }
