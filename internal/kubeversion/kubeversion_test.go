package kubeversion

import (
	"strings"
	"testing"
)

func TestZeroReleaseIsTheDefaultRelease(t *testing.T) {
	var r Release
	if r.Minor() != Default || r.String() != "1.37" || !r.IsDefault() {
		t.Fatalf("zero Release = %s (minor %d)", r, r.Minor())
	}
	for c := Change(0); c < numChanges; c++ {
		if got, want := r.Has(c), since[c] <= Default; got != want {
			t.Errorf("the default release Has(%d) = %v, want %v (since 1.%d)", c, got, want, since[c])
		}
		if since[c] < Oldest || since[c] > Newest {
			t.Errorf("change %d arrives in 1.%d, outside 1.%d-1.%d", c, since[c], Oldest, Newest)
		}
	}
	if Of(Default) != r {
		t.Errorf("Of(Default) = %#v, want the zero Release", Of(Default))
	}
}

func TestNewestReleaseHasEveryChange(t *testing.T) {
	r := Of(Newest)
	if r.IsDefault() != (Newest == Default) || r.String() != "1.38" {
		t.Fatalf("Of(Newest) = %s, IsDefault %v", r, r.IsDefault())
	}
	for c := Change(0); c < numChanges; c++ {
		if !r.Has(c) {
			t.Errorf("the newest release lacks change %d", c)
		}
	}
}

func TestOlderReleaseLacksLaterChanges(t *testing.T) {
	r := Of(36)
	for c := Change(0); c < numChanges; c++ {
		if got, want := r.Has(c), since[c] <= 36; got != want {
			t.Errorf("1.36 Has(%d) = %v, want %v", c, got, want)
		}
	}
	if r.IsDefault() {
		t.Error("1.36 is not the default")
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		want    int
		wantErr string
	}{
		{"", 37, ""},
		{"1.37", 37, ""},
		{"v1.36", 36, ""},
		{"1.36", 36, ""},
		{"1.30", 0, "unsupported Kubernetes version \"1.30\" (supported: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37, 1.38)"},
		{"1.38", 38, ""},
		{"1.39", 0, "unsupported"},
		{"2.1", 0, "invalid Kubernetes version \"2.1\""},
		{"1.", 0, "invalid"},
		{"1.3x", 0, "invalid"},
		{"1.36.2", 0, "invalid"},
		{"1.999", 0, "invalid"},
	}
	for _, tt := range tests {
		r, err := Parse(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Parse(%q) error = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || r.Minor() != tt.want {
			t.Errorf("Parse(%q) = %s, %v; want 1.%d", tt.in, r, err, tt.want)
		}
	}
}

func TestParseSet(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		wantErr string
	}{
		{"supported", "1.38 1.37 1.36 1.35 1.34 1.33 1.32 1.31", ""},
		{"1.36-1.37", "1.37 1.36", ""},
		{"1.36,1.37,1.36", "1.37 1.36", ""},
		{"1.36", "1.36", ""},
		{"1.37-1.36", "", "the older release comes first"},
		{"1.30-1.37", "", "unsupported"},
		{"1.36,x", "", "invalid"},
	}
	for _, tt := range tests {
		rs, err := ParseSet(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseSet(%q) error = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		var names []string
		for _, r := range rs {
			names = append(names, r.String())
		}
		if err != nil || strings.Join(names, " ") != tt.want {
			t.Errorf("ParseSet(%q) = %v, %v; want %s", tt.in, names, err, tt.want)
		}
	}
}

func TestSinceIsTheFirstReleaseWithTheChange(t *testing.T) {
	for c := Change(0); c < numChanges; c++ {
		s := Since(c)
		if s < Oldest+1 || s > Newest {
			t.Errorf("change %d arrives in 1.%d, outside 1.%d-1.%d", c, s, Oldest+1, Newest)
		}
		if !Of(s).Has(c) || Of(s-1).Has(c) {
			t.Errorf("change %d: 1.%d has it %v, 1.%d has it %v", c, s, Of(s).Has(c), s-1, Of(s-1).Has(c))
		}
	}
}
