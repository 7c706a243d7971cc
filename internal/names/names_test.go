package names

import (
	"reflect"
	"strings"
	"testing"
)

const (
	labelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	subdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
	dns1035Msg   = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
	keyNameMsg   = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	valueMsg     = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)

func TestValidators(t *testing.T) {
	long64 := strings.Repeat("a", 64)
	tests := []struct {
		name string
		fn   func(string) []string
		in   string
		want []string
	}{
		{"label ok", IsDNS1123Label, "my-name", nil},
		{"label with dots", IsDNS1123Label, "a.b", []string{"must not contain dots"}},
		{"label uppercase", IsDNS1123Label, "A", []string{labelMsg}},
		{"label too long counts characters", IsDNS1123Label, long64, []string{"must be no more than 63 characters"}},
		{"label empty", IsDNS1123Label, "", []string{labelMsg}},
		{"subdomain ok", IsDNS1123Subdomain, "example.com", nil},
		{"subdomain bad", IsDNS1123Subdomain, "-a", []string{subdomainMsg}},
		{"subdomain too long", IsDNS1123Subdomain, strings.Repeat("a", 254), []string{"must be no more than 253 characters"}},
		{"dns1035 must start with a letter", IsDNS1035Label, "1a", []string{dns1035Msg}},
		{"dns1035 too long and bad", IsDNS1035Label, "1" + long64, []string{"must be no more than 63 characters", dns1035Msg}},
		{"qualified name ok", IsQualifiedName, "example.com/My.Name_1", nil},
		{"qualified name empty prefix", IsQualifiedName, "/a", []string{"prefix part must be non-empty"}},
		{"qualified name empty name", IsQualifiedName, "a/", []string{"name part must be non-empty", keyNameMsg}},
		{"qualified name long name counts bytes", IsQualifiedName, long64, []string{"name part must be no more than 63 bytes"}},
		{"qualified name bad prefix", IsQualifiedName, "A_/b", []string{"prefix part " + subdomainMsg}},
		{"qualified name long prefix counts bytes", IsQualifiedName, strings.Repeat("a", 254) + "/b", []string{"prefix part must be no more than 253 bytes"}},
		{"qualified name two slashes", IsQualifiedName, "a/b/c", []string{"a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}},
		{"label value empty ok", IsValidLabelValue, "", nil},
		{"label value bad", IsValidLabelValue, "-a", []string{valueMsg}},
		{"label value too long", IsValidLabelValue, long64, []string{"must be no more than 63 bytes"}},
		{"path segment dot", IsPathSegmentName, ".", []string{"may not be '.'"}},
		{"path segment dotdot", IsPathSegmentName, "..", []string{"may not be '..'"}},
		{"path segment slash and percent", IsPathSegmentName, "a/%", []string{"may not contain '/'", "may not contain '%'"}},
		{"path segment prefix allows dots", IsPathSegmentPrefix, "..", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.fn(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNameFuncsMaskTrailingDash(t *testing.T) {
	tests := []struct {
		in, want string
	}{{"abc-", "aba"}, {"a-", "a"}, {"-", "-"}, {"abc", "abc"}, {"", ""}}
	for _, tt := range tests {
		if got := MaskTrailingDash(tt.in); got != tt.want {
			t.Errorf("MaskTrailingDash(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if errs := NameIsDNSSubdomain("abc-", true); errs != nil {
		t.Errorf("prefix with a trailing dash must pass: %q", errs)
	}
	if errs := NameIsDNSSubdomain("abc-", false); len(errs) != 1 {
		t.Errorf("name with a trailing dash must fail: %q", errs)
	}
	if errs := NameIsDNSLabel("a.b-", true); !reflect.DeepEqual(errs, []string{"must not contain dots"}) {
		t.Errorf("got %q", errs)
	}
	if errs := ValidatePathSegmentName("..", true); errs != nil {
		t.Errorf("prefix '..' must pass: %q", errs)
	}
}
