package celcomplete

// method is a member function or macro: its detail and its result type
// given the receiver.
type method struct {
	detail string
	result func(recv *typ) *typ
}

func always(t *typ) func(*typ) *typ { return func(*typ) *typ { return t } }
func same(r *typ) *typ              { return r }
func elemOf(r *typ) *typ {
	if r.elem != nil {
		return r.elem
	}
	return tDyn
}

var comprehension = map[string]method{
	"all":           {"macro: all(x, predicate) → bool", always(tBool)},
	"exists":        {"macro: exists(x, predicate) → bool", always(tBool)},
	"exists_one":    {"macro: exists_one(x, predicate) → bool", always(tBool)},
	"existsOne":     {"macro: existsOne(x, predicate) → bool", always(tBool)},
	"map":           {"macro: map(x, expr) → list", func(*typ) *typ { return listOf(tDyn) }},
	"filter":        {"macro: filter(x, predicate) → list", func(r *typ) *typ { return filterResult(r) }},
	"transformList": {"macro: transformList(i, v, expr) → list", func(*typ) *typ { return listOf(tDyn) }},
	"transformMap":  {"macro: transformMap(k, v, expr) → map", func(r *typ) *typ { return transformMapResult(r) }},
	"size":          {"size() → int", always(tInt)},
}

func filterResult(r *typ) *typ {
	if r.kind == "map" {
		return listOf(r.key)
	}
	return r
}

func transformMapResult(r *typ) *typ {
	if r.kind == "map" {
		return mapOf(r.key, tDyn)
	}
	return mapOf(tInt, tDyn)
}

var listMethods = map[string]method{
	"transformMapEntry": {"macro: transformMapEntry(i, v, mapExpr) → map", func(*typ) *typ { return mapOf(tDyn, tDyn) }},
	"isSorted":          {"isSorted() → bool", always(tBool)},
	"sum":               {"sum() → element type", elemOf},
	"min":               {"min() → element type", elemOf},
	"max":               {"max() → element type", elemOf},
	"indexOf":           {"indexOf(value) → int", always(tInt)},
	"lastIndexOf":       {"lastIndexOf(value) → int", always(tInt)},
	"includes":          {"includes(value) → bool", always(tBool)},
	"slice":             {"slice(start, end) → list", same},
	"flatten":           {"flatten() → list", func(*typ) *typ { return listOf(tDyn) }},
	"sort":              {"sort() → list", same},
	"sortBy":            {"macro: sortBy(x, keyExpr) → list", same},
	"distinct":          {"distinct() → list", same},
	"reverse":           {"reverse() → list", same},
}

var listOfStringMethods = map[string]method{"join": {"join(separator?) → string", always(tString)}}

var mapMethods = map[string]method{
	"transformMapEntry": {"macro: transformMapEntry(k, v, mapExpr) → map", func(*typ) *typ { return mapOf(tDyn, tDyn) }},
}

