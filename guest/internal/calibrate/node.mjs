// The calibrate workload in Node (V8): per-iteration time of run(n).
//   GOOS=wasip1 GOARCH=wasm go build -trimpath -buildmode=c-shared -o /tmp/calibrate.wasm ./guest/internal/calibrate/module
//   node guest/internal/calibrate/node.mjs /tmp/calibrate.wasm
import { readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';

const wasi = new WASI({ version: 'preview1', args: [], env: {}, returnOnExit: true });
const mod = await WebAssembly.compile(readFileSync(process.argv[2]));
const inst = await WebAssembly.instantiate(mod, wasi.getImportObject());
wasi.initialize(inst);
inst.exports.run(200); // warm up
for (let round = 0; round < 5; round++) {
  const n = 2000;
  const t0 = performance.now();
  if (inst.exports.run(n) < 0) throw new Error('workload failed');
  console.log(`node: ${((performance.now() - t0) * 1000 / n).toFixed(1)} µs/op`);
}
