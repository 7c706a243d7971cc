// Shared test cases: run by node.test.js in Node and by browser.js inside
// headless Chromium. Each case takes a loaded module and returns a value
// that both environments must produce identically; `check` asserts its meaning.

export const crontabCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames: [ct]
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec:
                type: string
                pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
              image:
                type: string
              replicas:
                type: integer
                minimum: 1
                maximum: 10
                default: 1
`;

const obj = (spec, extra = '') => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-new-cron-object
${extra}spec:
${spec}`;

// setOfObjectsCRD: 1.37 warns about a list-type set of objects, 1.36 does
// not (kubeversion.ListTypeSetNonScalarWarning).
const setOfObjectsCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: pools.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: pools, singular: pool, kind: Pool}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          members:
            type: array
            x-kubernetes-list-type: set
            items: {type: object, x-kubernetes-map-type: atomic, properties: {name: {type: string}}}
`;

export const cases = [
  {
    name: 'version reports ABI 1',
    run: (m) => m.version().abi,
    check: (t, v) => t.equal(v, 1),
  },
  {
    name: 'valid CRD lints clean',
    run: (m) => m.lint(crontabCRD),
    check: (t, r) => { t.deepEqual(r.errors, []); },
  },
  {
    name: 'valid object passes and is defaulted',
    run: (m) => m.compile(crontabCRD).validate(obj('  cronSpec: "* * * * */5"\n  image: my-awesome-cron-image\n')),
    check: (t, r) => {
      t.deepEqual(r.object.errors, []);
      t.equal(r.object.result.spec.replicas, 1);
    },
  },
  {
    name: 'invalid object reports upstream errors',
    run: (m) => m.compile(crontabCRD).validate(obj('  cronSpec: "* * * *"\n  image: my-awesome-cron-image\n  replicas: 15\n')),
    check: (t, r) => {
      const fields = r.object.errors.map((e) => e.field);
      t.ok(fields.includes('spec.replicas'), JSON.stringify(r.object.errors));
      t.ok(fields.includes('spec.cronSpec'), JSON.stringify(r.object.errors));
      const rep = r.object.errors.find((e) => e.field === 'spec.replicas');
      t.equal(rep.message, 'spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10');
      t.deepEqual(rep.position, { line: 8, column: 3 });
      t.deepEqual(r.object.errors.find((e) => e.field === 'spec.cronSpec').position, { line: 6, column: 3 });
    },
  },
  {
    name: 'unknown field is a strict decoding error',
    run: (m) => m.compile(crontabCRD).validate(obj('  cronSpec: "* * * * */5"\n  color: red\n')),
    check: (t, r) => {
      t.match(r.object.decodeError, /unknown field "spec.color"/);
      t.deepEqual(r.object.decodeErrorPosition, { line: 7, column: 3 });
    },
  },
  {
    name: 'unknown field is pruned with a warning under Warn',
    run: (m) => m.compile(crontabCRD).validate(obj('  cronSpec: "* * * * */5"\n  color: red\n'), { fieldValidation: 'Warn' }),
    check: (t, r) => {
      t.deepEqual(r.object.pruned, ['spec.color']);
      t.equal(r.object.result.spec.color, undefined);
      t.ok(r.object.warnings.some((w) => w.includes('spec.color')), JSON.stringify(r.object.warnings));
      const i = r.object.warnings.findIndex((w) => w.includes('spec.color'));
      t.deepEqual(r.object.warningPositions[i], { line: 7, column: 3 });
    },
  },
  {
    name: 'update of a valid object',
    run: (m) => m.compile(crontabCRD).validate(obj('  replicas: 3\n'), { old: obj('  replicas: 2\n') }),
    check: (t, r) => { t.deepEqual(r.object.errors, []); },
  },
  {
    name: 'an update reports the stored object as read back (oldResult)',
    run: (m) => m.compile(crontabCRD).validate(obj('  replicas: 3\n'), { old: obj('  replicas: 2\n  gone: 1\n') }).object.oldResult,
    check: (t, old) => { t.equal(old.spec.replicas, 2); t.equal(old.spec.gone, undefined); t.equal(old.metadata.resourceVersion, '1'); },
  },
  {
    name: 'a CRD with an unknown field is rejected under Strict, warned under Warn',
    run: (m) => {
      const bad = crontabCRD.replace('type: object\n        properties:', 'type: object\n        bogusKeyword: 1\n        properties:');
      const strict = m.lint(bad, { filename: 'crd.yaml' });
      const warn = m.compile(bad, { crdFieldValidation: 'Warn' });
      const validated = warn.validate(obj('  replicas: 3\n'));
      return { strict, warn: warn.report, validated: validated.object.errors.length };
    },
    check: (t, v) => {
      t.match(v.strict.decodeError, /cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec\.versions\[0\]\.schema\.openAPIV3Schema\.bogusKeyword"/);
      t.match(v.strict.fieldErrorPositions[0], /^crd\.yaml:\d+:\d+: unknown field/);
      t.equal(v.warn.decodeError, undefined);
      t.deepEqual(v.warn.warnings, ['unknown field "spec.versions[0].schema.openAPIV3Schema.bogusKeyword"']);
      t.equal(v.validated, 0);
    },
  },
  {
    name: 'an undecodable CRD is a DecodeError',
    run: (m) => { try { m.compile('kind: [unclosed'); return 'no error'; } catch (e) { return e.code; } },
    check: (t, code) => t.equal(code, 'DecodeError'),
  },
  {
    name: 'timeoutMs: a generous deadline changes nothing',
    run: (m) => m.compile(crontabCRD, { timeoutMs: 60000 }).validate(obj('  replicas: 15\n'), { timeoutMs: 60000 }),
    check: (t, r) => { t.equal(r.object.errors[0].message, 'spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10'); },
  },
  {
    name: 'timeoutMs must be a non-negative number',
    run: (m) => { try { m.compile(crontabCRD).validate(obj('  replicas: 3\n'), { timeoutMs: -5 }); return 'no error'; } catch (e) { return e.code; } },
    check: (t, code) => t.equal(code, 'BadRequest'),
  },
  {
    name: 'an object over 3 MiB is refused as the API server refuses the body',
    run: (m) => m.compile(crontabCRD).validate(obj('  replicas: 3\n') + '#' + 'x'.repeat(3 << 20) + '\n'),
    check: (t, r) => t.equal(r.object.decodeError, 'Request entity too large: limit is 3145728'),
  },
  {
    name: 'malformed object JSON is reported, not thrown',
    run: (m) => m.compile(crontabCRD).validate('{"apiVersion": '),
    check: (t, r) => t.ok(r.object.decodeError && r.object.decodeError.length > 0, JSON.stringify(r.object)),
  },
  {
    name: 'a validation after dispose is refused',
    run: (m) => { const c = m.compile(crontabCRD); c.dispose(); try { c.validate(obj('  replicas: 3\n')); return 'no error'; } catch (e) { return e.code; } },
    check: (t, code) => t.equal(code, 'Invalid'),
  },
  {
    name: 'validate refuses a multi-document stream, naming the count',
    run: (m) => { try { m.compile(crontabCRD).validate(obj('  replicas: 3\n') + '---\n' + obj('  replicas: 30\n')); return 'no error'; } catch (e) { return `${e.code} ${e.message}`; } },
    check: (t, s) => t.match(s, /^Invalid .*holds 2 YAML documents/),
  },
  {
    name: 'validateAll returns one report per document with its index and line',
    run: (m) => m.compile(crontabCRD).validateAll(obj('  replicas: 3\n') + '---\n' + obj('  replicas: 30\n')),
    check: (t, docs) => {
      t.deepEqual(docs.map((d) => d.index), [0, 1]);
      t.equal(docs[0].line, 1);
      t.ok(docs[1].line > 1, `line ${docs[1].line}`);
      t.deepEqual(docs[0].report.object.errors, []);
      t.match(docs[1].report.object.errors[0].message, /replicas/);
    },
  },
  {
    name: 'validateAll carries timeoutMs: documents past the deadline answer Timeout',
    run: (m) => m.compile(crontabCRD).validateAll((obj('  replicas: 3\n') + '---\n').repeat(3000), { timeoutMs: 1 }),
    check: (t, docs) => {
      t.equal(docs.length, 3000);
      const last = docs[docs.length - 1];
      t.equal(last.error && last.error.code, 'Timeout', JSON.stringify(last));
      t.match(last.error.message, /validating document 2999: context deadline exceeded/);
    },
  },
  {
    name: 'cost reports the static cost of a CEL rule',
    run: (m) => m.cost(crontabCRD.replace('            properties:\n              cronSpec:', '            x-kubernetes-validations:\n            - rule: "self.replicas <= 5"\n            properties:\n              cronSpec:')),
    check: (t, r) => { t.ok(JSON.stringify(r).includes('self.replicas <= 5'), JSON.stringify(r)); t.equal(r.rules[0].expression, 'self.replicas <= 5'); t.equal(typeof r.totalEstimatedCost, 'number'); },
  },
  {
    name: '1,000-deep nesting is validated like any object',
    run: (m) => {
      const deep = '['.repeat(1000) + ']'.repeat(1000);
      const r = m.compile(crontabCRD).validate(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x"},"spec":{"image":${deep}}}`);
      return r.object.errors.map((e) => e.message);
    },
    check: (t, msgs) => t.deepEqual(msgs, ['spec.image: Invalid value: "array": spec.image in body must be of type string: "array"']),
  },
  {
    // V8's call stack (Node, Chromium) holds about 2,000 levels of the
    // engine's recursive decoding: deeper input fails with a Trap, the
    // instance is replaced and the next call works (wazero has no such limit).
    name: '10,000-deep nesting fails cleanly, the module survives',
    run: async (m) => {
      const deep = '['.repeat(10000) + ']'.repeat(10000);
      let failed;
      try {
        const r = m.compile(crontabCRD).validate(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x"},"spec":{"image":${deep}}}`);
        failed = r.object.decodeError !== undefined || r.object.errors.length > 0;
      } catch (e) {
        failed = e.code === 'Trap';
      }
      await m.ready();
      const after = m.compile(crontabCRD).validate(obj('  replicas: 3\n')).object.errors.length;
      return { failed, after, abi: m.version().abi };
    },
    check: (t, v) => { t.ok(v.failed); t.equal(v.after, 0); t.equal(v.abi, 1); },
  },
  {
    // The release is a compile option: the expected values are the native
    // engine's (crdlab validate/lint -o json --kube-version; the Go
    // bindings' TestParityAtEveryRelease compares the two byte for byte).
    name: 'kubeVersion selects the Kubernetes release of the verdict',
    run: (m) => {
      const v = m.version();
      const crd = crontabCRD.replace(/replicas:\n(\s+)type: integer\n\s+minimum: 1\n\s+maximum: 10\n\s+default: 1\n/, 'replicas:\n$1type: integer\n$1format: int32\n');
      const huge = obj('  replicas: 4294967296\n');
      const at = (kubeVersion) => {
        const c = m.compile(crd, { kubeVersion });
        const r = c.validate(huge);
        c.dispose();
        return [c.kubeVersion, r.object.errors.map((e) => e.message)];
      };
      const pools = setOfObjectsCRD;
      let bad;
      try { m.lint(pools, { kubeVersion: '1.30' }); } catch (e) { bad = [e.code, e.detail]; }
      let numeric;
      try { m.lint(pools, { kubeVersion: 1.36 }); } catch (e) { numeric = e.code; }
      return {
        kubeVersions: v.kubeVersions, defaultKubeVersion: v.defaultKubeVersion,
        k135: at('1.35'), k136: at('v1.36'), dflt: at(undefined),
        warn137: m.lint(pools).warnings, warn136: m.lint(pools, { kubeVersion: '1.36' }).warnings,
        bad, numeric,
      };
    },
    check: (t, v) => {
      t.deepEqual(v.kubeVersions, ['1.38', '1.37', '1.36', '1.35', '1.34', '1.33', '1.32', '1.31']);
      t.equal(v.defaultKubeVersion, '1.37');
      t.deepEqual(v.k135, ['1.35', []]);
      const int32 = ['<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.replicas'];
      t.deepEqual(v.k136, ['1.36', int32]);
      t.deepEqual(v.dflt, ['1.37', int32]);
      t.deepEqual(v.warn137, ['x-kubernetes-list-type: set for items of type "object" is not supported by server-side apply or CEL validation rules']);
      t.deepEqual(v.warn136, []);
      t.deepEqual(v.bad, ['BadRequest', 'unsupported Kubernetes version "1.30" (supported: 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37, 1.38)']);
      t.equal(v.numeric, 'BadRequest');
    },
  },
];
