package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// maskTimes replaces what varies between runs of crdlab bench (times,
// allocations, ratios, the machine) so that its output can be compared
// with a golden file.
func maskTimes(format, s string) string {
	switch format {
	case "json":
		s = regexp.MustCompile(`"(iterations|medianNs|p10Ns|p90Ns|allocsPerOp|bytesPerOp|perEvaluationNs|nsPerCostUnit|cpus)": [-0-9.e+]+`).ReplaceAllString(s, `"$1": 0`)
		s = regexp.MustCompile(`"(goos|goarch|goVersion)": "[^"]*"`).ReplaceAllString(s, `"$1": "-"`)
		return s
	case "csv":
		rows, err := csv.NewReader(strings.NewReader(s)).ReadAll()
		if err != nil {
			return "unparsable CSV: " + err.Error() + "\n" + s
		}
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		for i, r := range rows {
			if i > 0 {
				for j := 15; j < len(r); j++ {
					if r[j] != "" {
						r[j] = "N"
					}
				}
			}
			_ = w.Write(r)
		}
		w.Flush()
		return b.String()
	}
	s = regexp.MustCompile(`(?m)^machine: .*$`).ReplaceAllString(s, "machine: -")
	s = regexp.MustCompile(`[0-9]+(\.[0-9]+)?(ns|µs|ms|s)\b`).ReplaceAllString(s, "T")
	s = regexp.MustCompile(`[0-9]+ allocs`).ReplaceAllString(s, "N allocs")
	s = regexp.MustCompile(`[0-9]+(\.[0-9]+)? (B|KiB|MiB)\b`).ReplaceAllString(s, "N B")
	s = regexp.MustCompile(`[0-9]+(\.[0-9]+)? ns/u`).ReplaceAllString(s, "R ns/u")
	s = regexp.MustCompile(`(?m)(\s)[0-9]+%$`).ReplaceAllString(s, "${1}P%")
	// column widths follow the masked values: compare without them
	s = regexp.MustCompile(` {2,}`).ReplaceAllString(s, "  ")
	return s
}

// TestBenchCLI runs `crdlab bench` (briefly) and compares exit status,
// stdout (times masked) and stderr with testdata/bench/<name>.golden.
func TestBenchCLI(t *testing.T) {
	const td = "testdata/project/"
	fast := []string{"--duration", "1ms", "--samples", "3"}
	tests := []struct {
		name   string
		args   []string
		format string
		exit   int
	}{
		{"project-dir-text", []string{td}, "text", 0},
		{"project-dir-json", []string{"-o", "json", td}, "json", 0},
		{"project-dir-csv", []string{td, "-o", "csv"}, "csv", 0},
		{"project-sort-estimate-top-2", []string{"--sort", "estimate", "--top", "2", td}, "text", 0},
		{"project-over-1-percent", []string{"--over", "1", td}, "text", 0},
		{"crd-and-object-files", []string{td + "crds.yaml", td + "widget-bad.json"}, "text", 0},
		{"mixed-rejected-crd", []string{"../../cost/testdata/mixed.yaml", "../../cost/testdata/mixed-object.yaml"}, "text", 0},
		{"usage-no-objects", []string{td + "crds.yaml"}, "text", 2},
		{"usage-bad-sort", []string{"--sort", "name", td}, "text", 2},
		{"usage-bad-output", []string{"-o", "xml", td}, "text", 2},
		{"usage-no-args", nil, "text", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append(append([]string{"bench"}, fast...), tt.args...), strings.NewReader(""), &stdout, &stderr)
			if code != tt.exit {
				t.Errorf("exit status %d, want %d\nstderr: %s", code, tt.exit, stderr.String())
			}
			got := fmt.Sprintf("exit: %d\n--- stdout\n%s--- stderr\n%s", code, maskTimes(tt.format, stdout.String()), stderr.String())
			golden := filepath.Join("testdata", "bench", tt.name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s (-update to rewrite)\ngot:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
}

// TestBenchTimesArePositive checks what the masks hide: every evaluated
// rule and every phase has a positive median within its spread.
func TestBenchTimesArePositive(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"bench", "-o", "csv", "--duration", "1ms", "--samples", "3", "testdata/project"}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	rows, err := csv.NewReader(&stdout).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 10 {
		t.Fatalf("only %d rows", len(rows))
	}
	for _, r := range rows[1:] {
		if r[11] == "0" {
			continue // not evaluated
		}
		var med, p10, p90 float64
		fmt.Sscan(r[15], &med)
		fmt.Sscan(r[16], &p10)
		fmt.Sscan(r[17], &p90)
		if !(med > 0 && p10 <= med && med <= p90) {
			t.Errorf("%s %s: median %v not in (0, p10 %v..p90 %v]", r[6], r[8], med, p10, p90)
		}
	}
}
