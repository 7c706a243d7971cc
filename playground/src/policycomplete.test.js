// Unit tests of policyExprAt (where the cursor is in an admission policy's
// CEL expression): node --test. The completion itself is the module's
// "complete" op (Go table tests, bindings/js tests).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { policyExprAt } from './policycomplete.js';

const text = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: b}
spec: {policyName: p}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: p
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [stable.example.com], apiVersions: [v1], operations: [CREATE], resources: [crontabs]}
  variables:
  - name: replicas
    expression: object.spec.replicas
  validations:
  - expression: "variables.replicas <= 5 && object.spec.im"
    messageExpression: 'object.spec.image + ''x'' + object.'
  - expression: >-
      has(object.spec) &&
      object.sp
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: m}
spec:
  mutations:
  - patchType: JSONPatch
    jsonPatch:
      expression: '[JSONPatch{op: "add", path: "/spec/x", value: object.spec.'
`;

const at = (marker, skip = 0) => {
  let i = -1;
  for (let k = 0; k <= skip; k++) i = text.indexOf(marker, i + 1);
  assert.ok(i >= 0, marker);
  return i + marker.length;
};

test('policyExprAt: the expression up to the cursor, in every style of scalar', () => {
  assert.equal(policyExprAt(text, at('object.spec.rep')).before, 'object.spec.rep');
  assert.equal(policyExprAt(text, at('object.spec.im')).before, 'variables.replicas <= 5 && object.spec.im');
  assert.equal(policyExprAt(text, at("''x'' + object.")).before, "object.spec.image + 'x' + object.");
  assert.equal(policyExprAt(text, at('&&\n      object.sp')).before, 'has(object.spec) &&\nobject.sp');
  const m = policyExprAt(text, at('value: object.spec.'));
  assert.equal(m.before, '[JSONPatch{op: "add", path: "/spec/x", value: object.spec.');
  assert.equal(m.field, 'expression');
});

test('policyExprAt: the policy document, the expression typed replaced so that it decodes', () => {
  const r = policyExprAt(text, at('object.spec.im'));
  const doc = parse(r.policy);
  assert.equal(doc.kind, 'ValidatingAdmissionPolicy');
  assert.equal(doc.spec.validations[0].expression, '');
  assert.equal(doc.spec.variables[0].expression, 'object.spec.replicas');
  assert.equal(parse(policyExprAt(text, at('&&\n      object.sp')).policy).spec.validations[1].expression, '');
});

test('policyExprAt: nothing outside a policy expression', () => {
  assert.equal(policyExprAt(text, at('name: rep')), null); // a variable's name
  assert.equal(policyExprAt(text, at('policyName: p')), null); // a binding
  assert.equal(policyExprAt(text, at('resources: [cront')), null);
  assert.equal(policyExprAt(text, at('  - expression: ')), null); // before the opening quote
  assert.equal(policyExprAt('', 0), null);
});

test('policyExprAt: an expression whose quote is not closed yet ends at its line', () => {
  const open = text.replace('"variables.replicas <= 5 && object.spec.im"', '"object.spec.');
  const r = policyExprAt(open, open.indexOf('"object.spec.') + '"object.spec.'.length);
  assert.equal(r.before, 'object.spec.');
  assert.equal(parse(r.policy).spec.variables[0].name, 'replicas');
});
