# crdlab — offline kube-apiserver 1.37 CRD and custom resource validation.
#
#   make setup        download the modules of the main, conformance and benchmarks modules
#   make build        build bin/crdlab
#   make test         go vet + go test of the main module (a few minutes at most)
#   make conformance  the differential suite against upstream (conformance/, own module)
#   make fuzz         bounded fuzzing of the engine, FUZZTIME (default 30s) per fuzz target
#   make bench        engine benchmarks (and benchmarks/ when present)
#   make wasm ...     the WebAssembly module, bindings and playground (wasm.mk)

GO       ?= go
FUZZTIME ?= 30s
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
MODULES  := . $(wildcard conformance benchmarks)

.PHONY: setup build test conformance fuzz bench clean

setup:
	@for m in $(MODULES); do \
		if [ -f $$m/go.mod ]; then echo "go mod download ($$m)"; (cd $$m && $(GO) mod download) || exit 1; fi; \
	done

build:
	@mkdir -p bin
	$(GO) build -trimpath -ldflags "-X github.com/crdlab/crdlab/engine.Version=$(VERSION)" -o bin/crdlab ./cmd/crdlab

test:
	$(GO) vet ./... && $(GO) test ./...

conformance:
	cd conformance && $(GO) test ./...

fuzz:
	@for f in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' engine/*_test.go | cut -d' ' -f2 | sort -u); do \
		echo "fuzz $$f ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) ./engine/ || exit 1; \
	done

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/
	@if [ -f benchmarks/go.mod ]; then cd benchmarks && $(GO) test -run '^$$' -bench . -benchmem ./...; fi

clean:
	rm -rf bin build

-include wasm.mk
