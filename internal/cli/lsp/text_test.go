package lsp

import "testing"

// position returns the Position of byte offset off in text.
func position(text string, off int) Position {
	if off > len(text) {
		off = len(text)
	}
	line, start := 0, 0
	for i := 0; i < off; i++ {
		if text[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return Position{Line: line, Character: utf16Len(text[start:off])}
}

func TestJSONTopLevelReadsOnlyTheTopLevel(t *testing.T) {
	for in, want := range map[string][2]string{
		`{"kind":"A","apiVersion":"x/v1"}`:                                   {"x/v1", "A"},
		`{"spec":{"kind":"Inner","apiVersion":"no"},"kind":"Outer"}`:         {"", "Outer"},
		`{"a":[{"kind":"no"}],"b":{"c":[1,2]},"apiVersion":"v1","kind":"K"}`: {"v1", "K"},
		`[{"kind":"K"}]`:              {"", ""},
		`{"kind":`:                    {"", ""},
		`{"kind":3,"apiVersion":"v"}`: {"v", ""},
	} {
		if a, k := jsonTopLevel([]byte(in)); a != want[0] || k != want[1] {
			t.Errorf("%s: %q %q, want %q", in, a, k, want)
		}
	}
}

func TestIncrementalEditsCountUTF16CodeUnits(t *testing.T) {
	text := "a: é\nb: 😀x\r\nc: 3\n"
	for _, c := range []struct {
		r    Range
		with string
		want string
	}{
		// é is one UTF-16 unit, 😀 two: character 5 on line 1 is after it
		{Range{Position{1, 5}, Position{1, 6}}, "y", "a: é\nb: 😀y\r\nc: 3\n"},
		{Range{Position{0, 3}, Position{0, 4}}, "e", "a: e\nb: 😀x\r\nc: 3\n"},
		// a character past the line's end stops before its \r\n
		{Range{Position{1, 99}, Position{1, 99}}, "!", "a: é\nb: 😀x!\r\nc: 3\n"},
		// a line past the end is the end of the text
		{Range{Position{9, 0}, Position{9, 0}}, "d: 4\n", "a: é\nb: 😀x\r\nc: 3\nd: 4\n"},
		// inside the surrogate pair: before it
		{Range{Position{1, 4}, Position{1, 4}}, "_", "a: é\nb: _😀x\r\nc: 3\n"},
	} {
		r := c.r
		got, err := applyChange(text, TextDocumentContentChangeEvent{Range: &r, Text: c.with})
		if err != nil || got != c.want {
			t.Errorf("%v %q: %q, %v; want %q", c.r, c.with, got, err, c.want)
		}
	}
	if p := posInLine("b: 😀x", 2, 5); p != (Position{1, 5}) {
		t.Errorf("posInLine: %v", p)
	}
}
