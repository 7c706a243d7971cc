package conformance

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/internal/limits"
)

// TestRequestTimeoutIsTheAPIServers: crdlab's default per-object --timeout
// (limits.RequestTimeoutSeconds) is the request timeout k8s.io/apiserver's
// NewConfig gives an API server (the default of kube-apiserver's
// --request-timeout), read from the source of the version this module
// requires (importing k8s.io/apiserver/pkg/server would add its
// dependencies to the module for one constant).
func TestRequestTimeoutIsTheAPIServers(t *testing.T) {
	out, err := exec.Command(goCommand(), "list", "-m", "-f", "{{.Dir}}", "k8s.io/apiserver").Output()
	if err != nil {
		t.Fatalf("go list -m k8s.io/apiserver: %v", err)
	}
	src, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "pkg", "server", "config.go"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`\n\t\tRequestTimeout:\s+time\.Duration\((\d+)\) \* time\.Second,`).FindSubmatch(src)
	if m == nil {
		t.Fatal("k8s.io/apiserver/pkg/server/config.go: NewConfig's RequestTimeout not found")
	}
	up, _ := strconv.Atoi(string(m[1]))
	if up != limits.RequestTimeoutSeconds {
		t.Errorf("limits.RequestTimeoutSeconds = %d, the API server's request timeout is %ds", limits.RequestTimeoutSeconds, up)
	}
}
