package main

import (
	"fmt"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/crdlab/crdlab/engine"
)

// kubeVersionFlag is --kube-version: the Kubernetes release whose API
// server gives the verdict, or several (a matrix: see matrix.go).
type kubeVersionFlag struct {
	version string
	// asked is the flag as given.
	asked string
	// versions are the releases selected, newest first (one unless a
	// matrix was asked for).
	versions []string
	// share is the compile work shared with the other releases of a
	// matrix (nil outside one).
	share *engine.CompileShare
}

func (k *kubeVersionFlag) declare(fs *flag.FlagSet) {
	fs.StringVar(&k.version, "kube-version", engine.DefaultKubeVersion,
		"the Kubernetes release whose API server is reproduced ("+strings.Join(engine.SupportedKubeVersions(), ", ")+
			"), or several: a range 1.35-1.37, a list 1.35,1.37, or supported (one verdict per release)")
}

// check validates the flag: supported releases only. The wasm runtime
// takes the same releases (the module's requests carry kubeVersion); a
// matrix runs the module once per release, without a shared compile.
func (k *kubeVersionFlag) check() error {
	rs, err := engine.ParseKubeVersions(k.version)
	if err != nil {
		return fmt.Errorf("--kube-version: %v", err)
	}
	k.asked, k.versions, k.version = k.version, rs, rs[0]
	return nil
}
