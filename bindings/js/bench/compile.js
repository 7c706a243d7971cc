// CRD compile time in Node, first call vs later calls (benchmarks/README.md,
// WebAssembly, "Compile time"):
//   node bench/compile.js [runs] [--gogc N] [-- node flags are passed as usual]
// For each set (CronTab, and HTTPRoute when the corpus is fetched with
// scripts/corpus.sh), each run is a fresh Node process that compiles the
// module, loads it and compiles the CRD 4 times: "first" is the process's
// first compile (V8 compiles wasm functions lazily with its baseline
// compiler, Liftoff, and tiers hot ones up to TurboFan in the background;
// that code belongs to the WebAssembly.Module, so later instances of the
// same module start warm), "steady" the median of the other 3. Prints
// the medians over the runs of the wall time and of the process CPU time
// (process.cpuUsage: the main thread plus V8's background compiler
// threads, which tier hot functions up from Liftoff to TurboFan while the
// first compile runs). CPU time is what to compare on a loaded machine;
// the native figure is benchmarks/'s BenchmarkCompile (CPU time per op).
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../src/index.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const wasmPath = fileURLToPath(new URL('../crdlab.wasm', import.meta.url));
const args = process.argv.slice(2);
const gi = args.indexOf('--gogc');
const env = gi >= 0 ? { GOGC: args.splice(gi, 2)[1] } : undefined;
const runs = Number(args[0] ?? 5);

function corpus() {
  const script = join(repo, 'scripts/corpus.sh');
  if (!existsSync(script)) return [];
  try {
    return execFileSync('bash', [script], { encoding: 'utf8', env: { ...process.env, GOPROXY: 'off' }, stdio: ['ignore', 'pipe', 'ignore'] }).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

const sets = [{ name: 'CronTab', crd: readFileSync(join(repo, 'examples/crontab-crd.yaml'), 'utf8') }];
const gw = corpus().find((d) => d.includes('sigs.k8s.io/gateway-api@'));
if (gw) sets.push({ name: 'HTTPRoute', crd: readFileSync(join(gw, 'config/crd/standard/gateway.networking.k8s.io_httproutes.yaml'), 'utf8') });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);

function timed(fn) {
  const t = performance.now();
  const u = process.cpuUsage();
  fn();
  const d = process.cpuUsage(u);
  return { wall: performance.now() - t, cpu: (d.user + d.system) / 1000 };
}

const child = process.env.CRDLAB_COMPILE_BENCH_SET;
if (child) {
  const set = sets.find((s) => s.name === child);
  const m = await load(readFileSync(wasmPath), env ? { env } : {});
  const ts = [];
  for (let i = 0; i < 4; i++) {
    ts.push(timed(() => {
      const c = m.compile(set.crd);
      if (c.errors.length) throw new Error(`${set.name}: ${JSON.stringify(c.errors[0])}`);
    }));
  }
  console.log(JSON.stringify(ts));
  process.exit(0);
}

console.log(`node ${process.version}, ${runs} runs, env ${JSON.stringify(env ?? {})}, flags ${JSON.stringify(process.execArgv)}`);
for (const set of sets) {
  const first = [], steady = [];
  for (let r = 0; r < runs; r++) {
    const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
      { encoding: 'utf8', env: { ...process.env, CRDLAB_COMPILE_BENCH_SET: set.name } });
    const ts = JSON.parse(out.trim().split('\n').pop());
    first.push(ts[0]);
    steady.push({ wall: median(ts.slice(1).map((t) => t.wall)), cpu: median(ts.slice(1).map((t) => t.cpu)) });
  }
  const line = (label, xs) => `${set.name} ${label}: wall ${fmt(median(xs.map((t) => t.wall)))}, cpu ${fmt(median(xs.map((t) => t.cpu)))}`;
  console.log(line('first ', first));
  console.log(line('steady', steady));
}
