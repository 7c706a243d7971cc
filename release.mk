# Release builds (included by the Makefile). Nothing is published from here:
# `make release-snapshot` builds into dist/ what a release would publish, and
# `make release-check` runs tools/release's tests over it (the archives'
# contents and checksums, the SBOMs, the image run by podman, the npm package
# installed and run, the krew manifest). docs/install.md describes each file.
#
# GoReleaser and cyclonedx-gomod are built from tools/release/go.mod, the
# container image is written by tools/release/ociimage (go-containerregistry;
# no Docker daemon), the npm package by `npm pack` of bindings/js at the
# snapshot's version. About 5 minutes on 2 cores, the first time 4 more to
# build GoReleaser.

RELEASE_GO := tools/release/go.mod tools/release/go.sum
# GoReleaser reads the commit only if the checkout has a remote (`git
# ls-remote --get-url`); a clone without one gets the project's URL for
# that command only, through git's environment configuration.
RELEASE_GIT_ENV := $(if $(shell git remote 2>/dev/null),,GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=https://github.com/crdlab/crdlab)

.PHONY: release-snapshot release-check

bin/goreleaser: $(RELEASE_GO)
	@mkdir -p bin
	$(GO) -C tools/release build -o ../../bin/goreleaser github.com/goreleaser/goreleaser/v2

bin/cyclonedx-gomod: $(RELEASE_GO)
	@mkdir -p bin
	$(GO) -C tools/release build -o ../../bin/cyclonedx-gomod github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod

release-snapshot: bin/goreleaser bin/cyclonedx-gomod wasm-module ## dist/: archives (linux, darwin, windows × amd64, arm64), checksums, SBOMs, the container image, the npm package; nothing is published
	$(RELEASE_GIT_ENV) PATH="$(CURDIR)/bin:$$PATH" GOFLAGS="$(filter-out -buildvcs=%,$(GOFLAGS))" bin/goreleaser release --snapshot --clean
	$(GO) -C tools/release run ./ociimage -dist ../../dist
	$(GO) -C tools/release run ./npmpack -dist ../../dist -package ../../bindings/js

release-check: release-snapshot ## make release-snapshot, then tools/release's tests over dist/ (podman runs the image)
	cd tools/release && $(GO) mod tidy -diff && $(GO) vet ./... && CRDLAB_DIST=$(CURDIR)/dist $(GO) test -count=1 ./...
