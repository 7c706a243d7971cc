package library

import (
	"net/url"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// URLs returns the kubernetes.urls library.
func URLs() cel.EnvOption {
	return cel.Lib(newLib("kubernetes.urls", []*cel.Type{URLType}, urlDecls))
}

func urlDecls() map[string][]cel.FunctionOpt {
	return map[string][]cel.FunctionOpt{
		"url": {cel.Overload("string_to_url", []*cel.Type{cel.StringType}, URLType, cel.UnaryBinding(stringToURL))},
		"getScheme": {cel.MemberOverload("url_get_scheme", []*cel.Type{URLType}, cel.StringType,
			cel.UnaryBinding(urlString(func(u *url.URL) string { return u.Scheme })))},
		"getHost": {cel.MemberOverload("url_get_host", []*cel.Type{URLType}, cel.StringType,
			cel.UnaryBinding(urlString(func(u *url.URL) string { return u.Host })))},
		"getHostname": {cel.MemberOverload("url_get_hostname", []*cel.Type{URLType}, cel.StringType,
			cel.UnaryBinding(urlString((*url.URL).Hostname)))},
		"getPort": {cel.MemberOverload("url_get_port", []*cel.Type{URLType}, cel.StringType,
			cel.UnaryBinding(urlString((*url.URL).Port)))},
		"getEscapedPath": {cel.MemberOverload("url_get_escaped_path", []*cel.Type{URLType}, cel.StringType,
			cel.UnaryBinding(urlString((*url.URL).EscapedPath)))},
		"getQuery": {cel.MemberOverload("url_get_query", []*cel.Type{URLType}, cel.MapType(cel.StringType, cel.ListType(cel.StringType)),
			cel.UnaryBinding(urlGetQuery))},
		"isURL": {cel.Overload("is_url_string", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(isURL))},
	}
}

func stringToURL(arg ref.Val) ref.Val {
	s, ok := arg.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	// ParseRequestURI rejects relative URLs; Parse then keeps the fragment.
	if _, err := url.ParseRequestURI(s); err != nil {
		return types.NewErr("URL parse error during conversion from string: %v", err)
	}
	u, err := url.Parse(s)
	if err != nil {
		return types.NewErr("URL parse error during conversion from string: %v", err)
	}
	return URL{URL: u}
}

func urlString(f func(*url.URL) string) func(ref.Val) ref.Val {
	return func(arg ref.Val) ref.Val {
		u, ok := arg.Value().(*url.URL)
		if !ok {
			return types.MaybeNoSuchOverloadErr(arg)
		}
		return types.String(f(u))
	}
}

func urlGetQuery(arg ref.Val) ref.Val {
	u, ok := arg.Value().(*url.URL)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	result := map[ref.Val]ref.Val{}
	for k, v := range u.Query() {
		result[types.String(k)] = types.NewStringList(types.DefaultTypeAdapter, v)
	}
	return types.NewRefValMap(types.DefaultTypeAdapter, result)
}

func isURL(arg ref.Val) ref.Val {
	s, ok := arg.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(arg)
	}
	_, err := url.ParseRequestURI(s)
	return types.Bool(err == nil)
}
