package crdvalidation

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/engine/field"
)

// Name rules of k8s.io/apimachinery/pkg/util/validation and
// k8s.io/apimachinery/pkg/api/validate/content, with their messages.

const (
	dns1123LabelFmt          = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt      = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubdomainErrorMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	dns1035LabelFmt          = "[a-z]([-a-z0-9]*[a-z0-9])?"
	dns1035LabelErrMsg       = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"

	// dns1123SubdomainMaxLength is RFC 1123's subdomain limit (upstream DNS1123SubdomainMaxLength).
	dns1123SubdomainMaxLength = 253
	// dns1035LabelMaxLength is RFC 1035's label limit (upstream DNS1035LabelMaxLength).
	dns1035LabelMaxLength = 63

	labelKeyFmt      = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelKeyErrMsg   = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueFmt    = "(" + labelKeyFmt + ")?"
	labelValueErrMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	// labelKeyMaxLength and labelValueMaxLength are upstream's 63-character limits.
	labelKeyMaxLength   = 63
	labelValueMaxLength = 63
	// totalAnnotationSizeLimitB is upstream's TotalAnnotationSizeLimitB (256 kB).
	totalAnnotationSizeLimitB = 256 * (1 << 10)
)

var (
	dns1123SubdomainRegexp = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
	dns1035LabelRegexp     = regexp.MustCompile("^" + dns1035LabelFmt + "$")
	labelKeyRegexp         = regexp.MustCompile("^" + labelKeyFmt + "$")
	labelValueRegexp       = regexp.MustCompile("^" + labelValueFmt + "$")
)

func maxLenError(n int) string { return fmt.Sprintf("must be no more than %d characters", n) }

func regexError(msg, format string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + format + "')"
	}
	msg += " (e.g. "
	for i, e := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + e + "', "
	}
	return msg + "regex used for validation is '" + format + "')"
}

func isDNS1123Subdomain(v string) []string {
	var errs []string
	if len(v) > dns1123SubdomainMaxLength {
		errs = append(errs, maxLenError(dns1123SubdomainMaxLength))
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

func isQualifiedName(v string) []string {
	var errs []string
	parts := strings.Split(v, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		name = parts[1]
		if len(prefix) == 0 {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, m := range isDNS1123Subdomain(prefix) {
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
		errs = append(errs, "name part "+maxLenError(labelKeyMaxLength))
	}
	if !labelKeyRegexp.MatchString(name) {
		errs = append(errs, "name part "+regexError(labelKeyErrMsg, labelKeyFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

func isLabelValue(v string) []string {
	var errs []string
	if len(v) > labelValueMaxLength {
		errs = append(errs, maxLenError(labelValueMaxLength))
	}
	if !labelValueRegexp.MatchString(v) {
		errs = append(errs, regexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// nameIsDNSSubdomain is upstream's NameIsDNSSubdomain (generateName prefixes
// may end in '-').
func nameIsDNSSubdomain(name string, prefix bool) []string {
	if prefix && len(name) > 1 && strings.HasSuffix(name, "-") {
		name = name[:len(name)-2] + "a"
	}
	return isDNS1123Subdomain(name)
}

// validateObjectMeta is upstream's ValidateObjectMeta for a cluster-scoped
// object on create (name, generateName, namespace, generation, labels,
// annotations and finalizers; map keys are visited in sorted order where
// upstream's order is random). ownerReferences and managedFields are not
// checked.
func validateObjectMeta(m *crd.ObjectMeta, nameFn func(string, bool) []string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if len(m.GenerateName) != 0 {
		for _, msg := range nameFn(m.GenerateName, true) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("generateName"), m.GenerateName, msg))
		}
	}
	if len(m.Name) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("name"), "name or generateName is required"))
	} else {
		for _, msg := range nameFn(m.Name, false) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("name"), m.Name, msg))
		}
	}
	if len(m.Namespace) != 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("namespace"), "not allowed on this type"))
	}
	if m.Generation < 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("generation"), m.Generation, "must be greater than or equal to 0"))
	}
	labelsPath := fldPath.Child("labels")
	for _, k := range slices.Sorted(maps.Keys(m.Labels)) {
		for _, msg := range isQualifiedName(k) {
			allErrs = append(allErrs, field.Invalid(labelsPath, k, msg))
		}
		for _, msg := range isLabelValue(m.Labels[k]) {
			allErrs = append(allErrs, field.Invalid(labelsPath, m.Labels[k], msg))
		}
	}
	annPath := fldPath.Child("annotations")
	total := 0
	for _, k := range slices.Sorted(maps.Keys(m.Annotations)) {
		for _, msg := range isQualifiedName(strings.ToLower(k)) {
			allErrs = append(allErrs, field.Invalid(annPath, k, msg))
		}
		total += len(k) + len(m.Annotations[k])
	}
	if total > totalAnnotationSizeLimitB {
		allErrs = append(allErrs, field.TooLong(annPath, "", totalAnnotationSizeLimitB))
	}
	finPath := fldPath.Child("finalizers")
	orphan, del := false, false
	for _, f := range m.Finalizers {
		for _, msg := range isQualifiedName(f) {
			allErrs = append(allErrs, field.Invalid(finPath, f, msg))
		}
		orphan = orphan || f == "orphan"
		del = del || f == "foregroundDeletion"
	}
	if orphan && del {
		allErrs = append(allErrs, field.Invalid(finPath, m.Finalizers, "finalizer orphan and foregroundDeletion cannot be both set"))
	}
	return allErrs
}

