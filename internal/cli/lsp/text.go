package lsp

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// offset returns the byte offset in text of p (a zero-based line and a
// UTF-16 character offset). A line past the end maps to len(text), a
// character past the end of its line to the line's end (the protocol
// asks servers to clamp).
func offset(text string, p Position) int {
	if p.Line < 0 || p.Character < 0 {
		return 0
	}
	i := 0
	for l := 0; l < p.Line; l++ {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			return len(text)
		}
		i += j + 1
	}
	units := 0
	for i < len(text) && text[i] != '\n' && units < p.Character {
		r, n := utf8.DecodeRuneInString(text[i:])
		if r == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			break
		}
		units += utf16.RuneLen(r)
		if units > p.Character { // inside a surrogate pair: stay before it
			break
		}
		i += n
	}
	return i
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// lineCol converts a 1-based line and a 1-based column counted in
// characters (runes: the engine's positions) to a Position.
func lineCol(text string, line, col int) Position {
	if line < 1 {
		return Position{}
	}
	start := 0
	for l := 1; l < line; l++ {
		j := strings.IndexByte(text[start:], '\n')
		if j < 0 {
			break
		}
		start += j + 1
	}
	end := strings.IndexByte(text[start:], '\n')
	if end < 0 {
		end = len(text) - start
	}
	ln := text[start : start+end]
	units, c := 0, 1
	for _, r := range ln {
		if c >= col {
			break
		}
		units += utf16.RuneLen(r)
		c++
	}
	return Position{Line: line - 1, Character: units}
}

// posInLine is the Position of the 1-based rune column col on the
// 1-based line whose text is l (clamped to its end).
func posInLine(l string, line, col int) Position {
	l = strings.TrimSuffix(l, "\r")
	units, c := 0, 1
	for _, r := range l {
		if c >= col {
			break
		}
		units += utf16.RuneLen(r)
		c++
	}
	return Position{Line: line - 1, Character: units}
}

// applyChange applies one content change to text.
func applyChange(text string, ch TextDocumentContentChangeEvent) (string, error) {
	if ch.Range == nil {
		return ch.Text, nil
	}
	a, b := offset(text, ch.Range.Start), offset(text, ch.Range.End)
	if a > b {
		return "", fmt.Errorf("change range ends before it starts (%d:%d > %d:%d)", ch.Range.Start.Line, ch.Range.Start.Character, ch.Range.End.Line, ch.Range.End.Character)
	}
	return text[:a] + ch.Text + text[b:], nil
}
