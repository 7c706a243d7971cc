# wasm.mk — crdlab's WebAssembly module, its bindings and the playground.
# Included by the top-level Makefile; standalone: make -f wasm.mk wasm
#
#   make wasm             build/crdlab.wasm (GOOS=wasip1 reactor), copied to
#                         bindings/js/crdlab.wasm, and build/playground/
#   make wasm-test        Go bindings tests (parity, hostile inputs) and the
#                         JS tests in Node and headless Chromium
#   make wasm-size        module size raw / gzip / brotli and the biggest packages
#   make wasm-bench       native vs wazero vs Node benchmarks (see benchmarks/README.md)
#   make wasm-clean
#
# One module serves every host: a GOOS=wasip1 reactor runs in wazero, in any
# WASI host and, through the small WASI shim of bindings/js, in Node and
# browsers. There is no GOOS=js build (see wasm/ABI.md, "Why no GOOS=js").

GO          ?= go
NPM         ?= npm
NODE        ?= node
WASM_OUT    ?= build/crdlab.wasm
WASM_PLAY   ?= build/playground
WASM_FLAGS  ?= -trimpath -ldflags='-s -w' -buildmode=c-shared
WASM_SRCS   := $(shell find engine wasm -name '*.go' -not -name '*_test.go' 2>/dev/null) go.mod go.sum

.PHONY: wasm wasm-module wasm-playground wasm-test wasm-test-go wasm-test-js wasm-size wasm-bench wasm-clean

wasm: wasm-module wasm-playground

wasm-module: $(WASM_OUT) bindings/js/crdlab.wasm

$(WASM_OUT): $(WASM_SRCS)
	@mkdir -p $(dir $@)
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_FLAGS) -o $@ ./wasm/wasip1

bindings/js/crdlab.wasm: $(WASM_OUT)
	cp $< $@

wasm-playground: $(WASM_OUT)
	rm -rf $(WASM_PLAY)
	mkdir -p $(WASM_PLAY)/crdlab
	cp playground/index.html playground/style.css playground/app.js $(WASM_PLAY)/
	cp bindings/js/src/*.js bindings/js/src/*.d.ts $(WASM_PLAY)/crdlab/
	cp $(WASM_OUT) $(WASM_PLAY)/crdlab.wasm

wasm-test: wasm-test-go wasm-test-js

wasm-test-go: $(WASM_OUT)
	CRDLAB_WASM=$(abspath $(WASM_OUT)) $(GO) test ./wasm/... ./bindings/go/...

wasm-test-js: wasm
	cd bindings/js && $(NPM) ci --no-audit --no-fund && $(NPM) test && $(NPM) run test:browser && $(NPM) run test:playground

wasm-size: $(WASM_OUT)
	$(NODE) bindings/js/bench/size.js $(WASM_OUT)
	GOOS=wasip1 GOARCH=wasm $(GO) build -trimpath -buildmode=c-shared -o build/crdlab.syms.wasm ./wasm/wasip1
	$(GO) run ./wasm/internal/symsize build/crdlab.syms.wasm

wasm-bench: wasm
	CRDLAB_WASM=$(abspath $(WASM_OUT)) $(GO) test ./bindings/go/ -run '^$$' -bench . -benchmem -count 1
	cd bindings/js && $(NODE) bench/bench.js

wasm-clean:
	rm -rf $(WASM_OUT) build/crdlab.syms.wasm $(WASM_PLAY) bindings/js/crdlab.wasm
