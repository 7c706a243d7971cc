package strfmt

import (
	"encoding/hex"
	"net/mail"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Patterns of kube-openapi's strfmt and its vendored govalidator. The CEL
// format library uses their lengths as MaxRegexSize.
const (
	// UUIDPattern is strfmt.UUIDPattern (format uuid).
	UUIDPattern = `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`
	// DateTimePattern is strfmt.DateTimePattern: the time part of a
	// date-time, after the "t".
	DateTimePattern = `^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`
	// Base64Pattern is govalidator's Base64 (format byte).
	Base64Pattern = "^(?:[A-Za-z0-9+\\/]{4})*(?:[A-Za-z0-9+\\/]{2}==|[A-Za-z0-9+\\/]{3}=|[A-Za-z0-9+\\/]{4})$"
)

// Regular expressions of kube-openapi's strfmt and its vendored govalidator,
// compiled on first use.
var (
	rxHostname = lazyRegexp(`^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`)
	rxUUID     = lazyRegexp(UUIDPattern)
	rxUUID3    = lazyRegexp(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	rxUUID4    = lazyRegexp(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	rxUUID5    = lazyRegexp(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	rxDateTime = lazyRegexp(DateTimePattern)
	rxDuration = lazyRegexp(`((\d+)\s*([A-Za-zµ]+))`)

	rxCreditCard = lazyRegexp("^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\\d{3})\\d{11})$")
	rxISBN10     = lazyRegexp("^(?:[0-9]{9}X|[0-9]{10})$")
	rxISBN13     = lazyRegexp("^(?:[0-9]{13})$")
	rxHexcolor   = lazyRegexp("^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
	rxRGBcolor   = lazyRegexp("^rgb\\(\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*\\)$")
	rxBase64     = lazyRegexp(Base64Pattern)
	rxSSN        = lazyRegexp(`^\d{3}[- ]?\d{2}[- ]?\d{4}$`)
	rxNotNumber  = lazyRegexp("[^0-9]+")
	rxSpaceMinus = lazyRegexp(`[\s-]+`)

	rxShortName = lazyRegexp("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
	rxLongName  = lazyRegexp("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
)

// IsHostname is strfmt.IsHostname: the hostname pattern, at most 255
// characters, no dot-separated part longer than 63.
func IsHostname(str string) bool {
	if !rxHostname().MatchString(str) || len(str) > 255 {
		return false
	}
	for _, p := range strings.Split(str, ".") {
		if len(p) > 63 {
			return false
		}
	}
	return true
}

// IsEmail is strfmt.IsEmail: net/mail.ParseAddress with a non-empty address.
func IsEmail(str string) bool {
	addr, err := mail.ParseAddress(str)
	return err == nil && addr.Address != ""
}

// IsURI is govalidator.IsRequestURI: net/url.ParseRequestURI succeeds.
func IsURI(str string) bool {
	_, err := url.ParseRequestURI(str)
	return err == nil
}

// IsDate is strfmt.IsDate: time.Parse with layout 2006-01-02.
func IsDate(str string) bool {
	_, err := time.Parse("2006-01-02", str)
	return err == nil
}

// IsDateTime is strfmt.IsDateTime: a full date, a "t" (any case), and a
// time matching the RFC 3339 time pattern with hour<=23, minute, second<=59.
func IsDateTime(str string) bool {
	if len(str) < 4 {
		return false
	}
	for i := 0; i < len(str); i++ {
		if str[i] >= utf8RuneSelf {
			return isDateTimeSlow(str)
		}
	}
	// ASCII: split at the first two 't'/'T' without lowering a copy
	first := indexT(str)
	if first < 0 || !IsDate(str[:first]) {
		return false
	}
	rest := str[first+1:]
	if second := indexT(rest); second >= 0 {
		rest = rest[:second]
	}
	return timeOfDayOK(rest)
}

const utf8RuneSelf = 0x80

func indexT(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == 't' || s[i] == 'T' {
			return i
		}
	}
	return -1
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// timeOfDayOK matches (ASCII, case-insensitively for "z") the date-time
// pattern ^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$
// and checks hour <= 23, minute <= 59, second <= 59.
func timeOfDayOK(s string) bool {
	if len(s) < 9 || !isDigit(s[0]) || !isDigit(s[1]) || s[2] != ':' || !isDigit(s[3]) || !isDigit(s[4]) ||
		s[5] != ':' || !isDigit(s[6]) || !isDigit(s[7]) {
		return false
	}
	if !(s[:2] <= "23" && s[3:5] <= "59" && s[6:8] <= "59") {
		return false
	}
	rest := s[8:]
	if isZone(rest) {
		return true
	}
	// optional fraction: any one character but a newline, then digits
	if len(rest) < 2 || rest[0] == '\n' {
		return false
	}
	i := 1
	for i < len(rest) && isDigit(rest[i]) {
		i++
	}
	return i > 1 && isZone(rest[i:])
}

func isZone(s string) bool {
	if len(s) == 1 {
		return s[0] == 'z' || s[0] == 'Z'
	}
	return len(s) == 6 && (s[0] == '+' || s[0] == '-') && isDigit(s[1]) && isDigit(s[2]) && s[3] == ':' &&
		isDigit(s[4]) && isDigit(s[5])
}

func isDateTimeSlow(str string) bool {
	s := strings.Split(strings.ToLower(str), "t")
	if len(s) < 2 || !IsDate(s[0]) {
		return false
	}
	m := rxDateTime().FindStringSubmatch(s[1])
	if len(m) == 0 {
		return false
	}
	return m[1] <= "23" && m[2] <= "59" && m[3] <= "59"
}

// IsDuration is strfmt.IsDuration: ParseDuration succeeds.
func IsDuration(str string) bool {
	_, err := ParseDuration(str)
	return err == nil
}

// IsBSONObjectID reports whether str is 24 hex digits (12 bytes).
func IsBSONObjectID(str string) bool {
	b, err := hex.DecodeString(str)
	return err == nil && len(b) == 12
}

// IsIPv4 is strfmt's isIPv4: k8s.io/utils/net.ParseIPSloppy (leading zeros
// allowed) succeeds and the string contains a dot.
func IsIPv4(s string) bool {
	return sloppyParseIP(s) && strings.Contains(s, ".")
}

// IsIPv6 is govalidator.IsIPv6: net.ParseIP succeeds (no zone) and the
// string contains a colon.
func IsIPv6(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Zone() == "" && strings.Contains(s, ":")
}

// IsCIDR is strfmt's isCIDR: k8s.io/utils/net.ParseCIDRSloppy succeeds.
func IsCIDR(s string) bool {
	i := strings.IndexByte(s, '/')
	if i < 0 {
		return false
	}
	addr, mask := s[:i], s[i+1:]
	iplen := 4
	if !sloppyIPv4(addr) {
		iplen = 16
		if !sloppyIPv6(addr) {
			return false
		}
	}
	n, c, ok := dtoi(mask)
	return ok && c == len(mask) && n >= 0 && n <= 8*iplen
}

const bigInt = 0xFFFFFF

func dtoi(s string) (n int, i int, ok bool) {
	for i = 0; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		n = n*10 + int(s[i]-'0')
		if n >= bigInt {
			return bigInt, i, false
		}
	}
	if i == 0 {
		return 0, 0, false
	}
	return n, i, true
}

func xtoi(s string) (n int, i int, ok bool) {
	for i = 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			n = n*16 + int(c-'0')
		case 'a' <= c && c <= 'f':
			n = n*16 + int(c-'a') + 10
		case 'A' <= c && c <= 'F':
			n = n*16 + int(c-'A') + 10
		default:
			goto done
		}
		if n >= bigInt {
			return 0, i, false
		}
	}
done:
	if i == 0 {
		return 0, i, false
	}
	return n, i, true
}

// sloppyParseIP is the pre-Go-1.17 net.ParseIP k8s.io/utils forks.
func sloppyParseIP(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.':
			return sloppyIPv4(s)
		case ':':
			return sloppyIPv6(s)
		}
	}
	return false
}

func sloppyIPv4(s string) bool {
	for i := 0; i < 4; i++ {
		if len(s) == 0 {
			return false
		}
		if i > 0 {
			if s[0] != '.' {
				return false
			}
			s = s[1:]
		}
		n, c, ok := dtoi(s)
		if !ok || n > 0xFF {
			return false
		}
		s = s[c:]
	}
	return len(s) == 0
}

func sloppyIPv6(s string) bool {
	ellipsis := -1
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		ellipsis = 0
		s = s[2:]
		if len(s) == 0 {
			return true
		}
	}
	i := 0
	for i < 16 {
		n, c, ok := xtoi(s)
		if !ok || n > 0xFFFF {
			return false
		}
		if c < len(s) && s[c] == '.' {
			if ellipsis < 0 && i != 12 {
				return false
			}
			if i+4 > 16 {
				return false
			}
			if !sloppyIPv4(s) {
				return false
			}
			s = ""
			i += 4
			break
		}
		i += 2
		s = s[c:]
		if len(s) == 0 {
			break
		}
		if s[0] != ':' || len(s) == 1 {
			return false
		}
		s = s[1:]
		if s[0] == ':' {
			if ellipsis >= 0 {
				return false
			}
			ellipsis = i
			s = s[1:]
			if len(s) == 0 {
				break
			}
		}
	}
	if len(s) != 0 {
		return false
	}
	if i < 16 {
		return ellipsis >= 0
	}
	return ellipsis < 0
}

// IsMAC is govalidator.IsMAC: net.ParseMAC succeeds (EUI-48, EUI-64 or
// 20-octet IP over InfiniBand; ':' '-' '.' separated or bare hex digits).
func IsMAC(s string) bool {
	if len(s) < 12 {
		return false
	}
	switch {
	case s[2] == ':' || s[2] == '-':
		if (len(s)+1)%3 != 0 {
			return false
		}
		n := (len(s) + 1) / 3
		if n != 6 && n != 8 && n != 20 {
			return false
		}
		for x, i := 0, 0; i < n; i++ {
			if !xtoi2(s[x:], s[2]) {
				return false
			}
			x += 3
		}
	case s[4] == '.':
		if (len(s)+1)%5 != 0 {
			return false
		}
		n := 2 * (len(s) + 1) / 5
		if n != 6 && n != 8 && n != 20 {
			return false
		}
		for x, i := 0, 0; i < n; i += 2 {
			if !xtoi2(s[x:x+2], 0) || !xtoi2(s[x+2:], s[4]) {
				return false
			}
			x += 5
		}
	default:
		if len(s)%2 != 0 {
			return false
		}
		n := len(s) / 2
		if n != 6 && n != 8 && n != 20 {
			return false
		}
		for x, i := 0, 0; i < n; i++ {
			if !xtoi2(s[x:x+2], 0) {
				return false
			}
			x += 2
		}
	}
	return true
}

// xtoi2 is net's xtoi2: two hex digits, followed by e or the end of s.
func xtoi2(s string, e byte) bool {
	if len(s) > 2 && s[2] != e {
		return false
	}
	_, c, ok := xtoi(s[:2])
	return ok && c == 2
}

// IsCreditCard is govalidator.IsCreditCard: non-digits removed, the card
// pattern, and the Luhn checksum.
func IsCreditCard(str string) bool {
	sanitized := rxNotNumber().ReplaceAllString(str, "")
	if !rxCreditCard().MatchString(sanitized) {
		return false
	}
	var sum int64
	double := false
	for i := len(sanitized) - 1; i >= 0; i-- {
		d := int64(sanitized[i] - '0')
		if double {
			d *= 2
			if d >= 10 {
				sum += d%10 + 1
			} else {
				sum += d
			}
		} else {
			sum += d
		}
		double = !double
	}
	return sum%10 == 0
}

// IsISBN10 is govalidator.IsISBN10.
func IsISBN10(str string) bool {
	s := rxSpaceMinus().ReplaceAllString(str, "")
	if !rxISBN10().MatchString(s) {
		return false
	}
	var sum int32
	for i := int32(0); i < 9; i++ {
		sum += (i + 1) * int32(s[i]-'0')
	}
	if s[9] == 'X' {
		sum += 10 * 10
	} else {
		sum += 10 * int32(s[9]-'0')
	}
	return sum%11 == 0
}

// IsISBN13 is govalidator.IsISBN13.
func IsISBN13(str string) bool {
	s := rxSpaceMinus().ReplaceAllString(str, "")
	if !rxISBN13().MatchString(s) {
		return false
	}
	factor := [2]int32{1, 3}
	var sum int32
	for i := 0; i < 12; i++ {
		sum += factor[i%2] * int32(s[i]-'0')
	}
	return int32(s[12]-'0')-((10-(sum%10))%10) == 0
}

// IsSSN is govalidator.IsSSN.
func IsSSN(str string) bool {
	return len(str) == 11 && rxSSN().MatchString(str)
}

// IsUUID is format uuid: UUIDPattern (dashes optional, any case).
func IsUUID(s string) bool { return rxUUID().MatchString(s) }

// IsUUID3 is format uuid3.
func IsUUID3(s string) bool { return rxUUID3().MatchString(s) }

// IsUUID4 is format uuid4.
func IsUUID4(s string) bool { return rxUUID4().MatchString(s) }

// IsUUID5 is format uuid5.
func IsUUID5(s string) bool { return rxUUID5().MatchString(s) }

// IsBase64 is format byte: govalidator's Base64Pattern (standard alphabet,
// padded).
func IsBase64(s string) bool { return rxBase64().MatchString(s) }

// IsHexColor is format hexcolor.
func IsHexColor(s string) bool { return rxHexcolor().MatchString(s) }

// IsRGBColor is format rgbcolor.
func IsRGBColor(s string) bool { return rxRGBcolor().MatchString(s) }

// IsISBN is format isbn: an ISBN-10 or an ISBN-13.
func IsISBN(s string) bool { return IsISBN10(s) || IsISBN13(s) }

// IsPassword is format password: any string.
func IsPassword(string) bool { return true }

// IsShortName is strfmt.IsShortName (k8s-short-name): an RFC 1123 label
// without uppercase, at most 63 characters.
func IsShortName(s string) bool {
	return len(s) <= 63 && rxShortName().MatchString(s)
}

// IsLongName is strfmt.IsLongName (k8s-long-name): dot-separated short
// names, at most 253 characters.
func IsLongName(s string) bool {
	return len(s) <= 253 && rxLongName().MatchString(s)
}

// lazyRegexp returns a function compiling expr once, on first call.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
