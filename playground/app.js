// The playground: edits in, crdlab's WebAssembly engine, results out.
import { load } from './crdlab/index.js';

const $ = (id) => document.getElementById(id);

const sampleCRD = `apiVersion: apiextensions.k8s.io/v1
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
            x-kubernetes-validations:
            - rule: "self.replicas <= 5 || self.image.startsWith('registry.example.com/')"
              message: "more than 5 replicas need an image from registry.example.com"
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
const sampleObject = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-new-cron-object
spec:
  cronSpec: "* * * *"
  image: my-awesome-cron-image
  replicas: 15
  color: blue
`;

const params = new URLSearchParams(location.hash.slice(1));
$('crd').value = params.get('crd') ?? sampleCRD;
$('object').value = params.get('object') ?? sampleObject;
$('old').value = params.get('old') ?? '';

let engine;
let compiled;
let compiledSrc;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function list(items, cls) {
  const ul = el('ul');
  for (const it of items) ul.appendChild(el('li', cls, it));
  return ul;
}

function showReport(box, rep, okText) {
  box.replaceChildren();
  if (rep.errors.length === 0) box.appendChild(el('div', 'ok', okText));
  else box.appendChild(list(rep.errors.map((e) => e.message), 'err'));
  if (rep.warnings.length) box.appendChild(list(rep.warnings.map((w) => `Warning: ${w}`), 'warn'));
}

function run() {
  if (!engine) return;
  const crdBox = $('crdResult');
  const objBox = $('objectResult');
  try {
    if (compiledSrc !== $('crd').value) {
      compiled?.dispose();
      compiled = engine.compile($('crd').value);
      compiledSrc = $('crd').value;
      const sel = $('version');
      const cur = sel.value;
      sel.replaceChildren(new Option('(from apiVersion)', ''));
      for (const v of compiled.versions) sel.appendChild(new Option(v, v));
      sel.value = compiled.versions.includes(cur) ? cur : '';
    }
  } catch (e) {
    compiled = undefined;
    compiledSrc = undefined;
    crdBox.replaceChildren(el('div', 'err', e.detail ?? String(e)));
    objBox.replaceChildren();
    $('final').textContent = '';
    return;
  }
  showReport(crdBox, compiled.report, 'The CRD is valid.');
  if (compiled.errors.length) {
    objBox.replaceChildren(el('div', 'warn', 'Fix the CRD first: the API server would not serve it.'));
    $('final').textContent = '';
    showCosts();
    return;
  }
  const opts = { fieldValidation: $('fieldValidation').value, subresource: $('subresource').value, version: $('version').value };
  if ($('old').value.trim()) opts.old = $('old').value;
  let rep;
  try {
    rep = compiled.validate($('object').value, opts);
  } catch (e) {
    objBox.replaceChildren(el('div', 'err', e.detail ?? String(e)));
    return;
  }
  const o = rep.object;
  if (o.decodeError) {
    objBox.replaceChildren(el('div', 'err', o.decodeError));
  } else {
    showReport(objBox, o, opts.old ? 'The update would be accepted.' : 'The object would be accepted.');
    if (o.pruned.length) objBox.appendChild(el('div', 'pruned', `pruned: ${o.pruned.join(', ')}`));
  }
  $('final').textContent = o.result === null || o.result === undefined ? '' : JSON.stringify(o.result, null, 2);
  showCosts();
  history.replaceState(null, '', '#' + new URLSearchParams({ crd: $('crd').value, object: $('object').value, ...(opts.old ? { old: opts.old } : {}) }));
}

const fmt = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : '');

// showCosts lists every rule and messageExpression with the API server's
// static estimate against the 10,000,000 per-expression limit, the schema
// total against the 100,000,000 per-CRD limit, the bounds that would bring
// an expensive rule under, and the runtime cost on the current object.
function showCosts() {
  const box = $('costs');
  let rep;
  try {
    rep = engine.cost($('crd').value, [$('object').value]);
  } catch (e) {
    box.replaceChildren(el('div', 'err', e.detail ?? String(e)));
    return;
  }
  const rules = rep.rules ?? [];
  if (rules.length === 0) {
    box.replaceChildren(el('div', 'ok', 'The CRD has no x-kubernetes-validations rules.'));
    return;
  }
  const table = el('table', 'costs');
  const head = table.createTHead().insertRow();
  for (const h of ['rule', 'at', 'estimate (min..max)', 'cardinality', 'cost (max × cardinality)', 'on this object']) head.appendChild(el('th', '', h));
  const body = table.createTBody();
  for (const r of rules) {
    const tr = body.insertRow();
    const expr = el('td');
    expr.appendChild(el('code', '', r.expression));
    if (r.field === 'messageExpression') expr.appendChild(el('div', 'pruned', 'messageExpression'));
    for (const s of r.suggestions ?? []) expr.appendChild(el('div', 'warn', `fix: ${s.keyword} ≤ ${fmt(s.max)} on ${s.dataPath}`));
    tr.appendChild(expr);
    tr.appendChild(el('td', '', r.dataPath ?? r.path));
    tr.appendChild(el('td', 'num', r.estimate ? `${fmt(r.estimate.min)}..${fmt(r.estimate.max)}` : ''));
    tr.appendChild(el('td', 'num', fmt(r.cardinality)));
    tr.appendChild(el('td', r.overBudget ? 'num over' : 'num', `${fmt(r.estimatedCost)}${r.overBudget ? ' — over the 10,000,000 limit' : ''}`));
    tr.appendChild(el('td', 'num', (r.runtimeCost ?? []).length ? fmt(r.runtimeCost[0]) : ''));
  }
  const total = el('div', rep.totalLimitShare > 1 ? 'over' : 'pruned',
    `CRD total: ${fmt(rep.totalEstimatedCost)} of the 100,000,000 limit` +
    ((rep.objects ?? [])[0]?.totalCost !== undefined ? `; this object: ${fmt(rep.objects[0].totalCost)} of its 10,000,000 runtime budget` : ''));
  box.replaceChildren(table, total);
}

let timer;
for (const id of ['crd', 'object', 'old', 'fieldValidation', 'subresource', 'version']) {
  $(id).addEventListener('input', () => {
    if (!$('live').checked) return;
    clearTimeout(timer);
    timer = setTimeout(run, 250);
  });
}
$('run').addEventListener('click', run);

const t0 = performance.now();
load(new URL('./crdlab.wasm', import.meta.url)).then((m) => {
  engine = m;
  const v = m.version();
  $('status').textContent = `engine ${v.engine} (ABI ${v.abi}) ready in ${Math.round(performance.now() - t0)} ms`;
  $('run').disabled = false;
  run();
}, (e) => {
  $('status').textContent = `could not load the engine: ${e.message}`;
});
