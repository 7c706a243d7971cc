// Package names holds the name and label validators of Kubernetes, with
// upstream's exact messages: k8s.io/apimachinery/pkg/util/validation
// (IsDNS1123Label, IsDNS1123Subdomain, IsDNS1035Label: lengths reported in
// "characters"), k8s.io/apimachinery/pkg/api/validate/content (label keys
// and values, path segments: lengths reported in "bytes") and the
// ValidateNameFunc helpers of k8s.io/apimachinery/pkg/api/validation.
//
// Every Is* function returns nil when the value is valid and otherwise a list
// of messages, in upstream's order.
package names

import (
	"fmt"
	"strings"

	"github.com/crdlab/crdlab/internal/kubeversion"
)

// Length limits, from k8s.io/apimachinery/pkg/util/validation and
// k8s.io/apimachinery/pkg/api/validate/content.
const (
	// DNS1123LabelMaxLength is a label's max length in DNS (RFC 1123).
	DNS1123LabelMaxLength = 63
	// DNS1123SubdomainMaxLength is a subdomain's max length in DNS (RFC 1123).
	DNS1123SubdomainMaxLength = 253
	// DNS1035LabelMaxLength is a label's max length in DNS (RFC 1035).
	DNS1035LabelMaxLength = 63
	// LabelValueMaxLength is the max length of a label value (content.LabelValueMaxLength).
	LabelValueMaxLength = 63
	// labelKeyMaxLength is the max length of the name part of a label key.
	labelKeyMaxLength = 63
)

const (
	dns1123LabelFmt          = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123LabelErrMsg       = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123SubdomainFmt      = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubdomainErrorMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	dns1035LabelFmt          = "[a-z]([-a-z0-9]*[a-z0-9])?"
	dns1035LabelErrMsg       = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"

	labelKeyCharFmt    = "[A-Za-z0-9]"
	labelKeyExtCharFmt = "[-A-Za-z0-9_.]"
	labelKeyFmt        = "(" + labelKeyCharFmt + labelKeyExtCharFmt + "*)?" + labelKeyCharFmt
	labelKeyErrMsg     = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueFmt      = "(" + labelKeyFmt + ")?"
	labelValueErrMsg   = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
)

// The formats above are checked by hand-written matchers, not compiled
// regular expressions: the patterns are character classes, and compiling
// six regexps at package init was the largest start-up cost of crdlab's own
// packages in the wasm module (Go's init runs them all when the module is
// instantiated, in V8's baseline code: ~40-60 ms of the playground's first
// visit). TestMatchersAgreeWithFormats checks each matcher against
// regexp.MustCompile("^" + fmt + "$") of its format.

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isAlnum(c byte) bool { return isLower(c) || isDigit(c) || ('A' <= c && c <= 'Z') }

// matchDNS1123Label is ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$.
func matchDNS1123Label(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isLower(c) && !isDigit(c) && c != '-' {
			return false
		}
	}
	return true
}

// matchDNS1123Subdomain is ^L(\.L)*$ with L the DNS-1123 label format.
func matchDNS1123Subdomain(s string) bool {
	for {
		i := strings.IndexByte(s, '.')
		if i < 0 {
			return matchDNS1123Label(s)
		}
		if !matchDNS1123Label(s[:i]) {
			return false
		}
		s = s[i+1:]
	}
}

// matchDNS1035Label is ^[a-z]([-a-z0-9]*[a-z0-9])?$.
func matchDNS1035Label(s string) bool {
	return s != "" && isLower(s[0]) && matchDNS1123Label(s)
}

// matchLabelKey is ^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$.
func matchLabelKey(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// matchLabelValue is ^(labelKeyFmt)?$: empty or a label key's name part.
func matchLabelValue(s string) bool { return s == "" || matchLabelKey(s) }

// MaxLenError is util/validation's "too long" message (in characters).
func MaxLenError(length int) string {
	return fmt.Sprintf("must be no more than %d characters", length)
}

// MaxLenBytesError is api/validate/content's "too long" message (in bytes).
func MaxLenBytesError(length int) string {
	return fmt.Sprintf("must be no more than %d bytes", length)
}

// EmptyError is the "must not be empty" message.
func EmptyError() string { return "must be non-empty" }

// RegexError explains a failed regular expression match, with examples.
func RegexError(msg, re string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + re + "')"
	}
	var b strings.Builder
	b.WriteString(msg)
	b.WriteString(" (e.g. ")
	for i, ex := range examples {
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString("'" + ex + "', ")
	}
	b.WriteString("regex used for validation is '" + re + "')")
	return b.String()
}

