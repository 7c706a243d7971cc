// Package kubeversion is the single table of the behaviour that differs
// between the Kubernetes releases crdlab reproduces.
//
// A Release is a minor version of Kubernetes (1.31 … 1.37). Each behaviour
// change is one Change, a row of the changes table naming the upstream
// change and the release it arrived in; code asks
// `rel.Has(kubeversion.X)` at the one place the behaviour lives. The zero
// Release is the newest release (Newest): it has every change, so the
// default costs one comparison and no allocation. Supported lists the
// releases --kube-version accepts: those green on their differential
// suite. Oldest is the oldest release with an oracle module, not the oldest
// supported one.
//
// A Change only moves forward: Has means "from this release on". A
// behaviour confined to some releases (say 1.34 only) is two Changes, the
// one that brought it and the one that took it away (since 1.35), asked as
// `rel.Has(A) && !rel.Has(B)`.
//
// The engine keeps one Release per compile and hands it down (see package
// engine); the CEL library table (internal/cel/library's env.go) takes its
// introduced and removed versions from upstream's
// k8s.io/apiserver/pkg/cel/environment base.go instead of this table. The
// module and its hosts take the release too (the ABI's kubeVersion member,
// bindings/wasm's options, bindings/js, crdlab --runtime wasm, the
// playground): a new release needs nothing there.
//
// # Adding a release (1.38)
//
//  1. cd conformance/versions && ./gen.sh 38 v0.38.N: the oracle module
//     (package conformance/versions/oracle says how the modules work). If
//     1.38 changes an API the oracle calls, add an adapter file pair in
//     conformance/upstream and tag the older releases (v1.NN/tags).
//  2. Here: Newest = 38; for every behaviour 1.38 changes, a Change with
//     its upstream reference at the top of the const block (newest release
//     first), since[...] = 38, and the rel.Has at the one place the
//     behaviour lives. CEL library entries that name 1.38 already need no
//     change.
//  3. make versions-report shows which cases now differ between 1.37 and
//     1.38: explain each in conformance/versions/reasons.yaml; add cases
//     for the new behaviour to conformance/testdata/cases/18_releases.yaml.
//  4. Add 38 to supported, run make conformance (1.38 in process:
//     conformance/go.mod and benchmarks/go.mod move to the v0.38.N
//     k8s.io modules and the main module's cel-go, structured-merge-diff
//     and x/text to what 1.38 resolves, which conformance's deps_test.go
//     checks) and make conformance-versions (the older releases against
//     their oracles) until green. No Makefile change.
//  5. A release change that alters decoding or the structural schema must
//     enter the key of what engine.CompileShare keeps for it (see package
//     engine); CEL environment and DeclType changes need nothing more.
//  6. User-facing: docs/kube-versions.md, crdlab version's line
//     (cmd/crdlab's version.go), the README's first paragraph.
package kubeversion
