#!/bin/sh
# gen.sh MINOR VERSION CONSUMABLE — writes testdata/upstream-1.MINOR.jsonl:
# k8s.io/dynamic-resource-allocation VERSION's answers (main.go) with the
# release's default DRAConsumableCapacity (false before 1.36). Run from
# internal/dra:
#   testdata/upstream/gen.sh 34 v0.34.4 false
#   testdata/upstream/gen.sh 35 v0.35.4 false
#   testdata/upstream/gen.sh 36 v0.36.3 true
set -eu
minor=$1 ver=$2 cc=$3
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/main.go" "$tmp/"
printf 'module draupstream\n\ngo 1.24.0\n' > "$tmp/go.mod"
(cd "$tmp" && go get "k8s.io/dynamic-resource-allocation@$ver" "k8s.io/api@$ver" sigs.k8s.io/yaml && go mod tidy && go build -o upstream .)
"$tmp/upstream" "$repo" "$cc" > "$here/../upstream-1.$minor.jsonl"
