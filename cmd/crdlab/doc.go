// Command crdlab validates CustomResourceDefinitions and custom resources
// offline, exactly as kube-apiserver 1.37 would (see package
// github.com/crdlab/crdlab/engine).
//
//	crdlab validate [--crd FILE|DIR]... [-R] [-o FORMAT] [--summary] PATH...
//	crdlab lint [-R] [-o FORMAT] CRD...
//	crdlab cost [--crd FILE|DIR]... [-R] [-o text|json|yaml] CRD|DIR... [OBJECT|DIR...]
//	crdlab bench [--crd FILE|DIR]... [-R] [-o text|json|yaml|csv] CRD|DIR... OBJECT|DIR...
//	crdlab schema [--crd FILE|DIR]... [-R] [-o DIR] CRD|DIR...
//	crdlab upgrade [-R] [-o text|json|yaml] OLD_CRD NEW_CRD [STORED_OBJECT|DIR...]
//	crdlab test [--crd FILE|DIR]... [--run REGEX] [-o text|json] [--junit FILE] PATH...
//	crdlab apply --crd CRD [--stored OBJECT] [--manager NAME [--force] [--subresource status]] [-o text|json|yaml] OBJECT|STEPS
//	crdlab conversion-review --crd CRD [-o text|json] [--objects] [--list] REQUEST [RESPONSE]
//	crdlab lsp [--stdio] [--crd FILE|DIR]... [--kube-version 1.N]
//	crdlab help [COMMAND]
//	crdlab version
//
// Inputs are YAML or JSON files, directories (their *.yaml, *.yml and
// *.json files; -R for subdirectories) or "-" for stdin (once);
// multi-document YAML and kind: List are expanded. validate finds each
// object's CRD by apiVersion and kind among the --crd inputs and the CRDs
// of the inputs; objects of other kinds are skipped with a reason. FORMAT
// is text, json, jsonl, junit, tap, github or yaml. Exit status: 0 valid,
//
// # How it is built
//
// Every command reads its inputs through internal/cli/inputs: files,
// directories and "-" (catalog.Reader), documents split as kubectl does,
// and for the commands that take manifests from directories
// Reader.ReadManifests, which skips a directory's documents that are not
// Kubernetes objects with the reason validate gives them. validate scans
// its inputs first (Reader.Scan), compiles every CRD into the catalogue
// (Catalog.AddAll), then Catalog.StreamInputs reads again, parses each
// object once and validates it on parallel workers, giving the entries in
// input order as internal/cli/report writes them (one report.Writer per
// format, each message rendered only as it is written). The admission
// chain runs around the schema validation through catalog.Options (Mutate:
// mutating.go, webhookanswers.go; Admit: admission.go; policycreate.go,
// typecheck.go for lint --policy).
//
// Each command's work is one function type in runtimes.go with a native
// implementation and a --runtime wasm one calling the module's op through
// bindings/wasm (wasmruntime.go, wasmsuites.go); everything around it is
// shared, so TestRuntimeWasmMatchesNative compares the two byte for byte.
//
// --kube-version with a range or a list (matrix.go) runs the command once
// per release, oldest first, in one process: each run is the command's own
// run function with its release and output forced through command.step,
// stdin read once and replayed (sharedInput); then validate and lint are
// regrouped per entry of their wire.RunReport (text: grouped by identical
// text), the others as whole outputs, and -o json is the matrixReport
// envelope around each run's JSON. The runs share their compile work
// through one engine.CompileShare (see package engine).
//
// # Adding a command
//
//  1. <command>.go: a *command (name, summary, usage, description with
//     examples, spf13/pflag flags) and its run function, listed in the
//     command table (commands). Inputs through internal/cli/inputs
//     (Reader.ReadManifests for manifests from directories; "-" read once),
//     output -o text|json|yaml, exit 0, 1 invalid, 2 usage or unreadable
//     input with file:line.
//  2. If the work can run in the module: a function type in runtimes.go, the
//     native implementation, the wasm one in wasmruntime.go (an ABI op
//     first: package guest/internal/abi says how).
//  3. Tests: <command>_test.go; its help as a golden file through
//     main_test.go's table (testdata/<command>-help.golden, as apply does;
//     older commands keep theirs in testdata/ported/ and testdata/help-*;
//     rewrite with go test ./cmd/crdlab -run 'TestCLI$' -update); the
//     directory behaviour (dirinputs_test.go).
//  4. docs/cli.md and the page of its job (linked from docs/index.md);
//     every code sample there runs in TestDocsSamplesRun (docs_test.go).
package main
