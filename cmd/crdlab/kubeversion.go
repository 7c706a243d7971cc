package main

import (
	"fmt"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/crdlab/crdlab/engine"
)

// kubeVersionFlag is --kube-version: the Kubernetes release whose API
// server gives the verdict.
type kubeVersionFlag struct {
	version string
}

func (k *kubeVersionFlag) declare(fs *flag.FlagSet) {
	fs.StringVar(&k.version, "kube-version", engine.DefaultKubeVersion,
		"the Kubernetes release whose API server is reproduced: "+strings.Join(engine.SupportedKubeVersions(), ", "))
}

// check validates the flag: one supported release (the matrix forms, a
// range, a list or "supported", are not implemented yet), and only the
// default release with --engine wasm (the ABI has no release yet).
func (k *kubeVersionFlag) check(wasm bool) error {
	rs, err := engine.ParseKubeVersions(k.version)
	if err != nil {
		return fmt.Errorf("--kube-version: %v", err)
	}
	if len(rs) != 1 {
		return fmt.Errorf("--kube-version %s: give one release (several at once is not implemented yet); supported: %s", k.version, strings.Join(engine.SupportedKubeVersions(), ", "))
	}
	k.version = rs[0]
	if wasm && k.version != engine.DefaultKubeVersion {
		return fmt.Errorf("--kube-version %s needs --engine native (the wasm engine reproduces %s only)", k.version, engine.DefaultKubeVersion)
	}
	return nil
}
