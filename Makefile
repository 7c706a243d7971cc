# crdlab — offline kube-apiserver 1.37 CRD and custom resource validation.
#
# `make` alone prints `make help`: every target of this Makefile, bench.mk
# and wasm.mk with one line (the `## ` text after the target's name; `make
# check` fails on a .PHONY target without one). Debian packages are
# installed by `make setup` only, which `make test` runs first.

.DEFAULT_GOAL := help

GO       ?= go
GOFMT    ?= $(shell $(GO) env GOROOT)/bin/gofmt
NPM      ?= npm
CHROMIUM ?= /usr/bin/chromium
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
MODULES  := . $(wildcard conformance benchmarks tools markers)
# the modules that build upstream Kubernetes code (vetted by vet-oracles;
# markers/ builds controller-tools and k8s.io/apiextensions-apiserver)
ORACLEMODS := $(wildcard conformance benchmarks markers)
# the Go toolchains the oracle modules' go.mod files name (1.38's modules
# need Go 1.27): make setup fetches them (as modules, into the module
# cache), conformance.BuildOracle sets GOTOOLCHAIN from the same line.
ORACLE_TOOLCHAINS := $(sort $(shell sed -n 's/^toolchain //p' conformance/versions/v1.*/go.mod 2>/dev/null))
# modules that only pin tools (tool directives, no packages)
TOOLMODS := $(wildcard benchmarks/tools benchmarks/tools/kubectl-validate)
# other modules make check keeps tidy (the per-release oracles are
# generated, tidied by conformance/versions/gen.sh)
TIDYMODS := $(wildcard benchmarks/apiserver tools/release conformance/versions/shim)

.PHONY: help race setup build markers markers-test check check-help deadcode test generated-check vet-oracles conformance conformance-versions versions-report corpus-matrix new-release clean

help: ## list every target with one line (the default goal)
	@awk -F':.*## ' '/^[a-zA-Z0-9_.-]+:.*## /{printf "  make %-18s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# Every .PHONY target of the Makefile and the files it includes has its
# `## ` line, so `make help` lists it.
check-help: ## fail when a .PHONY target has no help line (make help)
	@missing=$$(for t in $$(sed -n 's/^\.PHONY://p' $(MAKEFILE_LIST)); do \
		grep -qE "^$$t:.*## " $(MAKEFILE_LIST) || echo "$$t"; done); \
	if [ -n "$$missing" ]; then echo "targets without a '## ' line for make help:" $$missing; exit 1; fi

setup: ## Go modules of every module, the oracles' Go toolchains, npm ci (bindings/js, playground), Debian packages (chromium, neovim, podman, runc) if missing
	@for m in $(MODULES) $(TOOLMODS); do \
		if [ -f $$m/go.mod ]; then echo "go mod download ($$m)"; (cd $$m && $(GO) mod download) || exit 1; fi; \
	done
	@for t in $(ORACLE_TOOLCHAINS); do \
		echo "Go toolchain $$t (oracle modules)"; GOTOOLCHAIN=$$t $(GO) version >/dev/null || exit 1; \
	done
	cd bindings/js && $(NPM) ci --no-audit --no-fund
	cd playground && $(NPM) ci --no-audit --no-fund
	@command -v $(CHROMIUM) >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "installing Debian's chromium for the browser tests"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else echo "note: the browser tests need Chromium at $(CHROMIUM) (Debian: apt-get install chromium)"; fi; }
	@command -v podman >/dev/null 2>&1 && command -v runc >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "installing Debian's podman and runc for make release-check"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends podman runc >/dev/null; \
		else echo "note: make release-check runs the image with podman and runc (Debian: apt-get install podman runc)"; fi; }
	@command -v nvim >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "installing Debian's neovim for the crdlab lsp end-to-end test"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim >/dev/null; \
		else echo "note: the crdlab lsp end-to-end test needs nvim (Debian: apt-get install neovim)"; fi; }

build: ## build bin/crdlab
	@mkdir -p bin
	$(GO) build -trimpath -buildvcs=auto -ldflags "-X github.com/crdlab/crdlab/engine.Version=$(VERSION)" -o bin/crdlab ./cmd/crdlab

# crdlab-markers (markers/, its own module: controller-tools and k8s.io/*
# stay out of the main module): diagnostics on kubebuilder markers in Go,
# for the CLI and crdlab lsp's markersCommand option (docs/editors.md).
markers: ## build bin/crdlab-markers (the markers/ module: kubebuilder markers in Go source checked as the API server would)
	@mkdir -p bin
	cd markers && $(GO) build -trimpath -o ../bin/crdlab-markers ./cmd/crdlab-markers

