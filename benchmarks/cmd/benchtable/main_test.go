package main

import (
	"strings"
	"testing"
)

const sampleCSV = `goos: linux
,crdlab,,upstream,,,
,sec/op,CI,sec/op,CI,vs base,P
Compile/crd=a/cel=on-2,0.002,5%,0.001,3%,-50.00%,p=0.002 n=6
Validate/crd=a/cel=on/obj=x-2,0.0001,1%,0.0004,2%,+300.00%,p=0.002 n=6
geomean,0.001,,0.001,,+0.00%,
,crdlab,,upstream,,,
,cpu-sec/op,CI,cpu-sec/op,CI,vs base,P
Compile/crd=a/cel=on-2,0.0015,5%,0.001,3%,-33.00%,p=0.002 n=6
`

func TestParseReadsEveryUnitTable(t *testing.T) {
	tables, order, err := parse(strings.NewReader(sampleCSV))
	if err != nil {
		t.Fatal(err)
	}
	if len(order) != 2 || order[0] != "Compile/crd=a/cel=on-2" || order[1] != "Validate/crd=a/cel=on/obj=x-2" {
		t.Fatalf("order = %q", order)
	}
	if got := tables["sec/op"]["Compile/crd=a/cel=on-2"]; got.crdlab != 0.002 || got.upstream != 0.001 || !got.ok {
		t.Errorf("sec/op row = %+v", got)
	}
	if got := tables["cpu-sec/op"]["Compile/crd=a/cel=on-2"]; got.crdlab != 0.0015 {
		t.Errorf("cpu-sec/op row = %+v", got)
	}
	if _, ok := tables["sec/op"]["geomean"]; ok {
		t.Error("geomean must be skipped")
	}
}

func TestRatioBoldsWhenCrdlabIsFaster(t *testing.T) {
	for _, tc := range []struct {
		r    row
		want string
	}{
		{row{1, 4, true}, "**0.25**"},
		{row{2, 1, true}, "2.00"},
		{row{1, 0, true}, "–"},
		{row{1, 1, false}, "–"},
	} {
		if got := ratio(tc.r); got != tc.want {
			t.Errorf("ratio(%+v) = %q, want %q", tc.r, got, tc.want)
		}
	}
}

func TestDurPicksAUnit(t *testing.T) {
	for _, tc := range []struct {
		s    float64
		want string
	}{{2.5, "2.50 s"}, {0.0123, "12.3 ms"}, {0.000042, "42 µs"}} {
		if got := dur(tc.s, true); got != tc.want {
			t.Errorf("dur(%v) = %q, want %q", tc.s, got, tc.want)
		}
	}
}
