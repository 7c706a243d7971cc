# crdlab — offline kube-apiserver 1.37 CRD and custom resource validation.
#
#   make setup        Go modules (main, conformance, benchmarks), npm ci, Debian chromium if missing
#   make build        build bin/crdlab
#   make test         setup, the wasm module (and its size budget), go vet + go test of the main module, JS tests (Node, Chromium)
#   make conformance  the differential suite against upstream (conformance/, own module)
#   make fuzz         bounded fuzzing, FUZZTIME (default 20s) per fuzz target (bench.mk)
#   make bench        crdlab vs upstream benchmarks with benchstat (bench.mk)
#   make wasm ...     the WebAssembly module, bindings and playground (wasm.mk)

GO       ?= go
NPM      ?= npm
CHROMIUM ?= /usr/bin/chromium
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
MODULES  := . $(wildcard conformance benchmarks)

.PHONY: setup build test conformance clean

setup:
	@for m in $(MODULES); do \
		if [ -f $$m/go.mod ]; then echo "go mod download ($$m)"; (cd $$m && $(GO) mod download) || exit 1; fi; \
	done
	cd bindings/js && $(NPM) ci --no-audit --no-fund
	cd playground && $(NPM) ci --no-audit --no-fund
	@command -v $(CHROMIUM) >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "installing Debian's chromium for the browser tests"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else echo "note: the browser tests need Chromium at $(CHROMIUM) (Debian: apt-get install chromium)"; fi; }

build:
	@mkdir -p bin
	$(GO) build -trimpath -ldflags "-X github.com/crdlab/crdlab/engine.Version=$(VERSION)" -o bin/crdlab ./cmd/crdlab

# The README's test command: the main module's vet and tests (the Go
# bindings' parity and hostile-input tests run against the module built by
# `make wasm`), then the JS bindings in Node and in headless Chromium, and the
# playground end to end.
test: setup wasm wasm-budget wasm-deadcode
	$(GO) vet ./...
	CRDLAB_WASM=$(abspath $(WASM_OUT)) $(GO) test ./...
	cd bindings/js && $(NPM) test && CHROMIUM=$(CHROMIUM) $(NPM) run test:browser && CHROMIUM=$(CHROMIUM) $(NPM) run test:playground

conformance:
	cd conformance && $(GO) test -count=1 -timeout 30m ./...

clean:
	rm -rf bin build

include bench.mk
include wasm.mk
