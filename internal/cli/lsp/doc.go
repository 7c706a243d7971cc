// Package lsp is crdlab's language server (`crdlab lsp`): the API
// server's verdict on the CRDs and custom resources of a workspace as
// diagnostics, CEL completion from the schema, hovers with types,
// constraints and rule costs, and the cost advisor's bounds as quick
// fixes. It speaks the Language Server Protocol over any
// io.ReadWriteCloser (stdio for the CLI) through
// github.com/sourcegraph/jsonrpc2. cmd/crdlab's lsp.go runs it on stdio;
// docs/editors.md is the user's page, editors/ the VS Code extension and
// the Neovim configuration the end-to-end test runs.
//
// # Files
//
//   - server.go: the session: the jsonrpc2 connection, dispatch, lifecycle,
//     open documents, debounced checks in goroutines (a generation counter,
//     cancelled by the next change), hover and code actions answered off
//     the message loop.
//   - stream.go: the stdio stream; an unreadable message body is answered
//     with a JSON-RPC error instead of ending the session.
//   - protocol.go: the LSP 3.17 types used (a hand-written subset).
//   - text.go: UTF-16 positions, incremental edits.
//   - analyze.go: a check (analyze): documents split (internal/yamldoc),
//     CRDs compiled (analysis.checkCRD: engine.CompileWithOptions,
//     positions from CRD.Positions), custom resources validated
//     (CRD.Validate, Result.Positions), CEL compile errors placed inside
//     the rule's text (analysis.celErrorRange, through
//     internal/cel's CompileErrorOffset); every diagnostic goes through
//     analysis.add.
//   - parsed.go: an open document's text split and parsed without
//     compiling (cached per version): what completion, hover and code
//     actions read.
//   - policy.go: admission policies: decoding and compile errors
//     (internal/admission's CompileErrors) inside each expression's text
//     (analysis.expressionRange), and the type-checking warnings
//     (internal/admission's TypeCheck, after the document's CRDs compile,
//     with the open documents' and the index's CRDs of the rules' groups:
//     Server.groupCRDs, crdIndex.group).
//   - yamlnav.go, navigate.go: yaml.v3 node trees (rules, keys, scalar rune ↔
//     source position), schema nodes by path, cost report paths.
//   - features.go, actions.go: completion (internal/celcomplete in rules,
//     indentation paths in custom resources), hover (types, constraints,
//     the cost report of a rule), quick fixes (cost suggestions as a
//     WorkspaceEdit).
//   - index.go: the workspace's CRDs by group and kind, scanned lazily and
//     bounded.
//   - markers.go: Go files, with the markersCommand option: crdlab-markers
//     (the markers/ module) run on the package directory on open and save
//     (debounced, cancelled by the next save, bounded), its -o json
//     diagnostics published on the package's Go files and cleared when
//     gone; the main module never imports controller-tools.
//
// The release of the checks is --kube-version or the kubeVersion option
// (engine.CompileOptions.KubeVersion, in analyze.go and the index).
//
// # Adding a diagnostic
//
// Compute it in analyze.go (analysis.checkCRD for a CRD, the
// custom-resource branch of analyze for an object, policy.go for a policy)
// and emit it with analysis.add(range, severity, message), placed by
// analysis.located or analysis.at (YAML positions) or, inside a CEL string,
// analysis.celErrorRange (CRD rules) or analysis.expressionRange
// (policies). Server.check runs analyze off the message loop and publishes
// with Server.notify. Test it through the protocol in lsp_test.go or
// features_test.go (waitPublish), and add the input's hostile form to
// hostile_test.go.
package lsp
