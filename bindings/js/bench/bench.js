// Node measurements of the crdlab module (benchmarks/README.md):
//   node bench/bench.js
// - load: WebAssembly.compile, instantiate + Go runtime start, and the time
//   from load() to the first validation's result (CronTab);
// - per-validation latency on CronTab (examples/) and, when the corpus is
//   fetched (scripts/corpus.sh), Gateway API HTTPRoute (its
//   examples/standard objects) and prometheus-operator's Prometheus.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../src/index.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const wasmPath = fileURLToPath(new URL('../crdlab.wasm', import.meta.url));
const ms = (t) => `${t.toFixed(1)} ms`;

function docs(text) {
  return text.split(/^---[ \t]*$/m).filter((d) => d.trim() !== '');
}

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.yaml')) out.push(p);
  }
  return out;
}

function objectsOfKind(dir, kind) {
  const re = new RegExp(`^kind: ${kind}\\s*$`, 'm');
  return walk(dir).flatMap((f) => docs(readFileSync(f, 'utf8')).filter((d) => re.test(d)));
}

function corpus() {
  const script = process.env.CRDLAB_CORPUS_FETCH ?? join(repo, 'scripts/corpus.sh');
  if (!existsSync(script)) return [];
  try {
    return execFileSync('bash', [script], { encoding: 'utf8', env: { ...process.env, GOPROXY: 'off' }, stdio: ['ignore', 'pipe', 'ignore'] }).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

const sets = [{
  name: 'CronTab',
  crd: readFileSync(join(repo, 'examples/crontab-crd.yaml'), 'utf8'),
  objects: ['valid.yaml', 'invalid.yaml', 'defaults.yaml'].map((f) => readFileSync(join(repo, 'examples', f), 'utf8')),
}];
const dirs = corpus();
const gw = dirs.find((d) => d.includes('sigs.k8s.io/gateway-api@'));
if (gw) {
  sets.push({
    name: 'HTTPRoute',
    crd: readFileSync(join(gw, 'config/crd/standard/gateway.networking.k8s.io_httproutes.yaml'), 'utf8'),
    objects: objectsOfKind(join(gw, 'examples/standard'), 'HTTPRoute'),
  });
}
const po = dirs.find((d) => d.includes('prometheus-operator/prometheus-operator@'));
if (po) {
  sets.push({
    name: 'Prometheus',
    crd: readFileSync(join(po, 'example/prometheus-operator-crd/monitoring.coreos.com_prometheuses.yaml'), 'utf8'),
    objects: objectsOfKind(join(po, 'example'), 'Prometheus'),
  });
}

// Load, step by step, then as one load() call.
const bytes = readFileSync(wasmPath);
let t = performance.now();
const mod = await WebAssembly.compile(bytes);
const tCompile = performance.now() - t;
t = performance.now();
const m0 = await load(mod);
m0.version();
const tInit = performance.now() - t;

t = performance.now();
const m = await load();
const c0 = m.compile(sets[0].crd);
const first = c0.validate(sets[0].objects[0]);
const tFirst = performance.now() - t;
if (first.object.errors.length !== 0) throw new Error('CronTab valid.yaml should be valid');

console.log(`node ${process.version}, module ${(bytes.length / 1e6).toFixed(2)} MB`);
console.log(`WebAssembly.compile                 ${ms(tCompile)}`);
console.log(`instantiate + Go runtime start      ${ms(tInit)}`);
console.log(`load() to first validation result   ${ms(tFirst)}  (read, compile, start, compile CronTab CRD, validate)`);

for (const s of sets) {
  t = performance.now();
  const c = m.compile(s.crd);
  const tCRD = performance.now() - t;
  if (c.errors.length) throw new Error(`${s.name}: CRD errors ${JSON.stringify(c.errors)}`);
  for (let i = 0; i < 3 * s.objects.length; i++) c.validate(s.objects[i % s.objects.length]);
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < 2000 || n < s.objects.length) {
    c.validate(s.objects[n % s.objects.length]);
    n++;
  }
  const per = (performance.now() - start) / n;
  console.log(`${s.name.padEnd(11)} compile CRD ${ms(tCRD).padStart(9)}   validate ${(per * 1000).toFixed(0).padStart(7)} µs/op  (${n} ops over ${s.objects.length} objects)`);
  c.dispose();
}
