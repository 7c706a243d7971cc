// Prints a module's size raw, gzip -9 and brotli (quality 11), as served
// compressed by a web server. Usage: node bench/size.js path/to/crdlab.wasm
// [--max-brotli BYTES] (exits 1 when the brotli size is over the budget).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const args = process.argv.slice(2);
const budgetAt = args.indexOf('--max-brotli');
const budget = budgetAt >= 0 ? Number(args.splice(budgetAt, 2)[1]) : Infinity;
const path = args[0] ?? fileURLToPath(new URL('../crdlab.wasm', import.meta.url));
const raw = readFileSync(path);
const gz = gzipSync(raw, { level: 9 });
const br = brotliCompressSync(raw, {
  params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
});
const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
console.log(`module   ${path}`);
console.log(`raw      ${raw.length} bytes (${mb(raw.length)})`);
console.log(`gzip -9  ${gz.length} bytes (${mb(gz.length)})`);
console.log(`brotli   ${br.length} bytes (${mb(br.length)})`);
if (br.length > budget) {
  console.error(`brotli size ${br.length} is over the budget of ${budget} bytes (WASM_MAX_BROTLI in wasm.mk: 3 MB plus the x509 code CRD update validation needs); see wasm.mk, wasm-deadcode and benchmarks/README.md "WebAssembly"`);
  process.exit(1);
}
