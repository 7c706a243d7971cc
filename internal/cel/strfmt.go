package cel

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The string format parsers used when a CEL value is created from a string
// with format duration, date, date-time or byte. They follow
// kube-openapi's strfmt package, which upstream's UnstructuredToVal calls.

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

var durationPattern = regexp.MustCompile(`((\d+)\s*([A-Za-zµ]+))`)

func parseStrfmtDuration(cand string) (time.Duration, error) {
	if d, err := time.ParseDuration(cand); err == nil {
		return d, nil
	}
	var dur time.Duration
	ok := false
	for _, m := range durationPattern.FindAllStringSubmatch(cand, -1) {
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

var dateTimeLayouts = []string{
	"2006-01-02T15:04:05.000000Z07:00",
	"2006-01-02T15:04:05.000Z07:00",
	time.RFC3339,
	time.RFC3339Nano,
	"2006-01-02T15:04:05",
}

func parseStrfmtDateTime(s string) (time.Time, error) {
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

func parseStrfmtBase64(s string) ([]byte, error) {
	enc := base64.URLEncoding
	buf := make([]byte, enc.DecodedLen(len(s)))
	n, err := enc.Decode(buf, []byte(s))
	if err != nil {
		return nil, err
	}
	return buf[:n], nil
}
