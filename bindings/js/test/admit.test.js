// The "admit" op through the JS binding: an object's validation, then the
// validating admission policies of docs/validating-policies.md's example.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load, CrdlabError } from '../src/index.js';

const examples = new URL('../../../examples/', import.meta.url);
const read = (name) => readFileSync(new URL(name, examples), 'utf8');
const m = await load();
const crd = m.compile(read('crontab-crd.yaml'));
const policies = read('admission/policy.yaml');
const crontabs = read('admission/crontabs.yaml').split('\n---\n');
const named = (name) => crontabs.find((d) => d.includes(`name: ${name},`));

test('admit: a denial names the policy and binding, with the API server message', () => {
  const r = crd.admit(named('big'), policies);
  assert.deepEqual(r.report.object.errors, []);
  assert.equal(r.admission.allowed, false);
  assert.equal(r.admission.policy, 'crontab-rules');
  assert.equal(r.admission.binding, 'crontab-rules');
  assert.equal(r.admission.message, `crontabs.stable.example.com "big" is forbidden: ValidatingAdmissionPolicy 'crontab-rules' with binding 'crontab-rules' denied request: replicas must be at most 5, not 8`);
  assert.deepEqual(r.admission.auditAnnotations, { 'crontab-rules/replicas': '8' });
});

test('admit: a Warn action is a warning; the user reaches request.userInfo', () => {
  const r = crd.admit(named('elsewhere'), policies, { user: 'jane' });
  assert.equal(r.admission.allowed, true);
  assert.deepEqual(r.admission.warnings, [
    "Validation failed for ValidatingAdmissionPolicy 'trusted-images' with binding 'trusted-images-warn': image docker.io/cron:1.0 is not from registry.example.com",
  ]);
});

test('admit: an invalid object has its report and no admission; a bad operation is an error', () => {
  const r = crd.admit(read('invalid.yaml'), policies);
  assert.equal(r.report.object.errors.length, 2);
  assert.equal(r.admission, undefined);
  assert.throws(() => crd.admit(named('small'), policies, { operation: 'PATCH' }), (e) => e instanceof CrdlabError && e.code === 'BadRequest');
});

test('admit: MutatingAdmissionPolicies mutate the object before validation and validating policies', () => {
  const r = crd.admit(named('big'), read('admission/mutating.yaml') + '\n---\n' + policies);
  assert.equal(r.mutation.allowed, true);
  assert.equal(r.mutation.mutations[0].policy, 'cap-replicas');
  assert.deepEqual(r.mutation.mutations[0].changed, ['/spec/replicas']);
  assert.equal(r.mutation.object.spec.replicas, 5);
  assert.equal(r.report.object.result.spec.replicas, 5);
  assert.equal(r.admission.allowed, true);
  assert.equal(crd.admit(named('small'), read('admission/mutating.yaml')).mutation, undefined);
});
