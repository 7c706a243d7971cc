// The Apply tab: server-side apply requests by field managers (a `crdlab
// apply` steps file) sent in order to one object of the Validate tab's
// CRD by the module's "apply" op, stepped through one request at a time:
// each step's outcome (ok, or the API server's 409 conflict text) and, for
// the object stored after it, every field with the managers that own it.
// The requests run in a worker of the page's module (worker.js).
import { showTab } from './tabs.js';
import { tabWorker } from './tabworker.js';

// The steps the tab opens with: two managers on the playground's CronTab.
export const applySteps = `# Server-side apply requests (crdlab apply's steps file), sent in order to one
# CronTab of the CRD on the Validate tab. Pick a step to see who owns each
# field of the object stored after it.
- manager: alice
  operation: Apply
  object:
    apiVersion: stable.example.com/v1
    kind: CronTab
    metadata: {name: nightly, namespace: default}
    spec:
      image: registry.example.com/backup:1
      replicas: 3
# The autoscaler applies replicas: alice owns them, the apply conflicts.
- manager: autoscaler
  operation: Apply
  object:
    apiVersion: stable.example.com/v1
    kind: CronTab
    metadata: {name: nightly, namespace: default}
    spec:
      replicas: 5
# Forced, the autoscaler takes replicas over.
- manager: autoscaler
  operation: Apply
  force: true
  object:
    apiVersion: stable.example.com/v1
    kind: CronTab
    metadata: {name: nightly, namespace: default}
    spec:
      replicas: 5
# alice drops replicas from her manifest: the autoscaler's value stays.
- manager: alice
  operation: Apply
  object:
    apiVersion: stable.example.com/v1
    kind: CronTab
    metadata: {name: nightly, namespace: default}
    spec:
      image: registry.example.com/backup:2
`;

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

