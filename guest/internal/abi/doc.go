// Package abi is the transport-independent core of crdlab's WebAssembly
// module: it takes one JSON request and returns one JSON response
// {"ok": true, "result": ...} or {"ok": false, "error": {...}}. The wasip1
// reactor (guest/wasip1) and any other host glue only move bytes in and out.
// The request, response and result types, the op names, the error codes and
// the ABI version are those of package wire.
//
// A panic anywhere below Handle is recovered and returned as an error
// response, so a host never sees a trap for bad input.
//
// # Ops
//
// The ops are the rows of wire.Ops; Server.dispatch (abi.go) has one case
// per op. A CRD is a handle; the ops that compile one from text take the
// request's kubeVersion (kubeVersionOf, with kubeversion.Parse's message),
// and the handle keeps its release.
//
// # Files
//
//   - abi.go: Server.Handle, the envelope, Server.dispatch, the engine's ops
//     (version, compile, lint, validate, validateAll, free) and cost.
//   - update.go: compile and lint with an old CRD (a CRD update).
//   - upgrade.go: upgrade (package upgrade).
//   - suites.go: test (package crdtest: suites from files held in memory,
//     crdtest.RunFiles).
//   - jsonschema.go: schema (package jsonschema).
//   - bench.go: bench (package cost).
//   - conversion.go: conversionReview (package conversion).
//   - complete.go: complete (internal/celcomplete: the playground's CEL
//     completion).
//   - admit.go: admit (package admission: the admission chain, mutating
//     policies and webhook answers, then validation, then validating
//     policies).
//   - apply.go: apply (package apply: server-side apply steps).
//   - deadline.go: a context deadline read from the clock (the
//     single-threaded runtime fires no timer while the engine runs).
//
// # Adding an op
//
// The files in order; the tests named fail until the next step is done. A
// new op leaves wire.ABIVersion as it is; only a change that breaks an
// existing op or the envelope bumps it (and ABI_VERSION in bindings/js).
//
//  1. Package wire: the Op constant, the request type and its members in the
//     Request union, the result type (in wire unless it is another
//     package's, as cost.Report), and the op's row in wire.Ops. wire's
//     js_test.go fails until the JavaScript side declares it.
//  2. This package: a case in Server.dispatch calling a handler in a file
//     named after the op; its tests and TestEveryOpOfTheTableIsDispatched;
//     the unknown-op output of example_test.go.
//  3. bindings/wasm: the Runtime method (or the CRD's, if it takes a
//     handle), an example and a parity test against the native package.
//  4. bindings/js: src/index.js (the op name and the method), src/index.d.ts
//     (the op, the result interfaces, the method), a test in test/.
//  5. cmd/crdlab: if a command runs the op, its --runtime wasm function in
//     wasmruntime.go (the function type in runtimes.go).
//  6. guest/ABI.md (the op, its request and result), and wasm.mk's
//     WASM_MAX_BROTLI if the module grows (say by how much and why).
package abi