var kindMethods = map[string]map[string]method{
	"string": {
		"size":        {"size() → int", always(tInt)},
		"contains":    {"contains(s) → bool", always(tBool)},
		"startsWith":  {"startsWith(prefix) → bool", always(tBool)},
		"endsWith":    {"endsWith(suffix) → bool", always(tBool)},
		"matches":     {"matches(re2) → bool", always(tBool)},
		"find":        {"find(re2) → string", always(tString)},
		"findAll":     {"findAll(re2, limit?) → list(string)", func(*typ) *typ { return listOf(tString) }},
		"charAt":      {"charAt(i) → string", always(tString)},
		"indexOf":     {"indexOf(s, from?) → int", always(tInt)},
		"lastIndexOf": {"lastIndexOf(s, from?) → int", always(tInt)},
		"lowerAscii":  {"lowerAscii() → string", always(tString)},
		"upperAscii":  {"upperAscii() → string", always(tString)},
		"replace":     {"replace(old, new, n?) → string", always(tString)},
		"split":       {"split(sep, n?) → list(string)", func(*typ) *typ { return listOf(tString) }},
		"substring":   {"substring(start, end?) → string", always(tString)},
		"trim":        {"trim() → string", always(tString)},
		"format":      {"format(list) → string", always(tString)},
	},
	"bytes": {"size": {"size() → int", always(tInt)}},
	"duration": {
		"getHours":        {"getHours() → int", always(tInt)},
		"getMinutes":      {"getMinutes() → int", always(tInt)},
		"getSeconds":      {"getSeconds() → int", always(tInt)},
		"getMilliseconds": {"getMilliseconds() → int", always(tInt)},
	},
	"timestamp": {
		"getFullYear":     {"getFullYear(timezone?) → int", always(tInt)},
		"getMonth":        {"getMonth(timezone?) → int", always(tInt)},
		"getDate":         {"getDate(timezone?) → int", always(tInt)},
		"getDayOfMonth":   {"getDayOfMonth(timezone?) → int", always(tInt)},
		"getDayOfWeek":    {"getDayOfWeek(timezone?) → int", always(tInt)},
		"getDayOfYear":    {"getDayOfYear(timezone?) → int", always(tInt)},
		"getHours":        {"getHours(timezone?) → int", always(tInt)},
		"getMinutes":      {"getMinutes(timezone?) → int", always(tInt)},
		"getSeconds":      {"getSeconds(timezone?) → int", always(tInt)},
		"getMilliseconds": {"getMilliseconds(timezone?) → int", always(tInt)},
	},
	"Quantity": {
		"isGreaterThan":      {"isGreaterThan(quantity) → bool", always(tBool)},
		"isLessThan":         {"isLessThan(quantity) → bool", always(tBool)},
		"compareTo":          {"compareTo(quantity) → int", always(tInt)},
		"add":                {"add(quantity | int) → Quantity", always(tQuantity)},
		"sub":                {"sub(quantity | int) → Quantity", always(tQuantity)},
		"asInteger":          {"asInteger() → int", always(tInt)},
		"asApproximateFloat": {"asApproximateFloat() → double", always(tDouble)},
		"isInteger":          {"isInteger() → bool", always(tBool)},
		"sign":               {"sign() → int", always(tInt)},
	},
	"URL": {
		"getScheme":      {"getScheme() → string", always(tString)},
		"getHost":        {"getHost() → string", always(tString)},
		"getHostname":    {"getHostname() → string", always(tString)},
		"getPort":        {"getPort() → string", always(tString)},
		"getEscapedPath": {"getEscapedPath() → string", always(tString)},
		"getQuery":       {"getQuery() → map(string, list(string))", func(*typ) *typ { return mapOf(tString, listOf(tString)) }},
	},
	"IP": {
		"family":               {"family() → int", always(tInt)},
		"isUnspecified":        {"isUnspecified() → bool", always(tBool)},
		"isLoopback":           {"isLoopback() → bool", always(tBool)},
		"isLinkLocalMulticast": {"isLinkLocalMulticast() → bool", always(tBool)},
		"isLinkLocalUnicast":   {"isLinkLocalUnicast() → bool", always(tBool)},
		"isGlobalUnicast":      {"isGlobalUnicast() → bool", always(tBool)},
	},
	"CIDR": {
		"containsIP":   {"containsIP(ip | string) → bool", always(tBool)},
		"containsCIDR": {"containsCIDR(cidr | string) → bool", always(tBool)},
		"ip":           {"ip() → IP", always(tIP)},
		"masked":       {"masked() → CIDR", always(tCIDR)},
		"prefixLength": {"prefixLength() → int", always(tInt)},
	},
	"Semver": {
		"major":         {"major() → int", always(tInt)},
		"minor":         {"minor() → int", always(tInt)},
		"patch":         {"patch() → int", always(tInt)},
		"isGreaterThan": {"isGreaterThan(semver) → bool", always(tBool)},
		"isLessThan":    {"isLessThan(semver) → bool", always(tBool)},
		"compareTo":     {"compareTo(semver) → int", always(tInt)},
	},
	"optional": {
		"hasValue": {"hasValue() → bool", always(tBool)},
		"value":    {"value() → the value", elemOf},
		"orValue":  {"orValue(default) → the value", elemOf},
		"or":       {"or(optional) → optional", same},
	},
	"Format": {"validate": {"validate(string) → optional(list(string))", func(*typ) *typ { return optionalOf(listOf(tString)) }}},
}

// methodsOf returns the member functions and macros of a type.
func methodsOf(t *typ) map[string]method {
	if t == nil {
		return nil
	}
	out := map[string]method{}
	add := func(m map[string]method) {
		for k, v := range m {
			out[k] = v
		}
	}
	switch t.kind {
	case "list":
		add(comprehension)
		add(listMethods)
		if t.elem != nil && t.elem.kind == "string" {
			add(listOfStringMethods)
		}
	case "map":
		add(comprehension)
		add(mapMethods)
	default:
		add(kindMethods[t.kind])
		addAuthzMethods(t.kind, out)
	}
	return out
}

// globals are the global functions whose result has members.
var globals = map[string]*typ{
	"quantity": tQuantity, "url": tURL, "ip": tIP, "cidr": tCIDR, "semver": tSemver, "string": tString,
	"bytes": tBytes, "duration": tDuration, "timestamp": tTimestamp, "int": tInt, "uint": tUint,
	"double": tDouble, "size": tInt,
	"format.named": tFormat, "format.dns1123Label": tFormat, "format.dns1123Subdomain": tFormat,
	"format.dns1035Label": tFormat, "format.qualifiedName": tFormat, "format.dns1123LabelPrefix": tFormat,
	"format.dns1123SubdomainPrefix": tFormat, "format.dns1035LabelPrefix": tFormat, "format.labelValue": tFormat,
	"format.uri": tFormat, "format.uuid": tFormat, "format.byte": tFormat, "format.date": tFormat,
	"format.datetime": tFormat,
}

var macros = map[string]bool{"all": true, "exists": true, "exists_one": true, "existsOne": true, "map": true,
	"filter": true, "sortBy": true, "transformList": true, "transformMap": true, "transformMapEntry": true}

var twoVarMacros = map[string]bool{"all": true, "exists": true, "existsOne": true, "transformList": true,
	"transformMap": true, "transformMapEntry": true}

// member is the type after the receiver: a field's, a call's result.
func member(t *typ, name string, call bool) *typ {
	if t == nil {
		return nil
	}
	if call {
		m, ok := methodsOf(t)[name]
		if !ok {
			return nil
		}
		if r := m.result(t); r != nil {
			return r
		}
		return tDyn
	}
	if t.fields != nil {
		return t.fields[name]
	}
	switch t.kind {
	case "object":
		return field(t, name)
	case "map":
		return t.elem
	}
	return nil
}

func index(t *typ) *typ {
	if t == nil {
		return nil
	}
	if t.kind == "list" || t.kind == "map" {
		return t.elem
	}
	return nil
}
