// The kubeVersion option of every call that gives a verdict (compile and
// lint are in cases.js, run in Node and Chromium). The expected verdicts
// are the native engine's at each release (crdlab ... --kube-version; the
// Go bindings' TestKubeVersionOptions compares the module's bytes with the
// native packages').
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, CrdlabError, WIRE } from '../src/index.js';

const root = new URL('../../../', import.meta.url).pathname;
const read = (p) => readFileSync(join(root, p), 'utf8');
const m = await load();
const gadgets = read('examples/kube-versions/gadgets-crd.yaml');
const widgets = read('examples/kube-versions/widgets-crd.yaml');
const huge = '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"huge"},"spec":{"replicas":4294967296}}';
const unsupported = 'unsupported Kubernetes version "1.30" (supported: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37, 1.38)';
const badRequest = (e) => e instanceof CrdlabError && e.code === WIRE.Code.BadRequest && e.detail === unsupported;

test('cost at 1.35: the rule over metadata.name is over budget (MetadataNameSizeCap arrived in 1.37)', () => {
  assert.equal(m.cost(gadgets).accepted, true);
  const old = m.cost(gadgets, [], { kubeVersion: '1.35' });
  assert.equal(old.accepted, false);
  assert.match(old.costErrors[0].detail, /estimated rule cost exceeds budget by factor of/);
  assert.throws(() => m.cost(gadgets, [], { kubeVersion: '1.30' }), badRequest);
});

test('upgrade at a release: the create of a stored object is judged as that release judges it (the no-op update ratchets)', () => {
  const at = (kubeVersion) => m.upgrade(widgets, widgets, [huge], { kubeVersion }).objects[0].reads[0].create.allowed;
  assert.equal(at('1.35'), true);
  assert.equal(at('1.36'), false);
  assert.throws(() => m.upgrade(widgets, widgets, [huge], { kubeVersion: '1.30' }), badRequest);
});

test('test() with kubeVersion overrides the suites\' release', () => {
  const files = { 'widgets-crd.yaml': widgets, 'huge.crdtest.yaml': `name: huge\ncrd: widgets-crd.yaml\ntests:\n  onCreate:\n  - name: huge\n    initial: '${huge}'\n` };
  assert.deepEqual([m.test(files, { kubeVersion: '1.35' }).failed, m.test(files, { kubeVersion: '1.36' }).failed, m.test(files).failed], [0, 1, 1]);
  assert.throws(() => m.test(files, { kubeVersion: '1.30' }), badRequest);
});

test('conversionReview, schema and compile with oldCrd take kubeVersion', () => {
  const crd = read('examples/conversion/crd.yaml');
  const review = read('examples/conversion/request.json');
  assert.equal(m.conversionReview(crd, review, read('examples/conversion/response.json'), { kubeVersion: '1.35' }).accepted, true);
  assert.throws(() => m.conversionReview(crd, review, undefined, { kubeVersion: '1.30' }), badRequest);
  assert.equal(m.schema(widgets, { kubeVersion: '1.36' }).schemas.length, 1);
  assert.throws(() => m.schema(widgets, { kubeVersion: '1.30' }), badRequest);
  const c = m.compile(widgets, { oldCrd: widgets, kubeVersion: '1.35' });
  assert.equal(c.kubeVersion, '1.35');
  assert.deepEqual(c.validate(huge).object.errors, []);
  c.dispose();
  assert.throws(() => m.compile(widgets, { kubeVersion: 136 }), (e) => e.code === WIRE.Code.BadRequest && /must be a string/.test(e.detail));
});
