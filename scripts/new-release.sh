#!/bin/sh
# new-release.sh 1.MINOR [APIEXTENSIONS_VERSION] — the mechanical part of
# adding a Kubernetes release (docs/kube-versions.md, "Adding a release"):
#
#  1. picks the release's k8s.io/apiextensions-apiserver version (the
#     newest v0.MINOR.* the module proxy serves, GA before prereleases),
#     unless given;
#  2. reads the go line of its go.mod: when it needs a newer Go than the
#     one installed, the toolchain is $TOOLCHAIN (default: go<that line>),
#     which gen.sh writes as the oracle module's toolchain line;
#  3. generates the oracle module conformance/versions/v1.MINOR (gen.sh);
#  4. moves kubeversion.Newest to MINOR (the release is not yet Supported:
#     that is the last step, once its differential suite is green);
#  5. prints what is left to do by hand.
#
#	make new-release V=1.39 [APIEXT=v0.39.0-rc.0] [TOOLCHAIN=go1.28.2]
set -eu
rel=${1:?usage: new-release.sh 1.MINOR [APIEXTENSIONS_VERSION]}
minor=${rel#1.}
case "$minor" in
'' | *[!0-9]*) echo "new-release.sh: want 1.<minor>, got $rel" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
ver=${2:-}
if [ -z "$ver" ]; then
	all=$(go list -m -versions k8s.io/apiextensions-apiserver | tr ' ' '\n' | grep "^v0\.$minor\." || true)
	ga=$(printf '%s\n' "$all" | grep -v -- - | tail -1 || true)
	ver=${ga:-$(printf '%s\n' "$all" | tail -1)}
	[ -n "$ver" ] || { echo "new-release.sh: the module proxy serves no k8s.io/apiextensions-apiserver v0.$minor.*" >&2; exit 1; }
fi
echo "Kubernetes $rel: k8s.io/apiextensions-apiserver $ver"

# The go line of the release's go.mod, against the installed Go.
mod=$(GOTOOLCHAIN=local go mod download -json "k8s.io/apiextensions-apiserver@$ver" 2>/dev/null | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
[ -n "$mod" ] || { echo "new-release.sh: cannot download k8s.io/apiextensions-apiserver@$ver" >&2; exit 1; }
need=$(sed -n 's/^go //p' "$mod")
have=$(GOTOOLCHAIN=local go env GOVERSION | sed 's/^go//')
newer=$(printf '%s\n%s\n' "$have" "$need" | sort -V | tail -1)
if [ "$newer" != "$have" ]; then
	tc=${TOOLCHAIN:-go$need}
	echo "its go.mod needs Go $need (installed: $have): toolchain $tc"
	GOTOOLCHAIN=$tc go version
	export GOTOOLCHAIN=$tc
else
	unset GOTOOLCHAIN || true
	export GOTOOLCHAIN=local
fi

"$root/conformance/versions/gen.sh" "$minor" "$ver"

kv=$root/internal/kubeversion/kubeversion.go
cur=$(sed -n 's/^	Newest = \([0-9]*\)$/\1/p' "$kv")
if [ -n "$cur" ] && [ "$minor" -gt "$cur" ]; then
	sed -i "s/^	Newest = $cur\$/	Newest = $minor/" "$kv"
	echo "internal/kubeversion: Newest = $minor (was $cur)"
fi

relre=$(printf '%s' "$rel" | sed 's/\./\\./')
cat <<EOF

Generated conformance/versions/v1.$minor. What is left (docs/kube-versions.md):
  - cd conformance && go run ./cmd/versions-report -only 1.$((minor - 1)),$rel
    (the cases whose outcome differs between 1.$((minor - 1)) and $rel, upstream against upstream)
  - read the upstream diffs (apiextensions-apiserver, apiserver/pkg/cel,
    apimachinery, kube-openapi, cel-go) for what no case covers yet
  - a Change constant per difference at the top of internal/kubeversion's
    const block, since[...] = $minor, and rel.Has(...) at its one place;
    CEL library versions in internal/cel/library/env.go
  - cases in conformance/testdata/cases/18_releases.yaml, reasons in
    conformance/versions/reasons.yaml
  - add $minor to supported (internal/kubeversion) and run
    go test -run 'TestVersionCases/$relre' -kube-versions . in conformance/ until green
  - the built-in kinds' surface and schemas: add the release to
    tools/builtinsurface's releases, then
    go -C tools run ./builtinsurface -o ../internal/builtin/surface.tsv -schemas ../internal/builtin/schemas.json.gz
  - the texts that list the releases (grep -rn '1.31, 1.32'), docs/kube-versions.md
EOF
