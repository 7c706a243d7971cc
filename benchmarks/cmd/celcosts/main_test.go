package main

import (
	"encoding/xml"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/unstructured"
)

func TestCorrelations(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5}
	if r := pearson(xs, []float64{2, 4, 6, 8, 10}); math.Abs(r-1) > 1e-12 {
		t.Errorf("pearson of a line: %v", r)
	}
	if r := pearson(xs, []float64{5, 4, 3, 2, 1}); math.Abs(r+1) > 1e-12 {
		t.Errorf("pearson of a falling line: %v", r)
	}
	// monotonic but not linear: Spearman 1, Pearson below 1
	ys := []float64{1, 8, 27, 64, 1000}
	if r := spearman(xs, ys); math.Abs(r-1) > 1e-12 {
		t.Errorf("spearman: %v", r)
	}
	if r := pearson(xs, ys); r >= 0.99 {
		t.Errorf("pearson of a curve: %v", r)
	}
	if got := ranks([]float64{10, 20, 20, 5}); got[0] != 2 || got[1] != 3.5 || got[2] != 3.5 || got[3] != 1 {
		t.Errorf("ranks with ties: %v", got)
	}
	if !math.IsNaN(pearson([]float64{1, 1}, []float64{1, 2})) {
		t.Error("constant xs: want NaN")
	}
	if s := slope([]float64{0, 1, 2}, []float64{1, 3, 5}); s != 2 {
		t.Errorf("slope %v", s)
	}
}

// wellFormed parses an SVG document and counts its elements by name.
func wellFormed(t *testing.T, doc string) map[string]int {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(doc))
	count := map[string]int{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			count[se.Name.Local]++
		}
	}
	return count
}

func TestSVG(t *testing.T) {
	pts := []point{{1, 300, "a"}, {10, 2000, "b"}, {1000, 3e5, "a"}, {0, 5, "a"}}
	s := scatterLogLog("t <&>", "x", "y", pts, []string{"a", "b"})
	c := wellFormed(t, s)
	// 3 plotted points (x = 0 is left out) + 2 legend markers
	if c["circle"] != 5 || c["svg"] != 1 {
		t.Errorf("elements %v", c)
	}
	if !strings.Contains(s, "t &lt;&amp;&gt;") {
		t.Error("title not escaped")
	}
	b := barChart("bars", "ns/unit", []bar{{"r1 <x>", 10, " (n)"}, {"r2", 5, ""}})
	if c := wellFormed(t, b); c["rect"] != 3 { // background + 2 bars
		t.Errorf("elements %v", c)
	}
}

func TestScale(t *testing.T) {
	schema := map[string]interface{}{"type": "object", "properties": map[string]interface{}{
		"small": map[string]interface{}{"type": "array", "maxItems": float64(5), "items": map[string]interface{}{"type": "string"}},
		"big": map[string]interface{}{"type": "array", "items": map[string]interface{}{"type": "object", "properties": map[string]interface{}{
			"inner": map[string]interface{}{"type": "array", "items": map[string]interface{}{"type": "integer"}}}}},
	}}
	obj := map[string]interface{}{"small": []interface{}{"a"}, "big": []interface{}{map[string]interface{}{"inner": []interface{}{int64(1)}}}}
	for _, c := range []struct{ n, small, big, inner int }{{1, 1, 1, 1}, {10, 5, 10, 10}, {100, 5, 100, 10}, {0, 5, maxListItems, nestedCap}} {
		got := scale(unstructured.DeepCopy(obj), schema, c.n, false).(map[string]interface{})
		big := got["big"].([]interface{})
		inner := big[len(big)-1].(map[string]interface{})["inner"].([]interface{})
		if len(got["small"].([]interface{})) != c.small || len(big) != c.big || len(inner) != c.inner {
			t.Errorf("size %d: small %d big %d inner %d, want %+v", c.n, len(got["small"].([]interface{})), len(big), len(inner), c)
		}
	}
	if len(obj["big"].([]interface{})) != 1 {
		t.Error("scale modified its input")
	}
}

func TestFunctions(t *testing.T) {
	got := strings.Join(functions(`self.all(x, x.matches('^a') && size(x) < 3)`), ",")
	if got != "all(),matches(),operator &&,operator <,size()" {
		t.Errorf("functions: %s", got)
	}
}
