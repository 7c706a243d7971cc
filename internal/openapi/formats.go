package openapi

import (
	"encoding/hex"
	"maps"
	"net/mail"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/crdlab/crdlab/engine/crd"
)

// formats is the registry of string formats kube-apiserver validates, keyed
// by normalized name (dashes removed, as go-openapi's DefaultNameNormalizer
// does): kube-openapi's strfmt.Default plus its Kubernetes extensions.
// Each checker reports whether a string is valid for the format.
var formats = map[string]func(string) bool{
	"bsonobjectid": IsBSONObjectID,
	"date":         IsDate,
	"datetime":     IsDateTime,
	"duration":     IsDuration,
	"uri":          IsURI,
	"email":        IsEmail,
	"hostname":     IsHostname,
	"ipv4":         IsIPv4,
	"ipv6":         IsIPv6,
	"cidr":         IsCIDR,
	"mac":          IsMAC,
	"uuid":         func(s string) bool { return rxUUID().MatchString(s) },
	"uuid3":        func(s string) bool { return rxUUID3().MatchString(s) },
	"uuid4":        func(s string) bool { return rxUUID4().MatchString(s) },
	"uuid5":        func(s string) bool { return rxUUID5().MatchString(s) },
	"isbn":         func(s string) bool { return IsISBN10(s) || IsISBN13(s) },
	"isbn10":       IsISBN10,
	"isbn13":       IsISBN13,
	"creditcard":   IsCreditCard,
	"ssn":          IsSSN,
	"hexcolor":     func(s string) bool { return rxHexcolor().MatchString(s) },
	"rgbcolor":     func(s string) bool { return rxRGBcolor().MatchString(s) },
	"byte":         func(s string) bool { return rxBase64().MatchString(s) },
	"password":     func(string) bool { return true },
	"k8sshortname": IsShortName,
	"k8slongname":  IsLongName,
}

// NormalizeFormat is go-openapi's format name normalization: dashes removed.
func NormalizeFormat(name string) string {
	return strings.ReplaceAll(name, "-", "")
}

func lookupFormat(format string) func(string) bool {
	if format == "" {
		return nil
	}
	return formats[NormalizeFormat(format)]
}

// LookupFormat returns the checker of a format of kube-openapi's registry
// (strfmt.Default with the Kubernetes extensions), by name with or without
// dashes ("date-time", "datetime"), or nil when the registry does not know
// it (upstream then does not check the format at all).
func LookupFormat(name string) func(string) bool {
	return lookupFormat(name)
}

// KnownFormats lists the normalized names of the registry, sorted.
func KnownFormats() []string {
	names := slices.Sorted(maps.Keys(formats))
	return names
}

// supportedStringFormats are the string formats CRD schemas may use at
// compatibility version 1.36/1.37 (upstream's supportedVersionedFormats: the
// 1.0 set plus k8s-short-name and k8s-long-name from 1.34), normalized.
var supportedStringFormats = map[string]bool{
	"bsonobjectid": true, "uri": true, "email": true, "hostname": true,
	"ipv4": true, "ipv6": true, "cidr": true, "mac": true,
	"uuid": true, "uuid3": true, "uuid4": true, "uuid5": true,
	"isbn": true, "isbn10": true, "isbn13": true, "creditcard": true,
	"ssn": true, "hexcolor": true, "rgbcolor": true, "byte": true,
	"password": true, "date": true, "duration": true, "datetime": true,
	"k8sshortname": true, "k8slongname": true,
}

// formatSupported reports whether format is kept for a node whose single
// type is schemaType ("" when the node has no or several types).
func formatSupported(schemaType, format string) bool {
	switch schemaType {
	case "", stringType:
		return supportedStringFormats[NormalizeFormat(format)]
	case integerType:
		return format == "int32" || format == "int64"
	case numberType:
		return format == "float" || format == "double"
	default:
		return false
	}
}

// stripUnsupportedFormat mirrors StripUnsupportedFormatsPostProcessorForVersion.
func stripUnsupportedFormat(types []string, format string) string {
	if format == "" {
		return ""
	}
	schemaType := ""
	if len(types) == 1 {
		schemaType = types[0]
	}
	if !formatSupported(schemaType, format) {
		return ""
	}
	return format
}

