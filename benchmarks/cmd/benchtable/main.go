// Command benchtable turns `benchstat -format csv -col /impl` output into
// the Markdown table of benchmarks/README.md: per benchmark, the median
// wall-clock and CPU time of crdlab and upstream and the ratio
// crdlab/upstream (below 1 means crdlab is faster).
//
//	benchstat -format csv -col /impl bench.txt | go run ./cmd/benchtable
package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

type row struct {
	crdlab, upstream float64
	ok               bool
}

func main() {
	tables, order, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
	wall, cpu, allocs := tables["sec/op"], tables["cpu-sec/op"], tables["B/op"]
	fmt.Println("| benchmark | crdlab time | upstream time | ratio | crdlab CPU | upstream CPU | CPU ratio | B/op ratio |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, name := range order {
		w, c, a := wall[name], cpu[name], allocs[name]
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s | %s |\n", strings.TrimSuffix(name, "-2"),
			dur(w.crdlab, w.ok), dur(w.upstream, w.ok), ratio(w), dur(c.crdlab, c.ok), dur(c.upstream, c.ok), ratio(c), ratio(a))
	}
}

// parse reads benchstat's CSV: blocks starting with ",crdlab,,upstream" and
// a unit line, then one line per benchmark.
func parse(r io.Reader) (map[string]map[string]row, []string, error) {
	tables := map[string]map[string]row{}
	var order []string
	seen := map[string]bool{}
	var unit string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		rec, err := csv.NewReader(strings.NewReader(line)).Read()
		if err != nil || len(rec) < 4 {
			continue
		}
		if rec[0] == "" {
			if rec[1] != "crdlab" {
				unit = rec[1]
			}
			continue
		}
		if unit == "" || strings.HasPrefix(rec[0], "geomean") {
			continue
		}
		if tables[unit] == nil {
			tables[unit] = map[string]row{}
		}
		a, errA := strconv.ParseFloat(rec[1], 64)
		b, errB := strconv.ParseFloat(rec[3], 64)
		tables[unit][rec[0]] = row{a, b, errA == nil && errB == nil}
		if !seen[rec[0]] {
			seen[rec[0]] = true
			order = append(order, rec[0])
		}
	}
	return tables, order, sc.Err()
}

func dur(s float64, ok bool) string {
	if !ok {
		return "–"
	}
	switch {
	case s >= 1:
		return fmt.Sprintf("%.2f s", s)
	case s >= 1e-3:
		return fmt.Sprintf("%.1f ms", s*1e3)
	default:
		return fmt.Sprintf("%.0f µs", s*1e6)
	}
}

func ratio(r row) string {
	if !r.ok || r.upstream == 0 {
		return "–"
	}
	q := r.crdlab / r.upstream
	if q < 1 {
		return fmt.Sprintf("**%.2f**", q)
	}
	return fmt.Sprintf("%.2f", q)
}
