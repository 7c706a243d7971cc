// Cases per second of a 1,000-case test suite (issue 14), natively
// (`crdlab test`) and in Node (the module's "test" op), side by side:
//   node bench/suite.js [--crdlab PATH] [--runs N]
// The suite is BenchmarkSuite1000's (crdtest/bench_test.go): 500 onCreate
// cases (half with an expected object, half with an expected error) and 500
// onUpdate cases with a status, against crdtest/testdata/widgets. Native
// runs `crdlab test -o json` on the suite written to a temporary directory
// (whole process: start, parse, run) with its default parallelism and with
// -j 1; Node runs the suite held in memory in one module instance (one
// thread), after a warm-up run. Each figure is the median of --runs runs.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tmpdir, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { load } from '../src/index.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : def;
};
const crdlab = arg('--crdlab', join(repo, 'bin/crdlab'));
const runs = Number(arg('--runs', '5'));

export function suite1000() {
  const s = ['name: Generated', 'crd: widgets-crd.yaml', 'tests:', '  onCreate:'];
  for (let i = 0; i < 500; i++) {
    if (i % 2 === 0) {
      s.push(`  - name: create ${i}`, '    initial: |', '      apiVersion: example.com/v1', '      kind: Widget', `      spec: {maxReplicas: ${i + 1}}`,
        '    expected: |', '      apiVersion: example.com/v1', '      kind: Widget', `      spec: {size: Small, minReplicas: 1, maxReplicas: ${i + 1}}`);
    } else {
      s.push(`  - name: create ${i}`, '    initial: |', '      apiVersion: example.com/v1', '      kind: Widget', `      spec: {minReplicas: ${i}, maxReplicas: 0}`,
        '    expectedError: minReplicas must not exceed maxReplicas');
    }
  }
  s.push('  onUpdate:');
  for (let i = 0; i < 500; i++) {
    s.push(`  - name: update ${i}`, '    initial: |', '      apiVersion: example.com/v1', '      kind: Widget', `      spec: {name: n${i}}`, '      status: {phase: Pending}',
      '    updated: |', '      apiVersion: example.com/v1', '      kind: Widget', `      spec: {name: n${i}, maxReplicas: 9}`, '      status: {phase: Ready}',
      '    expected: |', '      apiVersion: example.com/v1', '      kind: Widget', `      spec: {name: n${i}, size: Small, minReplicas: 1, maxReplicas: 9}`, '      status: {phase: Ready}');
  }
  return {
    'gen.testsuite.yaml': s.join('\n') + '\n',
    'widgets-crd.yaml': readFileSync(join(repo, 'crdtest/testdata/widgets/widgets-crd.yaml'), 'utf8'),
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function check(rep, where) {
  if (rep.passed !== 1000 || rep.failed !== 0) throw new Error(`${where}: ${rep.passed} passed, ${rep.failed} failed: ${JSON.stringify(rep.results.find((r) => !r.passed) ?? rep.loadErrors)}`);
}

const files = suite1000();
const dir = mkdtempSync(join(tmpdir(), 'crdlab-suite-'));
for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
const rows = [];
try {
  for (const j of [null, '1']) {
    const times = [];
    let inner = [];
    for (let i = 0; i < runs; i++) {
      const args = ['test', '-o', 'json', ...(j ? ['-j', j] : []), dir];
      const start = performance.now();
      const out = execFileSync(crdlab, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
      times.push(performance.now() - start);
      const rep = JSON.parse(out);
      check(rep, 'native');
      inner.push(rep.seconds * 1000);
    }
    rows.push([`native crdlab test${j ? ' -j 1' : ` (-j ${cpus().length})`}`, median(times), median(inner)]);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const m = await load();
check(m.test(files), 'node warm-up');
const times = [];
const inner = [];
for (let i = 0; i < runs; i++) {
  const start = performance.now();
  const rep = m.test(files);
  times.push(performance.now() - start);
  check(rep, 'node');
  inner.push(rep.seconds * 1000);
}
rows.push(['Node, module "test" op (1 thread)', median(times), median(inner)]);
console.log(`1,000-case suite, median of ${runs} runs, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log('| runner | wall ms | in-runner ms (report "seconds") | cases/s (wall) |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, wall, run] of rows) console.log(`| ${name} | ${wall.toFixed(0)} | ${run.toFixed(0)} | ${Math.round(1000 / (wall / 1000))} |`);
