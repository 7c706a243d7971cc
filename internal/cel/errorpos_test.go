package cel

import "testing"

func TestCompileErrorOffsetCountsLinesAndRunesOfTheExpression(t *testing.T) {
	for _, c := range []struct {
		expr, msg string
		want      int
		ok        bool
	}{
		{"self.a", "compilation failed: ERROR: <input>:1:5: undefined field 'a'", 4, true},
		{"a &&\n  self.b", "ERROR: <input>:2:7: undefined field 'b'", 11, true},
		{"é.x", "ERROR: <input>:1:2: x", 1, true},
		{"self.a", "ERROR: <input>:1:5: first\nERROR: <input>:1:1: second", 4, true},
		{"self.a", "no position here", 0, false},
		{"self.a", "ERROR: <input>:x:5: bad", 0, false},
		{"self.a", "ERROR: <input>:1:", 0, false},
		{"self.a", "ERROR: <input>:99999999999999999999:1: huge", 0, false},
	} {
		got, ok := CompileErrorOffset(c.expr, c.msg)
		if got != c.want || ok != c.ok {
			t.Errorf("CompileErrorOffset(%q, %q) = %d, %v; want %d, %v", c.expr, c.msg, got, ok, c.want, c.ok)
		}
	}
}
