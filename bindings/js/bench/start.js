// Start-up of crdlab's module in Node, in fresh processes (a process's
// first load() is what a CLI or a serverless function pays):
//   node bench/start.js [runs=5] [--playground] [--wasm FILE]... [-- node flags for the children...]
// Each child measures WebAssembly.compile, instantiate + Go runtime start
// (_initialize), and load() → first validation result (CronTab CRD,
// valid.yaml; with --playground the playground's first example, CronTab
// with a CEL rule and an invalid object), and the process CPU time of the
// three (process.cpuUsage: the main thread and V8's compiler threads).
// Prints every run and the median of each column; with several --wasm
// modules the runs take turns (a side-by-side comparison).
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const repo = fileURLToPath(new URL('../../../', import.meta.url));

if (process.env.CRDLAB_START_CHILD) {
  const { load } = await import('../src/index.js');
  const bytes = readFileSync(process.env.CRDLAB_START_WASM);
  let crd, obj;
  if (process.env.CRDLAB_START_PLAYGROUND) {
    ({ crontabCRD: crd, crontabObject: obj } = await import('../../../playground/src/examples.js'));
  } else {
    crd = readFileSync(`${repo}examples/crontab-crd.yaml`, 'utf8');
    obj = readFileSync(`${repo}examples/valid.yaml`, 'utf8');
  }
  const cpu0 = process.cpuUsage();
  let t = performance.now();
  const mod = await WebAssembly.compile(bytes);
  const tCompile = performance.now() - t;
  t = performance.now();
  const m = await load(mod);
  const tInit = performance.now() - t;
  t = performance.now();
  const r = m.compile(crd).validate(obj);
  const tCall = performance.now() - t;
  const cpu = process.cpuUsage(cpu0);
  if ((r.object.errors.length !== 0) !== Boolean(process.env.CRDLAB_START_PLAYGROUND)) throw new Error(`unexpected result: ${JSON.stringify(r.object.errors)}`);
  console.log(JSON.stringify([tCompile, tInit, tCall, tCompile + tInit + tCall, (cpu.user + cpu.system) / 1000]));
  process.exit(0);
}

const args = process.argv.slice(2);
const dash = args.indexOf('--');
const flags = dash >= 0 ? args.splice(dash).slice(1) : [];
const playground = args.includes('--playground');
const modules = [];
for (let i = args.indexOf('--wasm'); i >= 0; i = args.indexOf('--wasm')) modules.push(args.splice(i, 2)[1]);
if (!modules.length) modules.push(fileURLToPath(new URL('../crdlab.wasm', import.meta.url)));
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 5);
const rows = modules.map(() => []);
for (let i = 0; i < runs; i++) {
  modules.forEach((wasm, k) => {
    const env = { ...process.env, CRDLAB_START_CHILD: '1', CRDLAB_START_WASM: wasm, ...(playground ? { CRDLAB_START_PLAYGROUND: '1' } : {}) };
    rows[k].push(JSON.parse(execFileSync(process.execPath, [...flags, self], { env, encoding: 'utf8' })));
  });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f = (x) => x.toFixed(0).padStart(7);
console.log(`node ${process.version} ${flags.join(' ')}${playground ? ' (playground example)' : ''}`.trim());
modules.forEach((wasm, k) => {
  if (modules.length > 1) console.log(wasm);
  console.log('    compile  instantiate+init  first call   total   cpu (ms)');
  for (const r of rows[k]) console.log(`${f(r[0])}  ${f(r[1])}          ${f(r[2])}    ${f(r[3])} ${f(r[4])}`);
  const med = [0, 1, 2, 3, 4].map((c) => median(rows[k].map((r) => r[c])));
  console.log(`median ${f(med[0])}  ${f(med[1])}          ${f(med[2])}    ${f(med[3])} ${f(med[4])}`);
});
