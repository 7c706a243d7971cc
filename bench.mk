# bench.mk — benchmarks (crdlab vs upstream) and fuzzing; included from the Makefile.
#
#   make bench       benchmarks/ side by side (crdlab vs upstream), then benchstat
#   make fuzz        every fuzz target for FUZZTIME each
#   make wasm-anchor build/upstream-anchor.wasm (upstream's schema packages,
#                    benchmarks/cmd/upstreamwasm, GOOS=wasip1) and its sizes:
#                    the anchor crdlab's module is compared with
#
# BENCHCOUNT/BENCHTIME/BENCHFILTER tune the benchmark run; results go to
# $(BENCHOUT), the benchstat output to $(BENCHOUT:.txt=.stat) and the README's
# Markdown table to $(BENCHOUT:.txt=.md).

GO          ?= go
FUZZTIME    ?= 20s
BENCHCOUNT  ?= 6
BENCHTIME   ?= 1s
BENCHFILTER ?= .
BENCHOUT    ?= build/bench.txt
BENCHSTAT   ?= $(shell $(GO) env GOPATH)/bin/benchstat

# package:target pairs run by `make fuzz`
FUZZ_TARGETS := ./engine/crd:FuzzDecode ./engine:FuzzCompile ./engine:FuzzValidate ./internal/cel:FuzzCompileRule ./internal/cel:FuzzEvaluate

NODE        ?= node
ANCHOR_OUT  ?= build/upstream-anchor.wasm

.PHONY: bench fuzz benchstat-install wasm-anchor

benchstat-install:
	@test -x $(BENCHSTAT) || GOFLAGS= $(GO) install golang.org/x/perf/cmd/benchstat@latest

bench: benchstat-install
	@mkdir -p $(dir $(BENCHOUT))
	cd benchmarks && $(GO) test -run '^$$' -bench '$(BENCHFILTER)' -benchmem -count $(BENCHCOUNT) -benchtime $(BENCHTIME) -timeout 60m . > $(abspath $(BENCHOUT)); \
		status=$$?; cat $(abspath $(BENCHOUT)); exit $$status
	$(BENCHSTAT) -col /impl $(BENCHOUT) | tee $(BENCHOUT:.txt=.stat)
	$(BENCHSTAT) -format csv -col /impl $(BENCHOUT) | (cd benchmarks && $(GO) run ./cmd/benchtable) > $(BENCHOUT:.txt=.md)
	@echo "Markdown table (benchmarks/README.md format): $(BENCHOUT:.txt=.md)"

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "== $$name ($$pkg, $(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

wasm-anchor:
	@mkdir -p $(dir $(ANCHOR_OUT))
	cd benchmarks && GOOS=wasip1 GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o $(abspath $(ANCHOR_OUT)) ./cmd/upstreamwasm
	$(NODE) bindings/js/bench/size.js $(ANCHOR_OUT)
