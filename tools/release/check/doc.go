// Package check holds the tests of a release snapshot: what `make
// release-snapshot` wrote into dist/, checked file by file and run where this
// machine can run it. `make release-check` runs them with CRDLAB_DIST set;
// without it they skip (and fail when CI is set, so that CI cannot pass
// without having built the release).
package check
