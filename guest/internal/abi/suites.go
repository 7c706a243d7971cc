package abi

import (
	"fmt"
	"regexp"

	"github.com/crdlab/crdlab/crdtest"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/wire"
)

// testReport answers "test": crdtest.RunFiles on the request's files, the
// report of `crdlab test -o json`. Cases run one at a time (the module has
// one thread). The request's timeoutMs does not apply: each request a case
// sends is bounded by the engine's limits.
func testReport(r *wire.Request) (interface{}, *wire.Error) {
	if len(r.Files) == 0 {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: `"test" needs "files" (suite and CRD texts by path)`}
	}
	files := make(map[string][]byte, len(r.Files))
	for name, text := range r.Files {
		files[name] = []byte(text)
	}
	if e := kubeVersionOf(r); e != nil {
		return nil, e
	}
	if r.DefaultKubeVersion != "" {
		if _, err := kubeversion.Parse(r.DefaultKubeVersion); err != nil {
			return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf(`"defaultKubeVersion": %v`, err)}
		}
	}
	opts := crdtest.Options{CRDs: r.CRDs, Parallel: 1, KubeVersion: r.KubeVersion, DefaultKubeVersion: r.DefaultKubeVersion}
	if r.Run != "" {
		re, err := regexp.Compile(r.Run)
		if err != nil {
			return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf(`"run": %v`, err)}
		}
		opts.Run = re
	}
	paths := r.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	rep, err := crdtest.RunFiles(files, opts, paths...)
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeInvalid, Message: err.Error()}
	}
	return rep.Wire(), nil
}
