package library

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Internal copies of the validators the format library calls, with upstream's
// messages: k8s.io/apimachinery/pkg/util/validation (DNS labels and
// subdomains, "characters" in length errors), pkg/api/validate/content (label
// keys and values, "bytes" in length errors), pkg/api/validation/generic.go
// (the NameIs* wrappers) and kube-openapi strfmt (uuid, byte, date, datetime).

const (
	dns1123LabelFmt          = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123LabelErrMsg       = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123LabelMaxLength    = 63
	dns1123SubdomainFmt      = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubdomainErrorMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	dns1123SubdomainMaxLen   = 253
	dns1035LabelFmt          = "[a-z]([-a-z0-9]*[a-z0-9])?"
	dns1035LabelErrMsg       = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
	dns1035LabelMaxLength    = 63

	labelKeyCharFmt    = "[A-Za-z0-9]"
	labelKeyExtCharFmt = "[-A-Za-z0-9_.]"
	labelKeyFmt        = "(" + labelKeyCharFmt + labelKeyExtCharFmt + "*)?" + labelKeyCharFmt
	labelKeyErrMsg     = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelKeyMaxLength  = 63
	labelValueFmt      = "(" + labelKeyFmt + ")?"
	labelValueErrMsg   = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueMaxLen   = 63

	uuidPattern     = `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`
	dateTimePattern = `^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`
	base64Pattern   = "^(?:[A-Za-z0-9+\\/]{4})*(?:[A-Za-z0-9+\\/]{2}==|[A-Za-z0-9+\\/]{3}=|[A-Za-z0-9+\\/]{4})$"
)

var (
	dns1123LabelRegexp     = regexp.MustCompile("^" + dns1123LabelFmt + "$")
	dns1123SubdomainRegexp = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
	dns1035LabelRegexp     = regexp.MustCompile("^" + dns1035LabelFmt + "$")
	labelKeyRegexp         = regexp.MustCompile("^" + labelKeyFmt + "$")
	labelValueRegexp       = regexp.MustCompile("^" + labelValueFmt + "$")
	uuidRegexp             = regexp.MustCompile(uuidPattern)
	dateTimeRegexp         = regexp.MustCompile(dateTimePattern)
	base64Regexp           = regexp.MustCompile(base64Pattern)
)

// maxLenError is util/validation.MaxLenError.
func maxLenError(n int) string { return fmt.Sprintf("must be no more than %d characters", n) }

// maxLenBytesError is api/validate/content.MaxLenError.
func maxLenBytesError(n int) string { return fmt.Sprintf("must be no more than %d bytes", n) }

func regexError(msg, re string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + re + "')"
	}
	msg += " (e.g. "
	for i, e := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + e + "', "
	}
	return msg + "regex used for validation is '" + re + "')"
}

func isDNS1123Label(v string) []string {
	var errs []string
	if len(v) > dns1123LabelMaxLength {
		errs = append(errs, maxLenError(dns1123LabelMaxLength))
	}
	if !dns1123LabelRegexp.MatchString(v) {
		if dns1123SubdomainRegexp.MatchString(v) {
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, regexError(dns1123LabelErrMsg, dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

func isDNS1123Subdomain(v string) []string {
	var errs []string
	if len(v) > dns1123SubdomainMaxLen {
		errs = append(errs, maxLenError(dns1123SubdomainMaxLen))
	}
	if !dns1123SubdomainRegexp.MatchString(v) {
		errs = append(errs, regexError(dns1123SubdomainErrorMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// isDNS1123SubdomainContent is api/validate/content.IsDNS1123Subdomain (used by
// label keys): same regex and message, but "bytes" in the length error.
func isDNS1123SubdomainContent(v string) []string {
	var errs []string
	if len(v) > dns1123SubdomainMaxLen {
		errs = append(errs, maxLenBytesError(dns1123SubdomainMaxLen))
	}
	if !dns1123SubdomainRegexp.MatchString(v) {
		errs = append(errs, regexError(dns1123SubdomainErrorMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

func isDNS1035Label(v string) []string {
	var errs []string
	if len(v) > dns1035LabelMaxLength {
		errs = append(errs, maxLenError(dns1035LabelMaxLength))
	}
	if !dns1035LabelRegexp.MatchString(v) {
		errs = append(errs, regexError(dns1035LabelErrMsg, dns1035LabelFmt, "my-name", "abc-123"))
	}
	return errs
}

// maskTrailingDash is generic.go's maskTrailingDash (which, as upstream,
// replaces the last two characters by "a").
func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}

func isQualifiedName(value string) []string {
	var errs []string
	parts := strings.Split(value, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		var prefix string
		prefix, name = parts[0], parts[1]
		if len(prefix) == 0 {
			errs = append(errs, "prefix part must be non-empty")
		} else if msgs := isDNS1123SubdomainContent(prefix); len(msgs) != 0 {
			for _, m := range msgs {
				errs = append(errs, "prefix part "+m)
			}
		}
	default:
		return append(errs, "a valid label key "+regexError(labelKeyErrMsg, labelKeyFmt, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if len(name) == 0 {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > labelKeyMaxLength {
		errs = append(errs, "name part "+maxLenBytesError(labelKeyMaxLength))
	}
	if !labelKeyRegexp.MatchString(name) {
		errs = append(errs, "name part "+regexError(labelKeyErrMsg, labelKeyFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

func isValidLabelValue(v string) []string {
	var errs []string
	if len(v) > labelValueMaxLen {
		errs = append(errs, maxLenBytesError(labelValueMaxLen))
	}
	if !labelValueRegexp.MatchString(v) {
		errs = append(errs, regexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

func isStrfmtDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

func isStrfmtDateTime(str string) bool {
	if len(str) < 4 {
		return false
	}
	s := strings.Split(strings.ToLower(str), "t")
	if len(s) < 2 || !isStrfmtDate(s[0]) {
		return false
	}
	matches := dateTimeRegexp.FindAllStringSubmatch(s[1], -1)
	if len(matches) == 0 || len(matches[0]) == 0 {
		return false
	}
	m := matches[0]
	return m[1] <= "23" && m[2] <= "59" && m[3] <= "59"
}
