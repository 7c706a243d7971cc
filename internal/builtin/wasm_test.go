package builtin

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestWasmModuleDoesNotLinkBuiltins: the built-in API surface and
// strategies stay out of the WebAssembly module (its size budget is tight;
// built-in kinds are the CLI's for now).
func TestWasmModuleDoesNotLinkBuiltins(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs go list")
	}
	cmd := exec.Command("go", "list", "-deps", "../../guest/wasip1")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/crdlab/crdlab/internal/builtin") || strings.HasPrefix(pkg, "sigs.k8s.io/json") {
			t.Errorf("the wasm module links %s", pkg)
		}
	}
	if !strings.Contains(string(out), "github.com/crdlab/crdlab/engine\n") {
		t.Fatalf("go list -deps found no engine: %s", out)
	}
}
