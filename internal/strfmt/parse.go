package strfmt

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// duration units of strfmt.ParseDuration: the last variant of each group is
// also accepted as a prefix ("hours", "days").
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

var durationUnitMultiplier = map[string]time.Duration{
	"ns": time.Nanosecond, "us": time.Microsecond, "ms": time.Millisecond,
	"s": time.Second, "m": time.Minute, "h": time.Hour,
	"d": 24 * time.Hour, "w": 7 * 24 * time.Hour,
}

// ParseDuration is strfmt.ParseDuration: time.ParseDuration, or else the
// sum of every "<digits><unit>" group with a known unit (white space allowed
// between number and unit). It fails when a digit group is not an int or no
// group has a known unit.
func ParseDuration(cand string) (time.Duration, error) {
	if d, err := time.ParseDuration(cand); err == nil {
		return d, nil
	}
	var dur time.Duration
	ok := false
	for _, m := range rxDuration().FindAllStringSubmatch(cand, -1) {
		factor, err := strconv.Atoi(m[2])
		if err != nil {
			return 0, err
		}
		unit := strings.ToLower(strings.TrimSpace(m[3]))
		for _, variants := range durationUnits {
			last := len(variants) - 1
			mult := durationUnitMultiplier[variants[0]]
			for i, v := range variants {
				if (last == i && strings.HasPrefix(unit, v)) || strings.EqualFold(v, unit) {
					ok = true
					dur += time.Duration(factor) * mult
				}
			}
		}
	}
	if ok {
		return dur, nil
	}
	return 0, fmt.Errorf("unable to parse %s as duration", cand)
}

// dateTimeLayouts are strfmt's DateTime parse layouts, tried in order.
var dateTimeLayouts = []string{
	"2006-01-02T15:04:05.000000Z07:00",
	"2006-01-02T15:04:05.000Z07:00",
	time.RFC3339,
	time.RFC3339Nano,
	"2006-01-02T15:04:05",
}

// ParseDateTime is strfmt.ParseDateTime: the empty string is the Unix
// epoch, anything else the first of strfmt's layouts that parses it (the
// error is the last layout's).
func ParseDateTime(s string) (time.Time, error) {
	if s == "" {
		return time.Unix(0, 0).UTC(), nil
	}
	var last error
	for _, l := range dateTimeLayouts {
		t, err := time.Parse(l, s)
		if err != nil {
			last = err
			continue
		}
		return t, nil
	}
	return time.Time{}, last
}

// ParseBase64 decodes a string of format byte as upstream's CEL value
// conversion does (strfmt.Base64's UnmarshalText): base64.URLEncoding,
// padded.
func ParseBase64(s string) ([]byte, error) {
	enc := base64.URLEncoding
	buf := make([]byte, enc.DecodedLen(len(s)))
	n, err := enc.Decode(buf, []byte(s))
	if err != nil {
		return nil, err
	}
	return buf[:n], nil
}
