#!/usr/bin/env bash
# scripts/corpus.sh — the real-world corpus: CRDs (and example objects) of
# public projects, fetched through the Go module proxy, whose module zips
# carry the YAML. Nothing is committed: the Go module cache is the cache, and
# a module already there is not fetched again (GOPROXY=off works offline once
# the modules are in the cache).
#
#   scripts/corpus.sh              the default list (below), one extracted
#                                  module directory per line
#   scripts/corpus.sh --openshift  the OpenShift list instead
#   scripts/corpus.sh --all        both lists
#   scripts/corpus.sh --list ...   print MODULE@VERSION lines, fetch nothing
#
# CRD files: grep -rl "^kind: CustomResourceDefinition" DIR --include=*.yaml.
# Gateway API also ships example objects under examples/.
#
# Users: conformance (TestCorpus), benchmarks/, bindings/wasm
# (TestParityCorpus), bindings/js/bench/bench.js. In their environment,
# CRDLAB_CORPUS_FETCH names another script to run instead of this one, and
# CRDLAB_CORPUS gives conformance the directories (':'-separated) without
# running any script (bindings/wasm: CRDLAB_CORPUS=all checks every CRD).
# The versions are pinned: changing one changes what the tests compare.
set -euo pipefail

# The default list: the corpus of the differential suite and the benchmarks.
default_mods=(
  sigs.k8s.io/gateway-api@v1.6.3
  istio.io/istio@v0.0.0-20260827124520-eed52ebb66ad
  sigs.k8s.io/cluster-api@v1.14.2
  github.com/cert-manager/cert-manager@v1.21.2
  github.com/prometheus-operator/prometheus-operator@v0.85.0
  github.com/kyverno/kyverno@v1.19.1
  github.com/argoproj/argo-cd/v3@v3.5.0
)

# OpenShift's API (587 CRD documents). The module has no semver tags
# after 2018 (its @latest is v3.9.0+incompatible, with no CRD YAML), and the
# proxy neither lists pseudo-versions nor resolves @master here: this is the
# newest pseudo-version found that it serves (commit of 2026-08-13).
openshift_mods=(
  github.com/openshift/api@v0.0.0-20260813212709-d4bb0b443cb8
)

usage() { sed -n '2,23s/^# \{0,1\}//p' "$0" >&2; exit 2; }

mods=("${default_mods[@]}")
list=false
for a in "$@"; do
  case $a in
  --openshift) mods=("${openshift_mods[@]}") ;;
  --all) mods=("${default_mods[@]}" "${openshift_mods[@]}") ;;
  --list) list=true ;;
  -h | --help) usage ;;
  *) echo "corpus.sh: unknown argument $a" >&2; usage ;;
  esac
done

if $list; then
  printf '%s\n' "${mods[@]}"
  exit 0
fi

# Outside any module, so that no go.mod or go.work around the caller matters.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for m in "${mods[@]}"; do
  if ! out=$(cd "$tmp" && GOWORK=off GOFLAGS=-mod=mod go mod download -json "$m"); then
    err=$(sed -n 's/^\t"Error": "\(.*\)",\{0,1\}$/\1/p' <<<"$out")
    echo "corpus.sh: $m: ${err:-go mod download failed}" >&2
    status=1
    continue
  fi
  sed -n 's/^\t"Dir": "\(.*\)",$/\1/p' <<<"$out"
done
exit $status