// GetUnrecognizedFormats returns the formats of s and of every schema below
// it that kube-apiserver 1.37 does not recognise, in the order upstream's
// CRD strategy finds them (SchemaHas traversal; map entries in sorted key
// order). The CRD strategy warns `unrecognized format "<f>"` for each.
func GetUnrecognizedFormats(s *crd.JSONSchemaProps) []string {
	var out []string
	walkProps(s, func(p *crd.JSONSchemaProps) {
		if p.Format != "" && !formatSupported(p.Type, p.Format) {
			out = append(out, p.Format)
		}
	})
	return out
}

func walkProps(s *crd.JSONSchemaProps, f func(*crd.JSONSchemaProps)) {
	if s == nil {
		return
	}
	f(s)
	if s.Items != nil {
		walkProps(s.Items.Schema, f)
		for i := range s.Items.JSONSchemas {
			walkProps(&s.Items.JSONSchemas[i], f)
		}
	}
	for i := range s.AllOf {
		walkProps(&s.AllOf[i], f)
	}
	for i := range s.AnyOf {
		walkProps(&s.AnyOf[i], f)
	}
	for i := range s.OneOf {
		walkProps(&s.OneOf[i], f)
	}
	walkProps(s.Not, f)
	for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
		p := s.Properties[k]
		walkProps(&p, f)
	}
	if s.AdditionalProperties != nil {
		walkProps(s.AdditionalProperties.Schema, f)
	}
	for _, k := range slices.Sorted(maps.Keys(s.PatternProperties)) {
		p := s.PatternProperties[k]
		walkProps(&p, f)
	}
	if s.AdditionalItems != nil {
		walkProps(s.AdditionalItems.Schema, f)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Definitions)) {
		p := s.Definitions[k]
		walkProps(&p, f)
	}
	deps := slices.Sorted(maps.Keys(s.Dependencies))
	for _, k := range deps {
		walkProps(s.Dependencies[k].Schema, f)
	}
}

// Regular expressions of kube-openapi's strfmt and its vendored govalidator,
// compiled on first use (not at package initialisation: start-up time matters
// in the WebAssembly module).
var (
	rxHostname = lazyRegexp(`^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`)
	rxUUID     = lazyRegexp(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	rxUUID3    = lazyRegexp(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	rxUUID4    = lazyRegexp(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	rxUUID5    = lazyRegexp(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	rxDateTime = lazyRegexp(`^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`)
	rxDuration = lazyRegexp(`((\d+)\s*([A-Za-zµ]+))`)

	rxCreditCard = lazyRegexp("^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\\d{3})\\d{11})$")
	rxISBN10     = lazyRegexp("^(?:[0-9]{9}X|[0-9]{10})$")
	rxISBN13     = lazyRegexp("^(?:[0-9]{13})$")
	rxHexcolor   = lazyRegexp("^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
	rxRGBcolor   = lazyRegexp("^rgb\\(\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*\\)$")
	rxBase64     = lazyRegexp("^(?:[A-Za-z0-9+\\/]{4})*(?:[A-Za-z0-9+\\/]{2}==|[A-Za-z0-9+\\/]{3}=|[A-Za-z0-9+\\/]{4})$")
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

// duration units of strfmt.ParseDuration: the last variant of each group is
// also accepted as a prefix.
var durationUnits = [][]string{
	{"ns", "nano"},
	{"us", "µs", "micro"},
	{"ms", "milli"},
	{"s", "sec"},
	{"m", "min"},
	{"h", "hr", "hour"},
	{"d", "day"},
	{"w", "wk", "week"},
}

// IsDuration is strfmt.IsDuration: time.ParseDuration, or at least one
// "<digits><unit>" group with a known unit (and every digit group an int).
func IsDuration(str string) bool {
	if _, err := time.ParseDuration(str); err == nil {
		return true
	}
	ok := false
	for _, m := range rxDuration().FindAllStringSubmatch(str, -1) {
		if _, err := strconv.Atoi(m[2]); err != nil {
			return false
		}
		unit := strings.ToLower(strings.TrimSpace(m[3]))
		for _, variants := range durationUnits {
			last := len(variants) - 1
			for i, v := range variants {
				if (last == i && strings.HasPrefix(unit, v)) || strings.EqualFold(v, unit) {
					ok = true
				}
			}
		}
	}
	return ok
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
