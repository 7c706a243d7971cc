# bench.mk — benchmarks (crdlab vs upstream) and fuzzing; included from the Makefile.
#
#   make bench       benchmarks/ side by side (crdlab vs upstream), then benchstat
#   make fuzz        every fuzz target of the main module for FUZZTIME each
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
# benchstat, pinned by the tool directive of benchmarks/tools/go.mod (its
# own module so that benchstat's dependencies do not move the versions the
# benchmarks build upstream with). It runs in benchmarks/tools: give it
# absolute paths.
BENCHSTAT   ?= $(GO) -C benchmarks/tools tool benchstat

# package:target pairs run by `make fuzz`: by default every Fuzz function of
# the main module, listed by `go test -list` in the packages whose tracked
# test files declare one (the nested modules have none). Override to run a
# few, e.g. FUZZ_TARGETS=./engine:FuzzCompile.
FUZZ_TARGETS ?= $(shell pkgs=$$(git ls-files '*_test.go' 2>/dev/null | grep -v '^\(conformance\|benchmarks\)/' | \
	xargs grep -l '^func Fuzz' 2>/dev/null | xargs -n1 dirname | sort -u | sed 's|^|./|'); \
	[ -z "$$pkgs" ] || $(GO) test -list '^Fuzz' $$pkgs | awk '/^Fuzz/ { n[++k] = $$1 } /^ok/ { for (i = 1; i <= k; i++) print $$2 ":" n[i]; k = 0 }')

NODE        ?= node
ANCHOR_OUT  ?= build/upstream-anchor.wasm

.PHONY: bench fuzz wasm-anchor

bench:
	@mkdir -p $(dir $(BENCHOUT))
	cd benchmarks && $(GO) test -run '^$$' -bench '$(BENCHFILTER)' -benchmem -count $(BENCHCOUNT) -benchtime $(BENCHTIME) -timeout 60m . > $(abspath $(BENCHOUT)); \
		status=$$?; cat $(abspath $(BENCHOUT)); exit $$status
	$(BENCHSTAT) -col /impl $(abspath $(BENCHOUT)) | tee $(BENCHOUT:.txt=.stat)
	$(BENCHSTAT) -format csv -col /impl $(abspath $(BENCHOUT)) | (cd benchmarks && $(GO) run ./cmd/benchtable) > $(BENCHOUT:.txt=.md)
	@echo "Markdown table (benchmarks/README.md format): $(BENCHOUT:.txt=.md)"

fuzz:
	@set -e; targets="$(FUZZ_TARGETS)"; \
	[ -n "$$targets" ] || { echo "no fuzz targets found (does go test -list '^Fuzz' build?)"; exit 1; }; \
	for t in $$targets; do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "== $$name ($$pkg, $(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

wasm-anchor:
	@mkdir -p $(dir $(ANCHOR_OUT))
	cd benchmarks && GOOS=wasip1 GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o $(abspath $(ANCHOR_OUT)) ./cmd/upstreamwasm
	$(NODE) bindings/js/bench/size.js $(ANCHOR_OUT)