markers-test: ## go vet and go test of the markers/ module (crdlab-markers; compiles controller-tools and k8s.io, not part of make test)
	cd markers && $(GO) vet ./... && $(GO) test -count=1 ./...

# The repository's hygiene, for every Go module (the main one, conformance/,
# benchmarks/, tools/, and benchmarks/tools/, which pins benchstat): go.mod
# and go.sum are tidy, every tracked .go file is gofmt'ed, go vet ./... is
# clean, ARCHITECTURE.md's package table and import rules hold, every name
# it uses exists, it stays under 15 KB and every Go package has a doc
# comment (internal/testsupport/archtest), and the main module holds no unused code
# (make deadcode). All checks run; the target fails if any did.
check: check-help ## go mod tidy -diff of every module, gofmt, go vet of the main and tools modules (the oracles' in make vet-oracles), ARCHITECTURE.md true (archtest), unused code (make deadcode); make help lists every target
	@fail=0; \
	for m in $(MODULES) $(TOOLMODS) $(TIDYMODS); do \
		echo "go mod tidy -diff ($$m)"; (cd $$m && $(GO) mod tidy -diff) || fail=1; \
	done; \
	echo "gofmt -l (tracked .go files)"; \
	unformatted=$$({ git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path '*/node_modules/*'; } | xargs $(GOFMT) -l); \
	if [ -n "$$unformatted" ]; then echo "not gofmt'ed:"; echo "$$unformatted"; fail=1; fi; \
	for m in $(filter-out $(ORACLEMODS),$(MODULES)); do \
		echo "go vet ./... ($$m)"; (cd $$m && $(GO) vet ./...) || fail=1; \
	done; \
	echo "ARCHITECTURE.md's tables, import rules and names; package docs (internal/testsupport/archtest)"; \
	$(GO) test -count=1 ./internal/testsupport/archtest || fail=1; \
	$(MAKE) --no-print-directory deadcode || fail=1; \
	exit $$fail

# Unused code in the main module, by golang.org/x/tools' deadcode (pinned in
# tools/go.mod) over every command, the wasm module (GOOS=wasip1) and the
# test binaries: a function of internal/, cmd/ or guest/ that no command
# reaches, or a function anywhere that no command or test reaches, fails.
# Kept on purpose: tools/deadcheck/allow.txt, with the reason. ~2 minutes.
deadcode: ## fail on code nothing uses (tools/deadcheck: deadcode over the commands, the wasm module and the tests)
	@mkdir -p bin
	@$(GO) -C tools build -o ../bin/deadcheck ./deadcheck
	bin/deadcheck -deadcode "$$($(GO) -C tools tool -n deadcode)"

# The README's test command: check, then the main module's tests (the Go
# bindings' parity and hostile-input tests run against the module built by
# `make wasm`), then the JS bindings in Node and in headless Chromium, and the
# playground end to end.
test: setup check wasm wasm-budget wasm-deadcode wasm-deps-check ## the README's test command: setup, check, the wasm module, go test, JS tests in Node and Chromium
	CRDLAB_WASM=$(abspath $(WASM_OUT)) $(GO) test -timeout 30m ./...
	$(GO) -C tools test -skip '^TestRegeneratingGivesTheCommitted' ./...
	cd playground && $(NPM) test
	cd bindings/js && $(NPM) test && CHROMIUM=$(CHROMIUM) $(NPM) run test:browser && CHROMIUM=$(CHROMIUM) $(NPM) run test:playground

# The built-in kinds' surface, schemas and pod types (internal/builtin/
# surface.tsv, schemas.json.gz, corev1/pod.go) regenerated from upstream and compared with the
# committed files: it downloads k8s.io/kubernetes at every release (eight
# zips of 17-25 MB), so CI runs it and the README's test command does not.
generated-check: ## internal/builtin's generated surface, schemas and pod types equal what tools/builtinsurface and tools/builtintypes make from upstream (downloads k8s.io/kubernetes per release)
	$(GO) -C tools test -count=1 -run '^TestRegeneratingGivesTheCommitted' ./builtinsurface ./builtintypes

