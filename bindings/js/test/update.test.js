// CRD updates, the upgrade report and test suites through the module
// (lint/compile with oldCrd, upgrade(), test()). The Go bindings' parity
// tests check the same ops byte for byte against the native engine; these
// check the JavaScript surface on the repository's examples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { load, CrdlabError, WIRE } from '../src/index.js';

const root = new URL('../../../', import.meta.url).pathname;
const read = (p) => readFileSync(join(root, p), 'utf8');
const m = await load();

test('lint with oldCrd is the update verdict (crdlab lint --old)', () => {
  const old = read('examples/crd-update/old.yaml');
  const rejected = m.lint(read('examples/crd-update/new-v2.yaml'), { oldCrd: old });
  assert.deepEqual(rejected.errors.map((e) => e.field), [
    'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule',
    'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule',
    'spec.scope',
    'status.storedVersions[0]',
  ]);
  assert.ok(rejected.errors.every((e) => e.position && e.position.line > 0), 'errors carry positions in the new CRD');
  const migrated = m.lint(read('examples/crd-update/new-v2.yaml'), { oldCrd: old, storedVersions: ['v2'] });
  assert.equal(migrated.errors.length, 3);
  // As a create, the same CRD has no update errors.
  assert.ok(!m.lint(read('examples/crd-update/new-v2.yaml')).errors.some((e) => e.field === 'spec.scope'));
});

test('compile with oldCrd validates against the updated CRD (crdlab validate --old-crd)', () => {
  const c = m.compile(read('examples/crd-update/new-v1.yaml'), { oldCrd: read('examples/crd-update/old.yaml') });
  assert.deepEqual(c.errors, []);
  assert.ok(c.versions.includes('v2'), `served versions ${c.versions}`);
  const r = c.validate({ apiVersion: 'example.com/v2', kind: 'Widget', metadata: { name: 'a', namespace: 'default' }, spec: {} });
  assert.ok(r.object, 'the object is validated');
  c.dispose();
});

test('lint with a bad old CRD names it', () => {
  assert.throws(() => m.lint(read('examples/crd-update/new-v1.yaml'), { oldCrd: 'a: [b' }),
    (e) => e instanceof CrdlabError && e.code === WIRE.Code.DecodeError && /^old CRD: /.test(e.detail));
});

test('upgrade() is the report of crdlab upgrade -o json', () => {
  const rep = m.upgrade(read('examples/upgrade/old.yaml'), read('examples/upgrade/new.yaml'),
    [read('examples/upgrade/small.yaml'), read('examples/upgrade/big.yaml')], { sources: ['small.yaml'] });
  assert.equal(rep.safe, false);
  assert.deepEqual(rep.crdUpdate.errors, []);
  assert.deepEqual(rep.objects.map((o) => o.source), ['small.yaml', 'objects[1]']);
  assert.deepEqual(rep.objects[0].reads.map((r) => [r.version, r.pruned]), [['v1', ['spec.legacy']], ['v2', ['spec.legacy']]]);
  assert.equal(rep.objects[1].reads[1].noOpUpdate.allowed, false);
  assert.ok(rep.changes.some((c) => c.kind === 'FieldRemoved' && c.severity === 'breaking'), JSON.stringify(rep.changes));
  const dropped = m.upgrade(read('examples/upgrade/old.yaml'), read('examples/upgrade/new-drop-v1.yaml'), [], {});
  assert.equal(dropped.safe, false);
  assert.ok(dropped.crdUpdate.errors.some((e) => e.field.startsWith('status.storedVersions')));
});

// The files of a directory, by path relative to base.
function tree(base, dir, out = {}) {
  for (const name of readdirSync(join(base, dir))) {
    const p = dir ? `${dir}/${name}` : name;
    if (statSync(join(base, p)).isDirectory()) tree(base, p, out);
    else out[p] = readFileSync(join(base, p), 'utf8');
  }
  return out;
}

test('test() runs suites from memory (crdlab test -o json)', () => {
  const files = tree(join(root, 'crdtest'), 'testdata');
  const all = m.test(files);
  assert.equal(all.loadErrors.length, 0);
  assert.equal(all.passed + all.failed, all.results.length);
  assert.ok(all.passed >= 12 && all.failed >= 5, `${all.passed} passed, ${all.failed} failed`);
  const wrong = all.results.find((r) => r.name === 'Failing/onCreate/Wrong expected object');
  assert.equal(wrong.passed, false);
  assert.equal(wrong.file, 'testdata/failing/failing.testsuite.yaml');
  assert.equal(wrong.line, 7);
  assert.match(wrong.message, /-  size: Large\n\+  size: Small/);
  const widgets = m.test(files, { paths: ['testdata/widgets'] });
  assert.equal(widgets.failed, 0);
  assert.equal(widgets.passed, 12);
  const filtered = m.test(files, { run: 'onUpdate' });
  assert.ok(filtered.results.length > 0 && filtered.results.every((r) => r.name.includes('onUpdate')));
  const map = m.test(new Map(Object.entries(files)), { paths: ['testdata/widgets'] });
  assert.equal(map.passed, 12);
  assert.throws(() => m.test(files, { run: '(' }), (e) => e.code === WIRE.Code.BadRequest);
  const docs = m.test(files, { paths: ['testdata/k8s-docs'] });
  assert.equal(docs.failed, 0);
  const denied = docs.results.find((r) => r.name.endsWith('/admission/basic: 6 replicas in a test namespace are denied'));
  assert.equal(denied.admission.allowed, false);
  assert.equal(denied.admission.code, 422);
  assert.match(denied.admission.message, /denied request: failed expression: object.spec.replicas <= 5/);
  const missing = m.test({ 'a.testsuite.yaml': 'name: A\ncrd: nope.yaml\ntests:\n  onCreate: []\n' });
  assert.match(missing.loadErrors[0].error, /crd "nope.yaml": no such CRD file/);
});

test('conversionReview() is the verdict of crdlab conversion-review -o json', () => {
  const crd = read('examples/conversion/crd.yaml');
  const request = read('examples/conversion/request.json');
  const ok = m.conversionReview(crd, request, read('examples/conversion/response.json'));
  assert.equal(ok.accepted, true);
  assert.equal(ok.valid, true);
  assert.equal(ok.reviewVersion, 'v1');
  assert.equal(ok.desiredAPIVersion, 'stable.example.com/v1');
  assert.deepEqual(ok.objects.map((o) => [o.namespace, o.name, o.pruned]), [['default', 'nightly', ['spec.cron']]]);
  assert.equal(ok.objects[0].object.apiVersion, 'stable.example.com/v1');
  const rejected = m.conversionReview(crd, request, read('examples/conversion/response-wrong-version.json'));
  assert.equal(rejected.accepted, false);
  assert.match(rejected.error, /returned invalid object at index 0: invalid groupVersion \(expected stable\.example\.com\/v1, received stable\.example\.com\/v1beta1\)/);
  assert.deepEqual(rejected.objects, []);
  const invalid = m.conversionReview(crd, request, read('examples/conversion/response-invalid-object.json'));
  assert.equal(invalid.accepted, true);
  assert.equal(invalid.valid, false);
  assert.match(invalid.objects[0].invalid, /^The CronTab "nightly" is invalid: /);
  // One document holding both the request and the response is enough.
  const both = JSON.parse(request);
  both.response = JSON.parse(read('examples/conversion/response.json')).response;
  assert.equal(m.conversionReview(crd, both).valid, true);
  assert.throws(() => m.conversionReview(crd, '{}'), (e) => e instanceof CrdlabError && e.code === WIRE.Code.DecodeError);
});
