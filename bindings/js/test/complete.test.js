// The "complete" op through the JS binding: the playground's CEL completion
// (internal/celcomplete in the module; its cases are Go table tests).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../src/index.js';

const m = await load();
const node = {
  type: 'object',
  properties: {
    replicas: { type: 'integer', description: 'how many' },
    'max-surge': { 'x-kubernetes-int-or-string': true },
    ports: { type: 'array', items: { type: 'object', properties: { port: { type: 'integer' }, name: { type: 'string' } } } },
  },
};

test('complete: the fields of self, then its functions; the range the label replaces', () => {
  const r = m.complete(node, 'self.re');
  assert.equal(r.type, 'object');
  assert.equal(r.from, 5);
  assert.equal(r.to, 7);
  const fields = r.options.filter((o) => o.kind === 'property');
  assert.deepEqual(fields.map((o) => [o.label, o.detail, o.info]), [
    ['max__dash__surge', 'dyn (int-or-string)', 'the property "max-surge"'],
    ['ports', 'list(object)', undefined],
    ['replicas', 'int', 'how many'],
  ]);
});

test('complete: a macro variable has the element type; the root has apiVersion, kind, metadata', () => {
  assert.deepEqual(m.complete(node, 'self.ports.all(p, p.').options.map((o) => o.label), ['name', 'port']);
  const root = m.complete(JSON.stringify(node), 'self.', { root: true }).options.filter((o) => o.kind === 'property').map((o) => o.label);
  assert.deepEqual(root, ['apiVersion', 'kind', 'max__dash__surge', 'metadata', 'ports', 'replicas']);
  assert.ok(m.complete(node, 'self.ports.').options.some((o) => o.label === 'all' && o.kind === 'macro'));
});

test('complete: the cursor counts UTF-16 code units; nothing to complete is an empty list', () => {
  const expr = "'😀' != '' && self.rep == 1";
  const cursor = expr.indexOf('rep') + 3;
  const r = m.complete(node, expr, { cursor });
  assert.equal(r.from, cursor - 3, 'the typed prefix "rep" starts the range (the editor filters by it)');
  assert.equal(r.to, cursor);
  assert.ok(r.options.some((o) => o.label === 'replicas'));
  assert.deepEqual(m.complete(node, "self.replicas == 'a."), { from: 20, to: 20, type: '', options: [] });
  assert.throws(() => m.complete(node, 'self.', { cursor: 9 }), (e) => e.code === 'BadRequest' && /cursor 9 is outside/.test(e.detail));
});

test('completePolicy: a policy expression has the CRD\'s fields after object., the policy\'s variables where a name starts', async () => {
  const { readFileSync } = await import('node:fs');
  const read = (name) => readFileSync(new URL(`../../../examples/${name}`, import.meta.url), 'utf8');
  const crd = m.compile(read('crontab-crd.yaml'));
  const policy = read('admission/policy.yaml').split('\n---\n')[0];
  const r = crd.completePolicy(policy, 'object.spec.re');
  assert.equal(r.from, 12);
  assert.deepEqual(r.options.filter((o) => o.kind === 'property').map((o) => o.label), ['cronSpec', 'image', 'replicas']);
  const names = crd.completePolicy(policy, 'has(', {});
  assert.deepEqual(names.options.map((o) => o.label), ['authorizer', 'namespaceObject', 'object', 'oldObject', 'request', 'variables']);
  assert.equal(names.options.find((o) => o.label === 'request').kind, 'variable');
  assert.deepEqual(crd.completePolicy(policy, 'variables.').options.map((o) => o.label), ['replicas']);
});
