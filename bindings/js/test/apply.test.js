// Server-side apply through the module (CompiledCRD.apply): the Go
// bindings' parity test checks the op byte for byte against the native
// engine; this checks the JavaScript surface on docs/apply.md's examples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, CrdlabError, WIRE } from '../src/index.js';

const root = new URL('../../../', import.meta.url).pathname;
const read = (p) => readFileSync(join(root, p), 'utf8');
const m = await load();

test('apply: a steps file, a conflict and the owners of each field', () => {
  const c = m.compile(read('examples/apply/upgrade/crd-v1-atomic.yaml'));
  const res = c.apply(read('examples/apply/upgrade/before.yaml'));
  assert.equal(res.steps.length, 2);
  const [created, conflicted] = res.steps;
  assert.equal(created.code, undefined);
  assert.deepEqual(created.managedFields.map((e) => [e.manager, e.operation, e.time]), [['alice', 'Apply', '2026-01-01T00:00:00Z']]);
  assert.deepEqual(created.managedFields[0].fieldsV1, { 'f:spec': { 'f:image': {}, 'f:ports': {} } });
  assert.deepEqual(created.owners.find((o) => o.path === '.spec.ports'), { path: '.spec.ports', value: [{ name: 'http', port: 80 }], owners: ['alice (Apply)'] });
  assert.equal(conflicted.code, 409);
  assert.equal(conflicted.conflict, 'Apply failed with 1 conflict: conflict with "alice": .spec.ports');
  assert.deepEqual(conflicted.conflicts, [{ message: 'conflict with "alice"', field: '.spec.ports' }]);
  // a failed step leaves the stored object as it was
  assert.deepEqual(conflicted.object, created.object);
  c.dispose();
});

test('apply: steps as objects, on a stored object, at a time', () => {
  const c = m.compile(read('examples/apply/upgrade/crd-v2-map.yaml'));
  const obj = (ports) => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'nightly', namespace: 'default' }, spec: { ports } });
  const res = c.apply([
    { manager: 'metrics-controller', operation: 'Apply', object: obj([{ name: 'http', port: 8080 }]) },
    { operation: 'Delete' },
  ], { stored: read('examples/apply/upgrade/stored.json'), time: new Date('2027-05-01T10:00:00Z') });
  const [changed, deleted] = res.steps;
  assert.deepEqual(changed.owners.find((o) => o.path === '.spec.ports[name="http"].port').owners, ['metrics-controller (Apply)']);
  assert.equal(changed.managedFields.find((e) => e.manager === 'metrics-controller').time, '2027-05-01T10:00:00Z');
  assert.equal(deleted.object, null);
  assert.deepEqual(deleted.owners, []);
  c.dispose();
});

test('apply: a bad steps file is a BadRequest with its line', () => {
  const c = m.compile(read('examples/apply/crd.yaml'));
  assert.throws(() => c.apply('- manager: a\n  operation: Patch\n'), (e) => e instanceof CrdlabError && e.code === WIRE.Code.BadRequest && /line 2: step 1: operation "Patch"/.test(e.message));
  c.dispose();
  assert.throws(() => c.apply('[]'), (e) => e.code === WIRE.Code.Invalid);
});