// The steps' managers and operations, in the order of the file (for the
// step list: the result does not repeat them).
export function describeSteps(text) {
  const out = [];
  let cur = null;
  for (const line of text.split('\n')) {
    const item = /^-\s+(\w+):\s*(.*?)\s*$/.exec(line);
    const field = /^\s\s(\w+):\s*(.*?)\s*$/.exec(line);
    const m = item ?? (cur && field);
    if (item) {
      cur = { manager: '', operation: '', force: false, subresource: '' };
      out.push(cur);
    }
    if (!m || !cur) continue;
    const v = m[2].replace(/^["']|["']$/g, '');
    if (m[1] === 'manager') cur.manager = v;
    if (m[1] === 'operation') cur.operation = v;
    if (m[1] === 'force') cur.force = v === 'true';
    if (m[1] === 'subresource') cur.subresource = v;
  }
  return out;
}

/**
 * Sets up the tab. `makeEditor(parent, name)` makes the steps' editor,
 * `getCRD()` returns the CRD text, `kubeVersion()` the page's Kubernetes
 * release, `module()` the compiled module (a promise).
 */
export function setupApply({ makeEditor, getCRD, kubeVersion, module, perf }) {
  const $ = (id) => document.getElementById(id);
  const view = $('applyView');
  view.innerHTML = `
  <section class="editors">
    <div class="pane" id="applyStepsPane">
      <div class="pane-head"><h2>Requests <small>(<code>crdlab apply</code>'s steps: manager, operation Apply|Update|Delete, force, subresource, object; the CRD is the Validate tab's)</small></h2></div>
      <div class="editor" id="applyStepsEditor"></div>
    </div>
    <div class="options">
      <button id="applyPrev" title="the previous step">◀ previous</button>
      <span id="applyAt" class="muted"></span>
      <button id="applyNext" title="the next step">next ▶</button>
      <span id="applyBusy" class="busy" hidden>applying…</span>
    </div>
  </section>
  <section class="results">
    <h2>Steps <small>(as kube-apiserver answers them)</small></h2>
    <div id="applySummary" class="muted">The steps run when this tab is shown and on each edit.</div>
    <ol id="applyStepList" class="applysteps box"></ol>
    <h2>Owners <small>after step <span id="applyStepNo"></span>: every field of the stored object and the managers that own it</small></h2>
    <div id="applyOutcome"></div>
    <div id="applyOwners" class="box"></div>
    <h2>metadata.managedFields <small>(as the API server stores them)</small></h2>
    <pre id="applyManaged" class="box diff"></pre>
  </section>`;
  const editor = makeEditor($('applyStepsEditor'), 'applySteps');
  let id = 0;
  let selected = 0;
  let last = null;
  perf.apply = { runs: 0, last: null };

  function show(on) {
    if (!on) {
      if (!view.hidden) showTab('validate');
      return;
    }
    showTab('apply');
    if (!editor.state.doc.length) editor.dispatch({ changes: { from: 0, insert: applySteps } });
    start();
    run();
  }

  const engine = tabWorker({
    module,
    busy: $('applyBusy'),
    shown: () => !view.hidden,
    request: () => ({ kind: 'apply', id: ++id, crd: getCRD(), kubeVersion: kubeVersion(), steps: editor.state.doc.toString() }),
    answer: (m) => {
      if (m.id !== id) return;
      last = m;
      perf.apply.runs++;
      perf.apply.last = m;
      render();
    },
    failed: (e) => { $('applySummary').textContent = `could not load the engine: ${e.message}`; },
  });
  const start = engine.start;
  const run = engine.run;

  // Managers get a colour each, in the order they first appear.
  function colours(steps) {
    const out = new Map();
    for (const s of steps) if (s.manager && !out.has(s.manager)) out.set(s.manager, out.size % 6);
    return out;
  }

  function render() {
    const list = $('applyStepList');
    list.replaceChildren();
    $('applyOwners').replaceChildren();
    $('applyOutcome').replaceChildren();
    $('applyManaged').textContent = '';
    const sum = $('applySummary');
    const m = last;
    if (m.error || m.crdErrors) {
      sum.className = 'err';
      sum.textContent = m.error ? m.error.message : `the CRD is invalid: ${m.crdErrors.join('; ')}`;
      $('applyAt').textContent = '';
      return;
    }
    const steps = m.result.steps;
    const described = describeSteps(editor.state.doc.toString());
    const colour = colours(described);
    const failed = steps.filter((s) => s.code).length;
    sum.className = failed ? 'warn' : 'ok';
    sum.textContent = `${steps.length} step${steps.length === 1 ? '' : 's'}, ${failed} refused (${Math.round(m.ms)} ms in the engine)`;
    if (selected >= steps.length) selected = steps.length - 1;
    steps.forEach((s, i) => {
      const d = described[i] ?? {};
      const li = el('li', (s.code ? 'fail' : 'pass') + (i === selected ? ' selected' : ''));
      li.appendChild(el('span', 'mark', s.code ? '✗' : '✓'));
      const who = el('span', `owner c${colour.get(d.manager) ?? 0}`, d.manager || '(no manager)');
      li.appendChild(el('span', 'op', `${d.operation || '?'}${d.force ? ' (force)' : ''}${d.subresource ? ' /' + d.subresource : ''} by `));
      li.appendChild(who);
      li.appendChild(el('span', s.code ? 'err outcome' : 'ok outcome', s.code ? (s.conflict ? ' conflict (409)' : ` refused (${s.code})`) : ' ok'));
      li.addEventListener('click', () => { selected = i; render(); });
      list.appendChild(li);
    });
    const s = steps[selected];
    $('applyAt').textContent = `step ${selected + 1} of ${steps.length}`;
    $('applyStepNo').textContent = String(selected + 1);
    $('applyPrev').disabled = selected <= 0;
    $('applyNext').disabled = selected >= steps.length - 1;
    if (s.conflict || s.error) {
      const pre = el('pre', 'err box conflict', s.conflict || s.error);
      $('applyOutcome').appendChild(pre);
      $('applyOutcome').appendChild(el('div', 'muted', 'A refused step stores nothing: the owners below are those of the object as it was.'));
    }
    if (!s.object) {
      $('applyOwners').appendChild(el('div', 'muted', 'No object is stored after this step.'));
      return;
    }
    const table = el('table', 'owners');
    const head = el('tr');
    for (const h of ['field', 'value', 'owners']) head.appendChild(el('th', '', h));
    table.appendChild(head);
    for (const o of s.owners) {
      const tr = el('tr');
      tr.appendChild(el('td', 'path', o.path));
      tr.appendChild(el('td', 'value', JSON.stringify(o.value)));
      const td = el('td', 'who');
      if (!o.owners.length) td.appendChild(el('span', 'muted', 'nobody'));
      for (const label of o.owners) {
        const name = label.replace(/ \(.*$/, '');
        td.appendChild(el('span', `owner c${colour.get(name) ?? 0}`, label));
      }
      tr.appendChild(td);
      table.appendChild(tr);
    }
    $('applyOwners').appendChild(table);
    $('applyManaged').textContent = JSON.stringify(s.managedFields, null, 2);
  }

  $('tabApply').addEventListener('click', () => show(true));
  $('applyPrev').addEventListener('click', () => { if (selected > 0) { selected--; render(); } });
  $('applyNext').addEventListener('click', () => { selected++; render(); });

  return {
    editor,
    run,
    show,
    shown: () => !view.hidden,
    idle: engine.idle,
    select: (i) => { selected = i; if (last) render(); },
  };
}
