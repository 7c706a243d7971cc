// Unit tests of ruleAt (where the cursor is in a CRD's CEL rule): node --test.
// The completion itself is the module's "complete" op (bindings/js tests).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ruleAt } from './yamlpath.js';

const crd = `spec:
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - rule: "self.spec.items.all(x, x.name != \\"a.\\" && x."
        - rule: 'self.metadata.'
        - messageExpression: >-
            'bad: ' + self.
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: self.items[0].
            properties:
              items:
                type: array
                items: {type: object, properties: {name: {type: string}}}
`;
const at = (needle) => ruleAt(crd, crd.indexOf(needle) + needle.length);

test('the rule text up to the cursor, unquoted; root or not', () => {
  const a = at('&& x.');
  assert.equal(a.root, true);
  assert.equal(a.field, 'rule');
  assert.equal(a.before, 'self.spec.items.all(x, x.name != "a." && x.');
  assert.deepEqual(Object.keys(a.schema.properties), ['spec'], 'the schema node that carries the rule');
  assert.equal(at("'self.metadata.").before, 'self.metadata.');
  const m = at("'bad: ' + self.");
  assert.equal(m.field, 'messageExpression');
  assert.equal(m.before, "'bad: ' + self.");
  const nested = at('rule: self.items[0].');
  assert.equal(nested.root, false);
  assert.equal(nested.before, 'self.items[0].');
  assert.deepEqual(Object.keys(nested.schema.properties), ['items']);
});

test('outside a rule: null', () => {
  assert.equal(ruleAt(crd, crd.indexOf('type: array')), null);
  assert.equal(ruleAt(crd, crd.indexOf('- name: v1') + 4), null);
});
