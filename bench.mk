# bench.mk — benchmarks (crdlab vs upstream) and fuzzing; included from the Makefile.
#
#   make bench       benchmarks/ side by side (crdlab vs upstream), then benchstat
#   make cel-costs   docs/reports/cel-costs.md: CEL cost units vs wall time over the corpus
#   make fuzz        every fuzz target of the main module for FUZZTIME each
#   make bench-repo  the 50,000-object repository comparison: crdlab validate
#                    vs kubeconform vs kubectl-validate on the same files
#                    (wall, CPU, peak RSS; benchmarks/README.md)
#   make wasm-anchor build/upstream-anchor.wasm (upstream's schema packages,
#                    benchmarks/cmd/upstreamwasm, GOOS=wasip1) and its sizes:
#                    the anchor crdlab's module is compared with
#   make envtest-bench the 1,000-case crdtest suite against a real
#                    kube-apiserver v1.37.2 + etcd (built from source by
#                    make envtest-build into $(ENVTEST_BIN)), side by side with
#                    crdlab, then crdtest/testdata compared case by case
#                    (benchmarks/apiserver; benchmarks/README.md)
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

REPO_N      ?= 50000
REPO_DIR    ?= build/repo
REPO_COUNT  ?= 3

.PHONY: bench fuzz wasm-anchor bench-repo

# The tools are pinned in benchmarks/tools (kubeconform) and
# benchmarks/tools/kubectl-validate (its own module); the repository is
# benchmarks/cmd/genrepo's. kubeconform gets the CRDs as JSON Schema (as its
# openapi2jsonschema.py writes them) and skips built-in kinds, as crdlab
# does; kubectl-validate validates the built-in kinds too (its embedded
# schemas).
bench-repo: ## the 50,000-object repository: crdlab vs kubeconform vs kubectl-validate
	@mkdir -p build
	$(GO) build -o build/crdlab ./cmd/crdlab
	$(GO) -C benchmarks/tools build -o $(abspath build/kubeconform) github.com/yannh/kubeconform/cmd/kubeconform
	$(GO) -C benchmarks/tools/kubectl-validate build -o $(abspath build/kubectl-validate) sigs.k8s.io/kubectl-validate
	[ -d $(REPO_DIR)/manifests ] || (cd benchmarks && $(GO) run ./cmd/genrepo -n $(REPO_N) -out $(abspath $(REPO_DIR)))
	cd benchmarks && $(GO) run ./cmd/repobench -count $(REPO_COUNT) \
		'crdlab=$(abspath build/crdlab) validate -R --crd $(abspath $(REPO_DIR))/crds $(abspath $(REPO_DIR))/manifests --summary' \
		'kubeconform=$(abspath build/kubeconform) -summary -ignore-missing-schemas -schema-location "$(abspath $(REPO_DIR))/schemas/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json" $(abspath $(REPO_DIR))/manifests' \
		'kubectl-validate=$(abspath build/kubectl-validate) --local-crds $(abspath $(REPO_DIR))/crds $(abspath $(REPO_DIR))/manifests | tail -3'


bench: ## benchmarks/ side by side with upstream, then benchstat
	@mkdir -p $(dir $(BENCHOUT))
	cd benchmarks && $(GO) test -run '^$$' -bench '$(BENCHFILTER)' -benchmem -count $(BENCHCOUNT) -benchtime $(BENCHTIME) -timeout 60m . > $(abspath $(BENCHOUT)); \
		status=$$?; cat $(abspath $(BENCHOUT)); exit $$status
	$(BENCHSTAT) -col /impl $(abspath $(BENCHOUT)) | tee $(BENCHOUT:.txt=.stat)
	$(BENCHSTAT) -format csv -col /impl $(abspath $(BENCHOUT)) | (cd benchmarks && $(GO) run ./cmd/benchtable) > $(BENCHOUT:.txt=.md)
	@echo "Markdown table (benchmarks/README.md format): $(BENCHOUT:.txt=.md)"

