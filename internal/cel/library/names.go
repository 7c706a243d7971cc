package library

import (
	"regexp"
	"strings"
	"time"
)

// The name and label validators of the format library come from
// internal/names (upstream's k8s.io/apimachinery validators). The
// string formats below are kube-openapi's strfmt validators (uuid, byte,
// date, datetime), reimplemented with the same patterns.

const (
	// uuidPattern is strfmt.UUIDPattern; its length is the uuid format's MaxRegexSize.
	uuidPattern = `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`
	// dateTimePattern is strfmt.DateTimePattern; its length is the date and datetime MaxRegexSize.
	dateTimePattern = `^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`
	// base64Pattern is govalidator's Base64 pattern (strfmt "byte").
	base64Pattern = "^(?:[A-Za-z0-9+\\/]{4})*(?:[A-Za-z0-9+\\/]{2}==|[A-Za-z0-9+\\/]{3}=|[A-Za-z0-9+\\/]{4})$"
)

var (
	uuidRegexp     = regexp.MustCompile(uuidPattern)
	dateTimeRegexp = regexp.MustCompile(dateTimePattern)
	base64Regexp   = regexp.MustCompile(base64Pattern)
)

// isStrfmtDate is strfmt.IsDate: a full-date (RFC 3339).
func isStrfmtDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

// isStrfmtDateTime is strfmt.IsDateTime.
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
