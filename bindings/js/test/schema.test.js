// The "schema" and "bench" ops through the JS binding in Node: the JSON
// Schema documents are the native export byte for byte (the golden files
// of the Go package jsonschema, written by `crdlab schema`), and the
// benchmark reports each rule's static estimate, runtime cost units and
// wall time per evaluation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { load, CompiledCRD, CrdlabError } from '../src/index.js';

const m = await load();
const repo = new URL('../../../', import.meta.url);
const crontab = await readFile(new URL('examples/crontab-crd.yaml', repo), 'utf8');
const golden = (name) => readFile(new URL(`jsonschema/testdata/${name}`, repo), 'utf8');

// The example with a CEL rule and its messageExpression on spec.
const withRule = crontab.replace('              properties:\n                cronSpec:',
  "              x-kubernetes-validations:\n              - rule: \"self.tags.all(a, a.size() < 5)\"\n                messageExpression: \"'tags: ' + self.tags.join(', ')\"\n              properties:\n                tags:\n                  type: array\n                  maxItems: 10\n                  items:\n                    type: string\n                    maxLength: 20\n                cronSpec:");
const object = (tags) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'a', namespace: 'default' }, spec: { image: 'x', tags } });

test('schema(): the documents are `crdlab schema`\'s, byte for byte, in both drafts', async () => {
  assert.notEqual(withRule, crontab, 'examples/crontab-crd.yaml changed shape');
  const res = m.schema(crontab);
  assert.deepEqual(res.crd.errors, []);
  assert.equal(res.schemas.length, 1);
  const [s] = res.schemas;
  assert.deepEqual([s.group, s.version, s.kind, s.fileName], ['stable.example.com', 'v1', 'CronTab', 'crontab_v1.json']);
  assert.equal(s.document, await golden('crontab_v1.2020-12.json'));
  const strict = m.schema(crontab, { draft: '07', strict: true, layout: 'catalog' }).schemas[0];
  assert.equal(strict.document, await golden('crontab_v1.07.strict.json'));
  assert.equal(strict.fileName, 'stable.example.com/crontab_v1.json');
  assert.equal(JSON.parse(strict.document).additionalProperties, false);
  // From a compiled CRD (its handle), and through Crdlab.schema(compiled).
  const c = m.compile(crontab);
  assert.ok(c instanceof CompiledCRD);
  assert.equal(c.schema().schemas[0].document, s.document);
  assert.equal(m.schema(c, { versions: ['v1'], draft: '07', strict: true }).schemas[0].document, strict.document);
  c.dispose();
  assert.throws(() => c.schema(), (e) => e instanceof CrdlabError && e.code === 'Invalid');
});

test('schema(): a rejected CRD gives its errors and no schema; bad options and versions are errors', () => {
  const res = m.schema(crontab.replace('scope: Namespaced', 'scope: Galactic'));
  assert.deepEqual(res.schemas, []);
  assert.match(res.crd.errors[0].message, /spec\.scope: Unsupported value: "Galactic"/);
  const code = (fn) => { try { fn(); } catch (e) { return `${e.code}: ${e.detail}`; } return 'no error'; };
  assert.match(code(() => m.schema(crontab, { draft: '04' })), /^BadRequest: draft: unknown JSON Schema draft "04"/);
  assert.match(code(() => m.schema(crontab, { layout: 'flat' })), /^BadRequest: layout must be kubeconform or catalog/);
  assert.match(code(() => m.schema(crontab, { versions: ['v2'] })), /^Invalid: version "v2" is not served by CustomResourceDefinition "crontabs.stable.example.com" \(served: v1\)/);
  assert.match(code(() => m.schema(crontab, { versions: 'v1' })), /^BadRequest: versions must be an array/);
  assert.match(code(() => m.schema('kind: [x')), /^DecodeError: /);
  assert.ok(m.schema(withRule).schemas[0].unexpressed.some((u) => u.includes('CEL rule "self.tags.all(a, a.size() < 5)"')));
});

test('bench(): per rule the static estimate, the runtime cost units and the wall time per evaluation', () => {
  const rep = m.bench(withRule, [object(['a', 'bb']), object(['toolong']), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n'], { durationMs: 5, samples: 5 });
  assert.equal(rep.crd, 'crontabs.stable.example.com');
  assert.deepEqual([rep.machine.goos, rep.machine.goarch], ['wasip1', 'wasm']);
  // The rule and its messageExpression, on each of the two CronTabs.
  assert.equal(rep.rules.length, 4);
  const cost = m.cost(withRule, [object(['a', 'bb']), object(['toolong'])]);
  for (const r of rep.rules) {
    const s = cost.rules[r.rule];
    assert.equal(r.expression, s.expression);
    assert.equal(r.estimatedCost, s.estimatedCost);
    assert.ok(r.evaluations > 0, JSON.stringify(r));
    // The rule's runtime cost is the cost op's (a messageExpression is
    // evaluated as if its rule failed: cost() counts it only on failure).
    if (r.field === 'rule') assert.equal(r.cost, s.runtimeCost[r.object]);
    assert.ok(r.cost > 0);
    assert.ok(r.timing.medianNs > 0 && r.timing.p10Ns <= r.timing.medianNs && r.timing.medianNs <= r.timing.p90Ns, JSON.stringify(r.timing));
    assert.ok(r.timing.iterations >= 5);
    assert.equal(r.perEvaluationNs, r.timing.medianNs / r.evaluations);
    assert.equal(r.nsPerCostUnit, r.timing.medianNs / r.cost);
  }
  assert.deepEqual(rep.objects[0].phases.map((p) => p.phase), ['decode', 'prune', 'default', 'openapi', 'cel', 'request']);
  assert.match(rep.objects[2].error, /^skipped: a ConfigMap of v1 is not a CronTab of stable\.example\.com/);
  // A compiled CRD: the same rules and cost units.
  const c = m.compile(withRule);
  const again = c.bench([object(['a', 'bb'])], { durationMs: 2, samples: 3 });
  assert.deepEqual(again.rules.map((r) => [r.rule, r.cost, r.evaluations]), rep.rules.filter((r) => r.object === 0).map((r) => [r.rule, r.cost, r.evaluations]));
  assert.deepEqual(m.bench(c, [object(['a'])], { durationMs: 1, samples: 1 }).rules.length, 2);
  c.dispose();
});

test('bench(): timeoutMs ends a long benchmark with Timeout; bad options are refused', () => {
  // The module's Timeout proves the deadline ended the benchmark (it is
  // checked before every figure); no wall-clock bound, which a loaded
  // machine would break.
  const objs = Array.from({ length: 4 }, () => object(['a']));
  assert.throws(() => m.bench(withRule, objs, { durationMs: 200, samples: 2, timeoutMs: 50 }), (e) => e instanceof CrdlabError && e.code === 'Timeout' && /deadline/.test(e.detail));
  assert.throws(() => m.bench(withRule, [], { samples: 1.5 }), (e) => e.code === 'BadRequest');
  assert.throws(() => m.bench(withRule, [], { durationMs: 20000 }), (e) => e.code === 'BadRequest' && /durationMs must be between 1 and 10000/.test(e.detail));
  assert.throws(() => m.bench(withRule, 'x'), (e) => e.code === 'BadRequest');
  // The instance is fine afterwards.
  assert.equal(m.schema(crontab).schemas.length, 1);
});
