package engine

// Version is the crdlab engine version reported by the WebAssembly module's
// "version" call (wasm/ABI.md). Release builds set it at link time with
// -ldflags "-X github.com/crdlab/crdlab/engine.Version=v1.2.3".
var Version = "dev"

// ServedVersions returns the names of the CRD's served versions, in the
// order of spec.versions (nil for none).
func (c *CRD) ServedVersions() []string { return c.servedVersions() }
