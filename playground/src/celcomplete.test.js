// Unit tests of CEL completion: node --test (npm test in playground/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completeCEL, escapeName, schemaType, tokenize } from './celcomplete.js';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        image: { type: 'string' },
        'max-surge': { 'x-kubernetes-int-or-string': true },
        namespace: { type: 'string' },
        timeout: { type: 'string', format: 'duration' },
        created: { type: 'string', format: 'date-time' },
        items: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' }, ports: { type: 'array', items: { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string' } } } } } },
        },
        tags: { type: 'array', items: { type: 'string' } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        backends: { type: 'object', additionalProperties: { type: 'object', properties: { host: { type: 'string' }, weight: { type: 'integer' } } } },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};
const spec = schema.properties.spec;

const labels = (r) => (r ? r.options.map((o) => o.label).sort() : null);
const has = (r, ...names) => {
  const l = labels(r);
  assert.ok(l, 'no completion');
  for (const n of names) assert.ok(l.includes(n), `${n} not in ${JSON.stringify(l)}`);
};
const lacks = (r, ...names) => { for (const n of names) assert.ok(!labels(r).includes(n), `${n} offered`); };

test('object properties, escaped as CEL spells them', () => {
  const r = completeCEL(spec, 'self.');
  has(r, 'replicas', 'image', 'max__dash__surge', '__namespace__', 'items', 'labels', 'template');
  assert.equal(r.from, 5);
  assert.equal(r.type, 'object');
  // the typed prefix is replaced: from points at its start
  assert.equal(completeCEL(spec, 'self.rep').from, 5);
  assert.equal(escapeName('a.b/c__d'), 'a__dot__b__slash__c__underscores__d');
  assert.equal(escapeName('in'), '__in__');
  assert.equal(escapeName('1x'), null);
});

test('oldSelf has the type of self; nested selects', () => {
  assert.deepEqual(labels(completeCEL(spec, 'self.replicas == oldSelf.')), labels(completeCEL(spec, 'self.')));
  has(completeCEL(schema, 'self.spec.'), 'replicas', 'items');
});

test('the root of the resource has apiVersion, kind and metadata.name/generateName', () => {
  has(completeCEL(schema, 'self.', { root: true }), 'apiVersion', 'kind', 'metadata', 'spec');
  assert.deepEqual(labels(completeCEL(schema, 'self.metadata.', { root: true })), ['generateName', 'name']);
  assert.equal(labels(completeCEL(schema, 'self.')).includes('kind'), false);
});

test('embedded resources have apiVersion, kind, metadata; preserve-unknown-fields objects their declared fields only', () => {
  assert.deepEqual(labels(completeCEL(spec, 'self.template.')), ['apiVersion', 'kind', 'metadata']);
  assert.deepEqual(labels(completeCEL(spec, 'self.template.metadata.')), ['generateName', 'name']);
  assert.equal(completeCEL(spec, 'self.raw.'), null);
  // a rule on the embedded resource itself
  has(completeCEL(spec.properties.template, 'self.'), 'apiVersion', 'kind', 'metadata');
});

test('list items: indexes and macro variables get the element type', () => {
  has(completeCEL(spec, 'self.items[0].'), 'name', 'ports');
  has(completeCEL(spec, 'self.items[size(self.items) - 1].ports[0].'), 'port', 'protocol');
  assert.deepEqual(labels(completeCEL(spec, 'self.items.all(x, x.')), ['name', 'ports']);
  assert.deepEqual(labels(completeCEL(spec, 'self.items.exists(item, item.na')), ['name', 'ports']);
  assert.deepEqual(labels(completeCEL(spec, 'self.items.map(x, x.')), ['name', 'ports']);
  // nested macros: the inner variable has the inner element type
  assert.deepEqual(labels(completeCEL(spec, 'self.items.all(i, i.ports.all(p, p.')), ['port', 'protocol']);
  // after the macro closed, its variable is gone
  assert.equal(completeCEL(spec, 'self.items.all(x, true) && x.'), null);
  // two-variable comprehensions: index/element
  has(completeCEL(spec, 'self.items.all(i, v, v.'), 'name');
  has(completeCEL(spec, 'self.items.filter(x, x.name != "").map(y, y.'), 'name');
  // the variable of a macro over strings is a string
  has(completeCEL(spec, "self.tags.all(t, t."), 'startsWith', 'matches');
});

