package crdtest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
)

func readFile(fsys fileSystem, path string) ([]byte, error) {
	data, err := fsys.ReadFile(path)
	if err != nil {
		if pe, ok := err.(*fs.PathError); ok {
			return nil, fmt.Errorf("%s: %v", path, pe.Err)
		}
		return nil, err
	}
	return data, nil
}

// unifiedDiff renders a line diff of a and b with 3 lines of context
// ("-" lines are a's, "+" lines b's), from a longest common subsequence.
func unifiedDiff(a, b string) string {
	x := strings.Split(strings.TrimSuffix(a, "\n"), "\n")
	y := strings.Split(strings.TrimSuffix(b, "\n"), "\n")
	n, m := len(x), len(y)
	// lcs[i][j] = LCS length of x[i:], y[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else if lcs[i+1][j] >= lcs[i][j+1] {
				lcs[i][j] = lcs[i+1][j]
			} else {
				lcs[i][j] = lcs[i][j+1]
			}
		}
	}
	type line struct {
		op   byte
		text string
		ai   int // line number in a (1-based) before this line
		bi   int
	}
	var lines []line
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			lines = append(lines, line{' ', x[i], i, j})
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			lines = append(lines, line{'-', x[i], i, j})
			i++
		default:
			lines = append(lines, line{'+', y[j], i, j})
			j++
		}
	}
	const context = 3
	var out strings.Builder
	for k := 0; k < len(lines); {
		if lines[k].op == ' ' {
			k++
			continue
		}
		start := k - context
		if start < 0 {
			start = 0
		}
		end := k
		for end < len(lines) {
			if lines[end].op != ' ' {
				end++
				continue
			}
			// a run of context: does another change follow closely?
			r := end
			for r < len(lines) && lines[r].op == ' ' {
				r++
			}
			if r < len(lines) && r-end <= 2*context {
				end = r
				continue
			}
			end += context
			if end > len(lines) {
				end = len(lines)
			}
			break
		}
		na, nb := 0, 0
		for _, l := range lines[start:end] {
			if l.op != '+' {
				na++
			}
			if l.op != '-' {
				nb++
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", lines[start].ai+1, na, lines[start].bi+1, nb)
		for _, l := range lines[start:end] {
			out.WriteByte(l.op)
			out.WriteString(l.text)
			out.WriteByte('\n')
		}
		k = end
	}
	return out.String()
}

func jsonUnmarshal(data []byte, v interface{}) error { return json.Unmarshal(data, v) }
