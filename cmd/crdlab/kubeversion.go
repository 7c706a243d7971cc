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
	// from says where the release came from: "--kube-version", the
	// .crdlab.yaml that gave it ("path:line", config.go) or "default".
	from string
	// fs is the flag set declaring it (was the flag given?).
	fs *flag.FlagSet
}

func (k *kubeVersionFlag) declare(fs *flag.FlagSet) {
	k.fs = fs
	fs.StringVar(&k.version, "kube-version", engine.DefaultKubeVersion,
		"the Kubernetes release whose API server is reproduced ("+strings.Join(engine.SupportedKubeVersions(), ", ")+
			"), or several: a range 1.35-1.37, a list 1.35,1.37, or supported (one verdict per release); without the flag, the kubeVersion of the .crdlab.yaml found upward from the working directory, else the default")
}

// check validates the flag: supported releases only. Without the flag,
// the release is the .crdlab.yaml's kubeVersion (config.go), else the
// default. The wasm runtime takes the same releases (the module's
// requests carry kubeVersion); a matrix runs the module once per release,
// without a shared compile.
func (k *kubeVersionFlag) check() error {
	k.from = "--kube-version"
	if k.fs == nil || !k.fs.Changed("kube-version") {
		v, from, err := configKubeVersion()
		if err != nil {
			return err
		}
		k.version, k.from = engine.DefaultKubeVersion, "default"
		if v != "" {
			k.version, k.from = v, from
		}
	}
	rs, err := engine.ParseKubeVersions(k.version)
	if err != nil {
		return fmt.Errorf("--kube-version: %v", err)
	}
	k.asked, k.versions, k.version = k.version, rs, rs[0]
	return nil
}

// single is the release a command's text names: "" within a matrix,
// whose output groups the releases with identical text and names them.
func (k *kubeVersionFlag) single(c *command) string {
	if c.step != nil {
		return ""
	}
	return k.version
}

// given reports whether the release was asked for, by the flag or by a
// .crdlab.yaml, rather than the default (after check).
func (k *kubeVersionFlag) given() bool { return k.from != "default" }