test('map values: index, select, and map macros bind the key', () => {
  has(completeCEL(spec, "self.labels['app']."), 'startsWith', 'size');
  has(completeCEL(spec, "self.backends['a']."), 'host', 'weight');
  has(completeCEL(spec, 'self.backends.primary.'), 'host', 'weight');
  has(completeCEL(spec, 'self.backends.all(k, k.'), 'startsWith');
  has(completeCEL(spec, 'self.backends.all(k, v, v.'), 'host');
  has(completeCEL(spec, 'self.labels.'), 'all', 'exists', 'size', 'filter', 'map');
  lacks(completeCEL(spec, 'self.labels.'), 'startsWith', 'sum');
});

test('functions for the receiver type', () => {
  const s = completeCEL(spec, 'self.image.');
  has(s, 'startsWith', 'endsWith', 'matches', 'contains', 'size', 'find', 'findAll', 'lowerAscii', 'split', 'substring', 'format');
  lacks(s, 'all', 'replicas', 'reverse');
  const l = completeCEL(spec, 'self.items.');
  has(l, 'size', 'all', 'exists', 'exists_one', 'map', 'filter', 'isSorted', 'sum', 'min', 'max', 'indexOf', 'includes', 'sortBy', 'distinct', 'slice');
  lacks(l, 'join', 'startsWith');
  has(completeCEL(spec, 'self.tags.'), 'join');
  has(completeCEL(spec, 'self.timeout.'), 'getSeconds');
  has(completeCEL(spec, 'self.created.'), 'getFullYear', 'getDayOfWeek');
  // integers and int-or-string have nothing to complete
  assert.equal(completeCEL(spec, 'self.replicas.'), null);
  assert.equal(completeCEL(spec, 'self.max__dash__surge.'), null);
});

test('the Kubernetes libraries: quantity, url, ip, cidr, semver, format', () => {
  has(completeCEL(spec, "quantity('1Gi')."), 'isLessThan', 'add', 'asInteger');
  has(completeCEL(spec, "quantity(self.image).add(1)."), 'isGreaterThan');
  has(completeCEL(spec, 'url(self.image).'), 'getHost', 'getScheme', 'getQuery');
  has(completeCEL(spec, 'ip(self.image).'), 'family', 'isLoopback');
  has(completeCEL(spec, "cidr('10.0.0.0/8')."), 'containsIP', 'prefixLength', 'masked');
  has(completeCEL(spec, "cidr('10.0.0.0/8').ip()."), 'family');
  has(completeCEL(spec, "semver('1.2.3')."), 'major', 'isLessThan');
  has(completeCEL(spec, 'format.dns1123Label().'), 'validate');
  has(completeCEL(spec, "self.image.split('/')."), 'join', 'size');
  has(completeCEL(spec, 'self.items.filter(x, true).'), 'map', 'size');
});

test('optional selects offer fields (.?) and the optional type\'s functions', () => {
  assert.deepEqual(labels(completeCEL(spec, 'self.?')), labels(completeCEL(spec, 'self.')).filter((n) => !['all'].includes(n)));
  has(completeCEL(spec, 'self.?image.'), 'hasValue', 'orValue', 'value');
  has(completeCEL(spec, 'self.?image.value().'), 'startsWith');
});

test('no completion where there is nothing to complete', () => {
  assert.equal(completeCEL(spec, 'self'), null);
  assert.equal(completeCEL(spec, 'self.nope.'), null);
  assert.equal(completeCEL(spec, "self.image == 'a.'"), null, 'inside a string literal');
  assert.equal(completeCEL(spec, 'unknown.'), null);
  assert.equal(completeCEL(spec, '1.'), null);
  assert.equal(schemaType({ type: 'array' }), null);
});

test('tokenize', () => {
  assert.deepEqual(tokenize(`self.a["x.y"] // c\n r'\\d'`).map((t) => t.t + (t.v ?? '')), ['idself', 'p.', 'ida', 'p[', 'str', 'p]', 'str']);
});
