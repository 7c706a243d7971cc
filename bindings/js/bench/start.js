// Start-up of crdlab's module in Node, in fresh processes (a process's
// first load() is what a CLI or a serverless function pays):
//   node bench/start.js [runs=5] [-- node flags for the children...]
// Each child measures WebAssembly.compile, instantiate + Go runtime start
// (_initialize), and load() → first validation result (CronTab CRD, valid.yaml).
// Prints every run and the median of each column.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const repo = fileURLToPath(new URL('../../../', import.meta.url));

if (process.env.CRDLAB_START_CHILD) {
  const { load } = await import('../src/index.js');
  const bytes = readFileSync(fileURLToPath(new URL('../crdlab.wasm', import.meta.url)));
  const crd = readFileSync(`${repo}examples/crontab-crd.yaml`, 'utf8');
  const obj = readFileSync(`${repo}examples/valid.yaml`, 'utf8');
  let t = performance.now();
  const mod = await WebAssembly.compile(bytes);
  const tCompile = performance.now() - t;
  t = performance.now();
  const m = await load(mod);
  const tInit = performance.now() - t;
  t = performance.now();
  const r = m.compile(crd).validate(obj);
  const tCall = performance.now() - t;
  if (r.object.errors.length !== 0) throw new Error('valid.yaml should be valid');
  console.log(JSON.stringify([tCompile, tInit, tCall, tCompile + tInit + tCall]));
  process.exit(0);
}

const dash = process.argv.indexOf('--');
const runs = Number(process.argv[2] && process.argv[2] !== '--' ? process.argv[2] : 5);
const flags = dash >= 0 ? process.argv.slice(dash + 1) : [];
const rows = [];
for (let i = 0; i < runs; i++) {
  const out = execFileSync(process.execPath, [...flags, self], { env: { ...process.env, CRDLAB_START_CHILD: '1' }, encoding: 'utf8' });
  rows.push(JSON.parse(out));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f = (x) => x.toFixed(0).padStart(7);
console.log(`node ${process.version} ${flags.join(' ')}`.trim());
console.log('    compile  instantiate+init  first call   total (ms)');
for (const r of rows) console.log(`${f(r[0])}  ${f(r[1])}          ${f(r[2])}    ${f(r[3])}`);
const med = [0, 1, 2, 3].map((k) => median(rows.map((r) => r[k])));
console.log(`median ${f(med[0])}  ${f(med[1])}          ${f(med[2])}    ${f(med[3])}`);