func isDNS1123Label(value string, maxLen func(int) string) []string {
	var errs []string
	if len(value) > DNS1123LabelMaxLength {
		errs = append(errs, maxLen(DNS1123LabelMaxLength))
	}
	if !matchDNS1123Label(value) {
		if matchDNS1123Subdomain(value) {
			// a valid subdomain but not a label: the length was checked, so it has dots
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, RegexError(dns1123LabelErrMsg, dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

func isDNS1123Subdomain(value string, maxLen func(int) string) []string {
	var errs []string
	if len(value) > DNS1123SubdomainMaxLength {
		errs = append(errs, maxLen(DNS1123SubdomainMaxLength))
	}
	if !matchDNS1123Subdomain(value) {
		errs = append(errs, RegexError(dns1123SubdomainErrorMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// IsDNS1123Label tests for a DNS (RFC 1123) label (util/validation).
func IsDNS1123Label(value string) []string { return isDNS1123Label(value, MaxLenError) }

// IsDNS1123Subdomain tests for a DNS (RFC 1123) subdomain (util/validation).
func IsDNS1123Subdomain(value string) []string { return isDNS1123Subdomain(value, MaxLenError) }

// IsDNS1123SubdomainContent is api/validate/content's IsDNS1123Subdomain (length in bytes).
func IsDNS1123SubdomainContent(value string) []string {
	return isDNS1123Subdomain(value, MaxLenBytesError)
}

// IsDNS1035Label tests for a DNS (RFC 1035) label (util/validation).
func IsDNS1035Label(value string) []string {
	var errs []string
	if len(value) > DNS1035LabelMaxLength {
		errs = append(errs, MaxLenError(DNS1035LabelMaxLength))
	}
	if !matchDNS1035Label(value) {
		errs = append(errs, RegexError(dns1035LabelErrMsg, dns1035LabelFmt, "my-name", "abc-123"))
	}
	return errs
}

// IsQualifiedName tests for a label key / qualified name: an optional DNS
// subdomain prefix and '/', then a name (content.IsLabelKey).
func IsQualifiedName(value string) []string { return isQualifiedName(value, false) }

// IsQualifiedNameAt is IsQualifiedName with the messages of release rel:
// before 1.35 (kubeversion.ContentMessages) util/validation's, lengths in
// characters and "a qualified name must consist of …".
func IsQualifiedNameAt(rel kubeversion.Release, value string) []string {
	return isQualifiedName(value, !rel.Has(kubeversion.ContentMessages))
}

func isQualifiedName(value string, legacy bool) []string {
	maxLen, subdomain, what := MaxLenBytesError, IsDNS1123SubdomainContent, "a valid label key "
	if legacy {
		maxLen, subdomain, what = MaxLenError, IsDNS1123Subdomain, "a qualified name "
	}
	var errs []string
	parts := strings.Split(value, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		name = parts[1]
		if len(prefix) == 0 {
			errs = append(errs, "prefix part "+EmptyError())
		} else if msgs := subdomain(prefix); len(msgs) != 0 {
			for _, m := range msgs {
				errs = append(errs, "prefix part "+m)
			}
		}
	default:
		return append(errs, what+RegexError(labelKeyErrMsg, labelKeyFmt, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if len(name) == 0 {
		errs = append(errs, "name part "+EmptyError())
	} else if len(name) > labelKeyMaxLength {
		errs = append(errs, "name part "+maxLen(labelKeyMaxLength))
	}
	if !matchLabelKey(name) {
		errs = append(errs, "name part "+RegexError(labelKeyErrMsg, labelKeyFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// IsValidLabelValue tests for a label value (content.IsLabelValue).
func IsValidLabelValue(value string) []string { return isValidLabelValue(value, MaxLenBytesError) }

// IsValidLabelValueAt is IsValidLabelValue with the messages of release
// rel (before 1.35, the length in characters).
func IsValidLabelValueAt(rel kubeversion.Release, value string) []string {
	if !rel.Has(kubeversion.ContentMessages) {
		return isValidLabelValue(value, MaxLenError)
	}
	return isValidLabelValue(value, MaxLenBytesError)
}

func isValidLabelValue(value string, maxLen func(int) string) []string {
	var errs []string
	if len(value) > LabelValueMaxLength {
		errs = append(errs, maxLen(LabelValueMaxLength))
	}
	if !matchLabelValue(value) {
		errs = append(errs, RegexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// IsPathSegmentName tests that name can be safely encoded as a URL path segment.
func IsPathSegmentName(name string) []string {
	for _, illegal := range []string{".", ".."} {
		if name == illegal {
			return []string{fmt.Sprintf(`may not be '%s'`, illegal)}
		}
	}
	return IsPathSegmentPrefix(name)
}

// IsPathSegmentPrefix tests that name can prefix a path segment name.
func IsPathSegmentPrefix(name string) []string {
	var errs []string
	for _, illegal := range []string{"/", "%"} {
		if strings.Contains(name, illegal) {
			errs = append(errs, fmt.Sprintf(`may not contain '%s'`, illegal))
		}
	}
	return errs
}

// ValidateNameFunc validates a name; prefix is true for a generateName that
// will have characters appended (api/validation.ValidateNameFunc).
type ValidateNameFunc func(name string, prefix bool) []string

// MaskTrailingDash replaces a trailing dash of a name longer than one
// character, as upstream does for generateName prefixes. Upstream drops
// the last two characters and appends "a"; this reproduces it.
func MaskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}

// NameIsDNSSubdomain is a ValidateNameFunc for names that must be a DNS subdomain.
func NameIsDNSSubdomain(name string, prefix bool) []string {
	if prefix {
		name = MaskTrailingDash(name)
	}
	return IsDNS1123Subdomain(name)
}

// NameIsDNSLabel is a ValidateNameFunc for names that must be a DNS 1123 label.
func NameIsDNSLabel(name string, prefix bool) []string {
	if prefix {
		name = MaskTrailingDash(name)
	}
	return IsDNS1123Label(name)
}

// NameIsDNS1035Label is a ValidateNameFunc for names that must be a DNS 1035 label.
func NameIsDNS1035Label(name string, prefix bool) []string {
	if prefix {
		name = MaskTrailingDash(name)
	}
	return IsDNS1035Label(name)
}

// ValidateNamespaceName validates a namespace name (a DNS 1123 label).
func ValidateNamespaceName(name string, prefix bool) []string { return NameIsDNSLabel(name, prefix) }

// ValidatePathSegmentName is the ValidateNameFunc the generic registry uses
// for every object's name and generateName.
func ValidatePathSegmentName(name string, prefix bool) []string {
	if prefix {
		return IsPathSegmentPrefix(name)
	}
	return IsPathSegmentName(name)
}

// configMapKeyFmt is util/validation's ConfigMap and Secret key format.
const configMapKeyFmt = `[-._a-zA-Z0-9]+`

// IsConfigMapKey tests for a ConfigMap or Secret key (util/validation):
// at most 253 characters of alphanumerics, '-', '_' and '.', and not '.',
// '..' or starting with '..'.
func IsConfigMapKey(value string) []string {
	var errs []string
	if len(value) > DNS1123SubdomainMaxLength {
		errs = append(errs, MaxLenError(DNS1123SubdomainMaxLength))
	}
	ok := value != ""
	for i := 0; ok && i < len(value); i++ {
		c := value[i]
		ok = isAlnum(c) || c == '-' || c == '_' || c == '.'
	}
	if !ok {
		errs = append(errs, RegexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", configMapKeyFmt, "key.name", "KEY_NAME", "key-name"))
	}
	switch {
	case value == ".":
		errs = append(errs, `must not be '.'`)
	case value == "..":
		errs = append(errs, `must not be '..'`)
	case strings.HasPrefix(value, ".."):
		errs = append(errs, `must not start with '..'`)
	}
	return errs
}

// IsEnvVarName tests for an environment variable name (util/validation's
// IsEnvVarName, the rule before RelaxedEnvironmentVariableValidation):
// alphabetic characters, digits, '_', '-' or '.', not starting with a
// digit, and not '.', '..' or starting with '..'.
func IsEnvVarName(value string) []string {
	var errs []string
	ok := value != ""
	for i := 0; ok && i < len(value); i++ {
		c := value[i]
		ok = isAlnum(c) || c == '-' || c == '_' || c == '.'
		if i == 0 && c >= '0' && c <= '9' {
			ok = false
		}
	}
	if !ok {
		errs = append(errs, RegexError("a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit", "[-._a-zA-Z][-._a-zA-Z0-9]*", "my.env-name", "MY_ENV.NAME", "MyEnvName1"))
	}
	switch {
	case value == ".":
		errs = append(errs, `must not be '.'`)
	case value == "..":
		errs = append(errs, `must not be '..'`)
	case strings.HasPrefix(value, ".."):
		errs = append(errs, `must not start with '..'`)
	}
	return errs
}

// IsRelaxedEnvVarName tests for an environment variable name under
// RelaxedEnvironmentVariableValidation: printable ASCII other than '='.
func IsRelaxedEnvVarName(value string) []string {
	var errs []string
	if value == "" {
		errs = append(errs, "environment variable name "+EmptyError())
	}
	for _, r := range value {
		if r > 127 || r < 32 || r == 127 || r == '=' {
			errs = append(errs, "a valid environment variable name must consist only of printable ASCII characters other than '='")
			break
		}
	}
	return errs
}
