// Tools the main module's checks run with `go tool` (Makefile: make check),
// pinned here so that they stay out of the main module's go.mod.
module github.com/crdlab/crdlab/tools

go 1.26.0

tool golang.org/x/tools/cmd/deadcode

require (
	golang.org/x/mod v0.37.0 // indirect
	golang.org/x/sync v0.21.0 // indirect
	golang.org/x/sys v0.46.0 // indirect
	golang.org/x/telemetry v0.0.0-20260625142307-59b4966ccb57 // indirect
	golang.org/x/tools v0.47.0 // indirect
)
