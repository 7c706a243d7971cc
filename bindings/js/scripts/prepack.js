// npm pack / npm publish run this first (the "prepack" script): the package
// is nothing without its WebAssembly module, which is built, not committed.
import { statSync } from 'node:fs';

const module = new URL('../crdlab.wasm', import.meta.url);
let size = 0;
try {
  size = statSync(module).size;
} catch {
  // reported below
}
if (size === 0) {
  console.error('crdlab: bindings/js/crdlab.wasm is missing or empty: build it first (make wasm-module at the repository root), then pack.');
  process.exit(1);
}
