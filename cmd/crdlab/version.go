package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// buildVersion is what `crdlab version` reports: the version stamped at
// link time (engine.Version, set by make build and releases), else the
// module version the go command recorded (`go install …@v1.2.3`), the
// commit and whether the tree was modified (recorded by go build in a git
// checkout), and the Go toolchain.
// commit is the revision stamped at link time by release builds
// (-X main.commit=…, .goreleaser.yaml), for builds without the go command's
// VCS stamping (GoReleaser's, or GOFLAGS=-buildvcs=false).
var commit string

type buildVersion struct {
	Version, Commit, Go string
	Modified            bool
}

func readBuildVersion() buildVersion {
	v := buildVersion{Version: engine.Version, Commit: "unknown", Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	if commit != "" {
		v.Commit = commit
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if v.Version == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// printVersion writes crdlab version: the build, the releases
// --kube-version takes, and the release a run here judges by without the
// flag (kubeVersion: the working directory's .crdlab.yaml's, with its
// path and line, else the default). A .crdlab.yaml that does not decode
// is the error.
func printVersion(w io.Writer) error {
	v := readBuildVersion()
	kube, from, err := configKubeVersion()
	if err != nil {
		return err
	}
	if kube == "" {
		kube, from = engine.DefaultKubeVersion, "default"
	}
	fmt.Fprintf(w, "crdlab %s (Kubernetes 1.37, k8s.io/apiextensions-apiserver v0.37.2; --kube-version %s)\n", v.Version, kubeversion.SupportedList())
	commit := v.Commit
	if v.Modified {
		commit += " (modified)"
	}
	fmt.Fprintf(w, "commit: %s\ngo: %s\nkubeVersion: %s (%s)\n", commit, v.Go, kube, from)
	return nil
}
