# wasm.mk — crdlab's WebAssembly module, its bindings and the playground.
# Included by the top-level Makefile; standalone: make -f wasm.mk wasm
#
#   make wasm             build/crdlab.wasm (GOOS=wasip1 reactor), copied to
#                         bindings/js/crdlab.wasm, and build/playground/
#   make wasm-test        Go bindings tests (parity, hostile inputs) and the
#                         JS tests in Node and headless Chromium
#   make wasm-size        module size raw / gzip / brotli and the biggest packages
#   make wasm-deadcode    fails when the linker keeps every exported method
#                         (a reachable reflect Method/MethodByName lookup)
#   make wasm-budget      fails when the module is over WASM_MAX_BROTLI bytes
#                         brotli (3.5 MB: issue 4's 3 MB target + x509 + the
#                         upgrade, test, schema and bench ops, RATIONALE.md)
#   make wasm-bench       native vs wazero vs Node benchmarks (see benchmarks/README.md)
#   make wasm-clean
#
# One module serves every host: a GOOS=wasip1 reactor runs in wazero, in any
# WASI host and, through the small WASI shim of bindings/js, in Node and
# browsers. There is no GOOS=js build (see guest/ABI.md, "Why no GOOS=js").

GO          ?= go
NPM         ?= npm
NODE        ?= node
WASM_OUT    ?= build/crdlab.wasm
WASM_PLAY   ?= build/playground
# Inlining is switched off (-l) in the packages that work when a CRD is
# compiled rather than when an object is validated: protobuf (descriptor
# set-up), the CEL parser, checker and environment, antlr, golang.org/x/text
# (only string.format), goyaml.v3 and engine/crd (CRD decoding and
# validation). Inline trees and the line tables of inlined calls are the
# least compressible bytes of the module: this takes 0.23 MB off the brotli
# size (3.20 -> 2.97 MB with protobuf >= v1.36.12-0.20260120151049) with no
# measurable cost per validation in Node. Keep cel-go's common/decls and
# common/stdlib inlined: they dispatch every CEL call at run time (with them
# in the list, Prometheus validation was 2x slower for 0.04 MB). `make
# WASM_NOINLINE=` builds with Go's default inlining everywhere; `all=-l`
# would save 0.56 MB but makes validation ~2x slower.
WASM_NOINLINE ?= google.golang.org/protobuf/... cel.dev/... github.com/antlr4-go/... \
                 golang.org/x/text/... go.yaml.in/yaml/v3 \
                 github.com/google/cel-go/parser/... github.com/google/cel-go/checker/... \
                 github.com/google/cel-go/cel github.com/google/cel-go/ext \
                 github.com/google/cel-go/common/ast github.com/google/cel-go/common/env \
                 github.com/google/cel-go/common/types/pb github.com/crdlab/crdlab/engine/crd/... \
                 github.com/crdlab/crdlab/internal/crdvalidation \
                 github.com/crdlab/crdlab/crdtest github.com/crdlab/crdlab/upgrade github.com/crdlab/crdlab/jsonschema \
                 sigs.k8s.io/structured-merge-diff/... github.com/json-iterator/go github.com/modern-go/... \
                 github.com/crdlab/crdlab/apply github.com/crdlab/crdlab/internal/ssa \
                 github.com/crdlab/crdlab/internal/celcomplete github.com/crdlab/crdlab/guest/internal/abi
