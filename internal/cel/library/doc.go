// Package library reimplements, on cel-go v0.29.2 and without any k8s.io
// dependency, the Kubernetes CEL extension libraries of
// k8s.io/apiserver/pkg/cel/library (v0.37.2) and the base environment that
// k8s.io/apiserver/pkg/cel/environment builds for them.
//
// Mirrored upstream behaviour:
//   - lists (kubernetes.lists, version 0 at compatibility 1.36; version 1 adds includes),
//     regex (find, findAll), urls, quantity, net.IP, net.CIDR, format and semver
//     libraries: same function names, overload IDs, type names, result values and
//     error messages;
//   - the authz and authzSelectors declarations (their types can never be
//     constructed in a CRD environment, but the declarations change which
//     compile errors are reported, so they are present);
//   - the cost estimator of library/cost.go: CostEstimator implements both
//     checker.CostEstimator (static) and interpreter.ActualCostEstimator (runtime)
//     with the same numbers;
//   - environment/base.go: EnvOptions and ProgramOptions return the options that
//     MustBaseEnvSet(DefaultCompatibilityVersion()) adds in apiserver v0.37.2
//     (compatibility version 1.36), in upstream's order.
//
// The quantity semantics (k8s.io/apimachinery/pkg/api/resource: parsing, int64
// and decimal representations, arithmetic, comparison, canonical string form),
// blang/semver parsing and comparison, and kube-openapi's strfmt validators
// (uuid, byte, date, datetime) are reimplemented here as well; the name and
// label validators of the format library come from internal/names.
//
// # Adding a function
//
//  1. Upstream: the function in k8s.io/apiserver/pkg/cel/library/<lib>.go,
//     its estimator in cost.go, the compatibility version that adds it in
//     pkg/cel/environment/base.go.
//  2. Here: the declaration and implementation in <lib>.go, its estimate in
//     cost.go, a pre-allocation guard in guard.go if it can allocate in
//     proportion to its input (a deliberate difference, docs/limits.md),
//     and the library's entry in env.go at the version upstream adds it.
//  3. Tests: the golden tests (golden_test.go, testdata/), then the
//     differential conformance/cellib_test.go (results and costs against
//     upstream's library).
//  4. The completion's function table (internal/celcomplete's methods.go:
//     the language server's and the playground's), and docs/limits.md if it
//     has a guard.
package library
