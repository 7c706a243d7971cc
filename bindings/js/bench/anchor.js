// Start-up of the upstream anchor (build/upstream-anchor.wasm, `make
// wasm-anchor`: upstream's schema packages as a GOOS=wasip1 command) in
// Node, in fresh processes, to compare with bench/start.js:
//   node bench/anchor.js [runs=5] [path/to/upstream-anchor.wasm] [-- node flags...]
// Each child measures WebAssembly.compile, then instantiate → exit of the
// command (Go runtime start, package init, compile the CronTab CRD,
// validate examples/valid.yaml). Prints every run and the medians.
import { readFileSync, openSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { WASI } from 'node:wasi';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const repo = fileURLToPath(new URL('../../../', import.meta.url));

if (process.env.CRDLAB_ANCHOR_CHILD) {
  const bytes = readFileSync(process.env.CRDLAB_ANCHOR_CHILD);
  let t = performance.now();
  const mod = await WebAssembly.compile(bytes);
  const tCompile = performance.now() - t;
  const wasi = new WASI({
    version: 'preview1',
    args: ['upstreamwasm', '/examples/crontab-crd.yaml', '/examples/valid.yaml'],
    preopens: { '/examples': `${repo}examples` },
    stdout: openSync('/dev/null', 'w'),
    returnOnExit: true,
  });
  t = performance.now();
  const inst = await WebAssembly.instantiate(mod, wasi.getImportObject());
  const code = wasi.start(inst);
  const tRun = performance.now() - t;
  if (code !== 0) throw new Error(`upstreamwasm exited with ${code}`);
  console.log(JSON.stringify([bytes.length, tCompile, tRun, tCompile + tRun]));
  process.exit(0);
}

const dash = process.argv.indexOf('--');
const args = dash >= 0 ? process.argv.slice(2, dash) : process.argv.slice(2);
const flags = dash >= 0 ? process.argv.slice(dash + 1) : [];
const runs = Number(args[0] ?? 5);
const path = args[1] ?? `${repo}build/upstream-anchor.wasm`;
const rows = [];
for (let i = 0; i < runs; i++) {
  const out = execFileSync(process.execPath, ['--no-warnings', ...flags, self], { env: { ...process.env, CRDLAB_ANCHOR_CHILD: path }, encoding: 'utf8' });
  rows.push(JSON.parse(out));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f = (x) => x.toFixed(0).padStart(7);
console.log(`node ${process.version} ${flags.join(' ')}; ${path} (${rows[0][0]} bytes)`);
console.log('    compile  instantiate→exit   total (ms)');
for (const r of rows) console.log(`${f(r[1])}  ${f(r[2])}            ${f(r[3])}`);
console.log(`median ${f(median(rows.map((r) => r[1])))}  ${f(median(rows.map((r) => r[2])))}            ${f(median(rows.map((r) => r[3])))}`);
