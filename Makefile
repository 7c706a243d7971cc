# crdlab — offline kube-apiserver 1.37 CRD and custom resource validation.
#
#   make setup        download the modules of the main, conformance and benchmarks modules
#   make build        build bin/crdlab
#   make test         go vet + go test of the main module (a few minutes at most)
#   make conformance  the differential suite against upstream (conformance/, own module)
#   make fuzz         bounded fuzzing, FUZZTIME (default 20s) per fuzz target (bench.mk)
#   make bench        crdlab vs upstream benchmarks with benchstat (bench.mk)
#   make wasm ...     the WebAssembly module, bindings and playground (wasm.mk)

GO       ?= go
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
MODULES  := . $(wildcard conformance benchmarks)

.PHONY: setup build test conformance clean

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
	cd conformance && $(GO) test -count=1 -timeout 30m ./...

clean:
	rm -rf bin build

include bench.mk
include wasm.mk