WASM_GCFLAGS ?= $(foreach p,$(WASM_NOINLINE),-gcflags=$(p)=-l)
# The engine version the module reports (the ABI "version" op; the
# playground shows it): as the Makefile stamps the crdlab command.
WASM_VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
WASM_FLAGS  ?= -trimpath -ldflags='-s -w -X github.com/crdlab/crdlab/engine.Version=$(WASM_VERSION)' -buildmode=c-shared $(WASM_GCFLAGS)
# 3.3 MB since CRD update validation: upstream checks a conversion webhook's
# caBundle with crypto/x509 (webhook.ValidateCABundle), which links the
# elliptic-curve code (+0.28 MB brotli). Kept in the module so that the
# browser and wazero give the same verdicts as the CLI (RATIONALE.md).
# 3.45 MB since the upgrade and test ops: 3,268,171 -> 3,428,840 bytes
# (+18 KB the upgrade report, +143 KB the test runner: package crdtest and
# the YAML encoder of its failure diffs; crdtest and upgrade built with -l).
# 3.5 MB since the schema and bench ops on top of them: 3,429,483 ->
# 3,463,669 bytes (+34 KB: package jsonschema, built with -l, and
# cost.Benchmark; alone over the pre-upgrade module they measured +41 KB,
# 3,268,141 -> 3,309,405), built with and without them (RATIONALE.md).
# 3.55 MB since the conversionReview op: 3,471,435 -> 3,511,655 bytes
# (+40 KB: package conversion, the API server's checks of a webhook's
# answer; built with -l it saves 3 KB, not worth the slower checks).
# The complete op (internal/celcomplete) adds 5.5 KB: 3,522,477 ->
# 3,527,933 bytes, within the budget (RATIONALE.md).
# 3.62 MB since the admit op (the playground's Policy mode): 3,548,656 ->
# 3,613,789 bytes (+65 KB: internal/admission, its CEL environments and the
# policy types; the CEL libraries were already linked).
# 3.85 MB since server-side apply (crdtest's apply cases, the apply op):
# structured-merge-diff and the json-iterator and reflect2 it decodes field
# sets with, packages apply and internal/ssa: 3,519,396 -> 3,878,098 bytes
# (+359 KB) with default inlining, 3,817,262 (+298 KB) with those packages
# built with -l (in WASM_NOINLINE above); with the apply op, 3,801,623
# (+282 KB; the figures move by ~15 KB with the version stamp and layout).
# RATIONALE.md "Server-side apply".
# With the three (complete, admit, apply) merged: 3,897,178 bytes; the
# budget keeps the ~15 KB the version stamp and layout move it by, and a
# margin: 3.95 MB.
# The kubeVersion member (every release's verdicts through the module, the
# releases in the version answer): +866 bytes brotli, 3,898,239 ->
# 3,899,105 (the releases' code was already linked).
# 4.0 MB since crdtest's admission cases (the test op runs them as the CLI
# does): 3,897,684 -> 3,956,717 bytes (+59 KB: +18 KB validating admission
# in the runner, +41 KB mutating policies, evanphx/json-patch and the
# mutation target; -l on internal/admission made it larger). RATIONALE.md
# "Admission cases in crdlab test".
# The Policy tab's completion (complete's policy mode: celcomplete's
# policy environment, type checking's kind choice) and admit's mutating
# policies (the mutator was linked by the test op): 3,969,133 -> 4,012,532
# bytes (+43 KB, far more than the +60 KB raw code suggests: layout); with
# internal/celcomplete and guest/internal/abi built with -l (completion and
# the ops' glue, no validation loop), 3,996,690 (+27.5 KB). RATIONALE.md
# "Policy completion and mutating admit".
# 4.1 MB since Kubernetes 1.31-1.33 (merged with the above): 4,055,710
# bytes. The releases' own cost is +25 KB (3,973,447 -> 3,998,390 alone:
# 14 switches, the Go-syntax value printer of 1.33 and older with the
# mirrors of upstream's internal apiextensions types, string.format's %e
# of 1.32 and older); the two together cost 30 KB more than each alone
# (layout, as above). The module serves every release the CLI does
# (TestParityAtEveryRelease); leaving 1.31-1.33 out of it would make the
# playground's Kubernetes menu and --engine wasm differ from the CLI.
# RATIONALE.md "The WebAssembly module's size budget".
WASM_MAX_BROTLI ?= 4100000
# What the module's build reads: the Go and embedded files of every package
# of this module that `go list -deps` finds linked into it for wasip1/wasm,
# go.mod and go.sum (no hand list: an edit in any linked package, conversion/
# included, rebuilds it; wasm-deps-check proves it). Expanded only when
# $(WASM_OUT) is considered (secondary expansion), so `make help` runs no go list.
WASM_SRCS    = $(shell GOOS=wasip1 GOARCH=wasm $(GO) list -deps -f '{{if and .Module .Module.Main}}{{$$d := .Dir}}{{range .GoFiles}}{{$$d}}/{{.}} {{end}}{{range .EmbedFiles}}{{$$d}}/{{.}} {{end}}{{end}}' ./guest/wasip1) go.mod go.sum

.PHONY: wasm-deps-check wasm wasm-module wasm-playground wasm-test wasm-test-go wasm-test-js wasm-size wasm-deadcode wasm-budget wasm-bench wasm-clean

wasm: wasm-module wasm-playground ## build/crdlab.wasm, bindings/js/crdlab.wasm and build/playground

wasm-module: $(WASM_OUT) bindings/js/crdlab.wasm ## build/crdlab.wasm and its copy in bindings/js

.SECONDEXPANSION:
$(WASM_OUT): $$(WASM_SRCS) wasm.mk
	@mkdir -p $(dir $@)
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_FLAGS) -o $@ ./guest/wasip1

bindings/js/crdlab.wasm: $(WASM_OUT)
	cp $< $@