# The oracle modules build Kubernetes itself (k8s.io/apiserver,
# k8s.io/kubernetes' RBAC plugin): their vet is here, run by make
# conformance, not by make check (about 200 s of compiling on a fresh
# machine, which the README's test command does not need).
vet-oracles: ## go vet of the oracle modules (conformance/, benchmarks/), which compile Kubernetes
	@fail=0; for m in $(ORACLEMODS); do \
		echo "go vet ./... ($$m)"; (cd $$m && $(GO) vet ./...) || fail=1; \
	done; exit $$fail

conformance: vet-oracles ## the differential suite against upstream (conformance/, its own module; after make vet-oracles)
	cd conformance && $(GO) test -count=1 -timeout 30m ./...

# Every case at every Kubernetes release crdlab supports besides the default
# (engine.SupportedKubeVersions), against that release's own
# k8s.io/apiextensions-apiserver (conformance/versions/v1.NN, built with its
# dependencies; the releases run in parallel, one oracle process each).
conformance-versions: ## every case at every supported Kubernetes release against that release's oracle (conformance/versions)
	cd conformance && $(GO) test -count=1 -timeout 60m -run 'TestVersionCases' -kube-versions .

# docs/reports/versions.md: which cases give another outcome at which release than
# at the newest, upstream against upstream (all oracle modules, supported or
# not); the reasons come from conformance/versions/reasons.yaml.
# The real-world corpus through every release's oracle (and crdlab at the
# releases it reproduces): docs/reports/corpus-matrix.md. Minutes: one
# oracle per release, each over ~280 CRDs and Gateway API's examples.
corpus-matrix: ## docs/reports/corpus-matrix.md: the corpus's CRDs and examples at every release 1.31-1.37, per CRD the releases that accept it and each rejection's error
	cd conformance && $(GO) run ./cmd/corpus-matrix -o ../docs/reports/corpus-matrix.md

# The mechanical part of adding a Kubernetes release (docs/kube-versions.md,
# "Adding a release"): its oracle module, kubeversion.Newest, the steps left.
new-release: ## V=1.39 [APIEXT=v0.39.0] [TOOLCHAIN=go1.28.N]: generate the release's oracle module, bump kubeversion.Newest, list what is left
	@test -n "$(V)" || { echo "make new-release: set V=1.<minor>"; exit 2; }
	TOOLCHAIN=$(TOOLCHAIN) scripts/new-release.sh $(V) $(APIEXT)

versions-report: ## docs/reports/versions.md: every case through every release's oracle, the outcomes that differ from the newest
	cd conformance && $(GO) run ./cmd/versions-report -o ../docs/reports/versions.md

# The main module's tests under the race detector, -short (the corpus-wide
# differential tests of package jsonschema take 7 minutes under -race
# without it). bindings/wasm is left out: under -race wazero compiles the 24
# MB module for minutes per Runtime, and its tests make dozens; its
# concurrency (the instance pool, 10,000 cancelled calls) runs in `make
# test` without the detector. engine's TestConcurrentValidate validates
# from 64 goroutines at once here.
race: ## the main module's tests under the race detector (-short; bindings/wasm left out)
	$(GO) test -race -short -count=1 -timeout 30m $$($(GO) list ./... | grep -v '/bindings/wasm$$')

clean: ## remove bin/, build/ and the VS Code extension's build
	rm -rf bin build editors/vscode/dist editors/vscode/crdlab.vsix

# The VS Code extension (editors/vscode): bundled with esbuild, packed
# offline by @vscode/vsce (no dependencies in the package: the bundle
# holds vscode-languageclient), then its manifest and the archive checked.
.PHONY: vsix
vsix: ## the VS Code extension: npm ci, typecheck, bundle, editors/vscode/crdlab.vsix, its tests
	cd editors/vscode && $(NPM) ci --no-audit --no-fund && $(NPM) run package && $(NPM) test

include bench.mk
include wasm.mk
include release.mk

# The hostile set (internal/testsupport/hostile): every input through the Go API, the
# CLI, the WebAssembly module in wazero (bindings/wasm) and in Node
# (bindings/js), each in its own process under a 30 s (CPU) / 2 GiB ceiling; fails
# on a crash, a hang or an unexpected outcome; writes docs/reports/hostile.md.
NODE ?= node
.PHONY: hostile
hostile: wasm-module ## the hostile set through every surface, writes docs/reports/hostile.md
	@mkdir -p bin
	$(GO) build -o bin/crdlab ./cmd/crdlab
	$(GO) build -o bin/hostile ./internal/testsupport/hostile/cmd/hostile
	bin/hostile -crdlab bin/crdlab -wasm $(WASM_OUT) -node $(NODE) -o docs/reports/hostile.md
