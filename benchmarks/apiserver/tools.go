//go:build tools

// Package apiserver pins the binaries `make envtest-bench` builds: kube-apiserver
// from k8s.io/kubernetes v1.37.2 (its staging modules at v0.37.2, see the
// replace block of go.mod) and etcd (cmd/etcd).
package apiserver

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
)