FUZZLOG ?= $(abspath build/fuzz.log)
fuzz: ## every fuzz target of the main module for FUZZTIME (default 20s) each
	@mkdir -p build; set -e; targets="$(FUZZ_TARGETS)"; \
	[ -n "$$targets" ] || { echo "no fuzz targets found (does go test -list '^Fuzz' build?)"; exit 1; }; \
	for t in $$targets; do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "== $$name ($$pkg, $(FUZZTIME))"; \
		for attempt in 1 2; do \
			status=0; $(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $$pkg > $(FUZZLOG) 2>&1 || status=$$?; cat $(FUZZLOG); \
			[ $$status -ne 0 ] || break; \
			if [ $$attempt = 1 ] && grep -q '^    context deadline exceeded$$' $(FUZZLOG) && ! grep -q 'Failing input written to' $(FUZZLOG); then \
				echo "fuzz: $$name ended on Go's fuzz-coordinator deadline race (golang/go#75804, fixed in Go 1.27), no failing input written: running it once more"; \
			else rm -f $(FUZZLOG); exit 1; fi; \
		done; \
	done; rm -f $(FUZZLOG)

wasm-anchor: ## build/upstream-anchor.wasm (upstream's schema packages) and its sizes
	@mkdir -p $(dir $(ANCHOR_OUT))
	cd benchmarks && GOOS=wasip1 GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o $(abspath $(ANCHOR_OUT)) ./cmd/upstreamwasm
	$(NODE) bindings/js/bench/size.js $(ANCHOR_OUT)

# make cel-costs: does the CEL cost model predict time? Every rule of the
# corpus (scripts/corpus.sh) on generated objects with lists at 1, 10, 100
# and maxItems items, timed with package cost's Benchmark (as crdlab bench);
# writes docs/reports/cel-costs.md, cel-costs.csv and the two SVG plots
# (benchmarks/cmd/celcosts). CELCOSTS_FLAGS tunes it (e.g. -duration 10ms).
CELCOSTS_FLAGS ?= -duration 5ms -samples 5

.PHONY: cel-costs
cel-costs: ## docs/reports/cel-costs.md: CEL cost units vs wall time over the corpus
	cd benchmarks && $(GO) run ./cmd/celcosts -out ../docs/reports $(CELCOSTS_FLAGS)

# make envtest-bench: what envtest would do, without setup-envtest's
# downloads. benchmarks/apiserver is its own module: it requires
# k8s.io/kubernetes v1.37.2 (its staging modules replaced by v0.37.2) and
# builds cmd/kube-apiserver and etcd's server (go.etcd.io/etcd/server/v3
# v3.7.0, the version kubernetes requires) into ENVTEST_BIN; several minutes
# the first time. The runner starts both on 127.0.0.1, times the generated
# 1,000-case suite through the API (ENVTEST_FLAGS, e.g. -parallel 2) next to
# crdlab, then runs ENVTEST_SUITES and the generated request-limits suite
# (a body over 3 MiB: the API server's 413 before decoding) both ways and
# lists the cases whose verdict or failure message differs (exit status 1
# if any).
ENVTEST_BIN    ?= build/envtest
ENVTEST_FLAGS  ?=
ENVTEST_SUITES ?= crdtest/testdata
# kube-apiserver --version and /version say v1.37.2, as a release build
ENVTEST_LDFLAGS ?= -X k8s.io/component-base/version.gitVersion=v1.37.2 \
	-X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=37

.PHONY: envtest-build envtest-bench
envtest-build: ## build kube-apiserver v1.37.2 and etcd from source into ENVTEST_BIN
	@mkdir -p $(ENVTEST_BIN)
	$(GO) -C benchmarks/apiserver build -ldflags '$(ENVTEST_LDFLAGS)' -o $(abspath $(ENVTEST_BIN))/ ./cmd/etcd k8s.io/kubernetes/cmd/kube-apiserver

envtest-bench: envtest-build ## the crdtest suite against a real kube-apiserver, side by side with crdlab
	$(GO) -C benchmarks/apiserver run . -bin $(abspath $(ENVTEST_BIN)) $(ENVTEST_FLAGS) -o $(abspath build/envtest-bench.txt)
	$(GO) -C benchmarks/apiserver run . -write-limits-suite $(abspath build/limits-suite)
	$(GO) -C benchmarks/apiserver run . -bin $(abspath $(ENVTEST_BIN)) -compare -o $(abspath build/envtest-compare.txt) $(abspath $(ENVTEST_SUITES)) $(abspath build/limits-suite)
