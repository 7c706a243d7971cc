// Command etcd is etcd's server (go.etcd.io/etcd/server/v3/etcdmain, the
// version k8s.io/kubernetes v1.37.2 requires) built from this module, so that
// `make envtest-bench` has the etcd that envtest's setup-envtest would
// download.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
