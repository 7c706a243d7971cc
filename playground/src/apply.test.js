// describeSteps reads each step's manager and operation from the steps
// file for the Apply tab's list (the module's result does not repeat them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeSteps, applySteps } from './apply.js';

test('the default steps: two managers, one forced apply', () => {
  assert.deepEqual(describeSteps(applySteps).map((s) => [s.manager, s.operation, s.force]), [
    ['alice', 'Apply', false], ['autoscaler', 'Apply', false], ['autoscaler', 'Apply', true], ['alice', 'Apply', false],
  ]);
});

test('fields in any order, quoted values, a status write, a delete without a manager', () => {
  const steps = describeSteps(`
- operation: Update
  manager: "ci"
  object: {a: 1}
- manager: 'w'
  operation: Apply
  subresource: status
  object:
    manager: not-this-one
- operation: Delete
`);
  assert.deepEqual(steps, [
    { manager: 'ci', operation: 'Update', force: false, subresource: '' },
    { manager: 'w', operation: 'Apply', force: false, subresource: 'status' },
    { manager: '', operation: 'Delete', force: false, subresource: '' },
  ]);
});