// validateWebhookURL is upstream's webhook.ValidateWebhookURL.
func validateWebhookURL(fldPath *field.Path, raw string, forceHTTPS bool) field.ErrorList {
	var allErrs field.ErrorList
	const form = "; desired format: https://host[/path]"
	u, err := url.Parse(raw)
	if err != nil {
		return append(allErrs, field.Required(fldPath, "url must be a valid URL: "+err.Error()+form))
	}
	if forceHTTPS && u.Scheme != "https" {
		allErrs = append(allErrs, field.Invalid(fldPath, u.Scheme, "'https' is the only allowed URL scheme"+form))
	}
	if len(u.Host) == 0 {
		allErrs = append(allErrs, field.Invalid(fldPath, u.Host, "host must be specified"+form))
	}
	if u.User != nil {
		allErrs = append(allErrs, field.Invalid(fldPath, u.User.String(), "user information is not permitted in the URL"))
	}
	if len(u.Fragment) != 0 {
		allErrs = append(allErrs, field.Invalid(fldPath, u.Fragment, "fragments are not permitted in the URL"))
	}
	if len(u.RawQuery) != 0 {
		allErrs = append(allErrs, field.Invalid(fldPath, u.RawQuery, "query parameters are not permitted in the URL"))
	}
	return allErrs
}

// validateWebhookService is upstream's webhook.ValidateWebhookService.
func validateWebhookService(fldPath *field.Path, namespace, name string, path *string, port int32) field.ErrorList {
	var allErrs field.ErrorList
	if len(name) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("name"), ""))
	}
	if len(namespace) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("namespace"), ""))
	}
	if port < 1 || port > 65535 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("port"), port, "port is not valid: must be between 1 and 65535, inclusive"))
	}
	if path == nil {
		return allErrs
	}
	p := *path
	if p == "/" || len(p) == 0 {
		return allErrs
	}
	if p == "//" {
		return append(allErrs, field.Invalid(fldPath.Child("path"), p, "segment[0] may not be empty"))
	}
	if !strings.HasPrefix(p, "/") {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("path"), p, "must start with a '/'"))
	}
	check := p[1:]
	check = strings.TrimSuffix(check, "/")
	for i, step := range strings.Split(check, "/") {
		if len(step) == 0 {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("path"), p, fmt.Sprintf("segment[%d] may not be empty", i)))
			continue
		}
		for _, failure := range isDNS1123Subdomain(step) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("path"), p, fmt.Sprintf("segment[%d]: %v", i, failure)))
		}
	}
	return allErrs
}
