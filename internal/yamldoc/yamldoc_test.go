package yamldoc

import (
	"errors"
	"fmt"
	"testing"
)

func render(docs []Document) string {
	s := ""
	for _, d := range docs {
		s += fmt.Sprintf("%d:%q ", d.Line, d.Data)
	}
	return s
}

func TestSplit(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty input", "", `1:"" `},
		{"one document", "a: 1\n", `1:"a: 1\n" `},
		{"no trailing newline", "a: 1", `1:"a: 1" `},
		{"separators with spaces and comments", "a: 1\n---\n\n---  # c\nb: 2\nc: 3\n--- \nd: 4\n", `1:"a: 1\n" 3:"\n" 5:"b: 2\nc: 3\n" 8:"d: 4\n" `},
		{"leading separator", "---\na: 1\n", `1:"" 2:"a: 1\n" `},
		{"trailing separator", "a: 1\n---\n", `1:"a: 1\n" 3:"" `},
		{"separator at EOF without newline", "a: 1\n---", `1:"a: 1\n" 3:"" `},
		{"comment glued to the dashes", "a\n---# x\nb\n", `1:"a\n" 3:"b\n" `},
		{"tab before a comment", "a\n---\t# x\nb\n", `1:"a\n" 3:"b\n" `},
		{"CRLF line ends", "a\r\n---\r\nb\r\n", `1:"a\r\n" 3:"b\r\n" `},
		{"dashes not in column 1 are content", "a: |\n  ---\n ---\n", `1:"a: |\n  ---\n ---\n" `},
		{"document end marker is content", "a\n...\n---\nb\n", `1:"a\n...\n" 4:"b\n" `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, err := Split([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := render(docs); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestSplitInvalidSeparator pins the case the former splitters disagreed
// on: engine/crd cut the document at any line beginning with "---" and
// dropped the rest of the line, cmd/crdlab kept such a line inside the
// document. kubectl's YAMLReader rejects it, and so does Split.
func TestSplitInvalidSeparator(t *testing.T) {
	for _, tt := range []struct{ in, text string }{
		{"a: 1\n--- b: 2\n", "b: 2"},
		{"a: 1\n---x\n", "x"},
		{"----\n", "-"},
		{"a\n\n--- !!map\n", "!!map"},
	} {
		_, err := Split([]byte(tt.in))
		var se *SeparatorError
		if !errors.As(err, &se) {
			t.Fatalf("Split(%q) = %v, want a *SeparatorError", tt.in, err)
		}
		wantLine := 1
		for i := 0; i < len(tt.in) && tt.in[i:i+3] != "---"; i++ {
			if tt.in[i] == '\n' {
				wantLine++
			}
		}
		if se.Line != wantLine || se.Text != tt.text || se.Error() != "invalid Yaml document separator: "+tt.text {
			t.Errorf("Split(%q) = %+v (%v), want line %d text %q", tt.in, se, se, wantLine, tt.text)
		}
	}
}

func TestSplitDataDoesNotAliasOnAppend(t *testing.T) {
	in := []byte("a\n---\nb\n")
	docs, err := Split(in)
	if err != nil {
		t.Fatal(err)
	}
	_ = append(docs[0].Data, 'X')
	if string(in) != "a\n---\nb\n" {
		t.Errorf("appending to a document changed the input: %q", in)
	}
}

func TestEmpty(t *testing.T) {
	for in, want := range map[string]bool{
		"":                   true,
		"\n  \n":             true,
		"# c\n  # d\n":       true,
		"a: 1\n":             false,
		"# c\nkind: X # d\n": false,
		"  -\n":              false,
	} {
		if got := Empty([]byte(in)); got != want {
			t.Errorf("Empty(%q) = %v, want %v", in, got, want)
		}
	}
}
