package library

import "testing"

// TestOptionsMaskNamesTheEnvironment pins that OptionsMask has a bit per
// base option and tells environments apart exactly when their options
// differ: 1.34 to 1.36 build the same environment, 1.37 adds the lists
// library version 1 (and drops version 0), the stored one has it too.
func TestOptionsMaskNamesTheEnvironment(t *testing.T) {
	if len(baseOptions) > 64 {
		t.Fatalf("%d base options do not fit OptionsMask's 64 bits", len(baseOptions))
	}
	if OptionsMask(34) != OptionsMask(36) || OptionsMask(35) != OptionsMask(36) {
		t.Errorf("1.34..1.36 masks differ: %x %x %x", OptionsMask(34), OptionsMask(35), OptionsMask(36))
	}
	if OptionsMask(36) == OptionsMask(37) || OptionsMask(33) == OptionsMask(34) {
		t.Errorf("masks of environments with different options are equal")
	}
	if OptionsMask(storedMinor) != OptionsMask(37) {
		t.Errorf("stored mask %x, want 1.37's %x", OptionsMask(storedMinor), OptionsMask(37))
	}
	if OptionsMask(38) == OptionsMask(37) {
		t.Errorf("1.38's mask (CIDR library version 1) equals 1.37's")
	}
}