# The playground is a static site: playground/build.mjs bundles its sources,
# CodeMirror and bindings/js with esbuild (playground/package.json, installed
# by `make setup`) next to the page, its service worker and the module.
wasm-playground: $(WASM_OUT) ## the playground static site in build/playground
	@test -d playground/node_modules || (cd playground && $(NPM) ci --no-audit --no-fund)
	cd playground && $(NODE) build.mjs --out $(abspath $(WASM_PLAY)) --wasm $(abspath $(WASM_OUT))

wasm-test: wasm-test-go wasm-test-js ## the Go bindings tests and the JS tests (Node, Chromium)

wasm-test-go: $(WASM_OUT) ## the Go bindings tests (parity, hostile inputs) against build/crdlab.wasm
	CRDLAB_WASM=$(abspath $(WASM_OUT)) $(GO) test ./guest/... ./bindings/wasm/...

wasm-test-js: wasm ## the JS bindings in Node and Chromium, the playground end to end
	cd playground && $(NPM) test
	cd bindings/js && $(NPM) ci --no-audit --no-fund && $(NPM) test && $(NPM) run test:browser && $(NPM) run test:playground

wasm-size: $(WASM_OUT) ## module size raw / gzip / brotli and the biggest packages
	$(NODE) bindings/js/bench/size.js $(WASM_OUT)
	GOOS=wasip1 GOARCH=wasm $(GO) build -trimpath -buildmode=c-shared $(WASM_GCFLAGS) -o build/crdlab.syms.wasm ./guest/wasip1
	$(GO) run ./guest/internal/symsize build/crdlab.syms.wasm

# The linker's <ReflectMethod> mark on any reachable function disables the
# pruning of exported methods (+5.0 MB raw, +0.47 MB brotli when it happened:
# protobuf v1.36.10's descfmt calls MethodByName("Methods"), which with Go
# 1.26 keeps reflect's Methods iterators, whose closures call Method(i)).
# `go build -ldflags=-dumpdep` prints "from -> to" edges: walk them back
# from the marked symbol to find who reaches it.
wasm-deadcode: ## fail when the linker keeps every exported method
	@mkdir -p build
	@GOOS=wasip1 GOARCH=wasm $(GO) build -trimpath -buildmode=c-shared $(WASM_GCFLAGS) -ldflags=-dumpdep -o /dev/null ./guest/wasip1 2>build/crdlab.deps.txt || { cat build/crdlab.deps.txt; exit 1; }
	@if grep '<ReflectMethod>' build/crdlab.deps.txt; then \
		echo "wasm-deadcode: reflect method lookup reachable (see build/crdlab.deps.txt)"; exit 1; \
	else echo "wasm-deadcode: ok, exported methods are pruned"; fi

# With the module up to date, `make -n -W FILE` (as if FILE had just been
# edited) must rebuild it for one file of every package it links, and must
# not for a file it does not link (cmd/crdlab/main.go).
wasm-deps-check: $(WASM_OUT) ## check that an edit to any file the module links rebuilds it (make -n -W)
	@$(MAKE) -s -q $(WASM_OUT) || { echo "wasm-deps-check: $(WASM_OUT) is not up to date"; exit 1; }
	@n=0; for f in $$(GOOS=wasip1 GOARCH=wasm $(GO) list -deps -f '{{if and .Module .Module.Main}}{{.Dir}}/{{index .GoFiles 0}}{{end}}' ./guest/wasip1); do \
		$(MAKE) -n -W $$f $(WASM_OUT) | grep -q 'GOOS=wasip1' || { echo "wasm-deps-check: editing $$f does not rebuild $(WASM_OUT)"; exit 1; }; n=$$((n+1)); \
	done; \
	if $(MAKE) -n -W cmd/crdlab/main.go $(WASM_OUT) | grep -q 'GOOS=wasip1'; then echo "wasm-deps-check: cmd/crdlab/main.go rebuilds $(WASM_OUT)"; exit 1; fi; \
	echo "wasm-deps-check: an edit in any of the $$n linked packages rebuilds $(WASM_OUT)"

wasm-budget: $(WASM_OUT) ## fail when the module is over WASM_MAX_BROTLI bytes brotli
	$(NODE) bindings/js/bench/size.js $(WASM_OUT) --max-brotli $(WASM_MAX_BROTLI)

wasm-bench: wasm ## native vs wazero vs Node benchmarks
	CRDLAB_WASM=$(abspath $(WASM_OUT)) $(GO) test ./bindings/wasm/ -run '^$$' -bench . -benchmem -count 1
	cd bindings/js && $(NODE) bench/bench.js

wasm-clean: ## remove the module, its copies and the playground build
	rm -rf $(WASM_OUT) build/crdlab.syms.wasm build/crdlab.deps.txt $(WASM_PLAY) bindings/js/crdlab.wasm
