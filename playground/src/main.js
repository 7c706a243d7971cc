// The playground: CodeMirror editors in, crdlab's engine in Web Workers
// (worker.js), results out. The main thread never calls the engine.
import { EditorState, Compartment } from '@codemirror/state';
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, highlightSpecialChars, rectangularSelection, dropCursor,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { foldGutter, foldKeymap, indentOnInput, bracketMatching, syntaxHighlighting, HighlightStyle } from '@codemirror/language';
import { searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { autocompletion, completionKeymap, closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { lintGutter, lintKeymap, setDiagnostics } from '@codemirror/lint';
import { yaml } from '@codemirror/lang-yaml';
import { tags as t } from '@lezer/highlight';
import { parse as parseYAML, stringify as toYAML } from 'yaml';
import { locate, ruleAt, warningField } from './yamlpath.js';
import { decodeState } from './share.js';
import { celHighlight } from './celhighlight.js';
import { examples, crontabCRD, crontabObject } from './examples.js';
import { schemaPanel, benchButton } from './schemabench.js';
import { setupTests } from './tests.js';
import { setupPolicy } from './policy.js';
import { currentTab } from './tabs.js';
import { setupApply } from './apply.js';

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

// Measurements the e2e test reads (benchmarks/README.md).
const perf = (window.__crdlab = { results: 0, costs: 0, lastLatency: null, firstResultAt: null, requests: 0, handlers: {}, slow: [] });
// timed records the longest run of each of the page's own handlers (the
// e2e test compares them with the long tasks it observes).
const timed = (name, fn) => function (...args) {
  const t = performance.now();
  try {
    return fn.apply(this, args);
  } finally {
    const d = performance.now() - t;
    if (!(perf.handlers[name] >= d)) perf.handlers[name] = d;
    if (d > 30) perf.slow.push([name, Math.round(d), Math.round(t)]);
  }
};

// ---- theme ---------------------------------------------------------------
const THEME_KEY = 'crdlab-theme';
function applyTheme(theme) {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  const dark = theme ? theme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  $('theme').textContent = dark ? '☀ light' : '☾ dark';
  $('theme').title = 'switch to the ' + (dark ? 'light' : 'dark') + ' theme (remembered)';
}
applyTheme(localStorage.getItem(THEME_KEY));
$('theme').addEventListener('click', () => {
  const dark = getComputedStyle(document.documentElement).getPropertyValue('--scheme').trim() === 'dark';
  const next = dark ? 'light' : 'dark';
  localStorage.setItem(THEME_KEY, next);
  applyTheme(next);
});
matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => applyTheme(localStorage.getItem(THEME_KEY)));

// One theme for both schemes: colours are CSS variables (style.css).
const highlight = HighlightStyle.define([
  { tag: [t.propertyName, t.definition(t.propertyName)], color: 'var(--hl-key)' },
  { tag: [t.string, t.special(t.string), t.content], color: 'var(--hl-string)' },
  { tag: [t.number, t.bool, t.null, t.atom], color: 'var(--hl-atom)' },
  { tag: [t.comment, t.lineComment], color: 'var(--hl-comment)', fontStyle: 'italic' },
  { tag: [t.meta, t.keyword, t.labelName, t.typeName, t.punctuation, t.separator], color: 'var(--hl-meta)' },
]);
const editorTheme = EditorView.theme({
  '&': { color: 'var(--fg)', backgroundColor: 'var(--editor-bg)', height: '100%' },
  '.cm-content': { caretColor: 'var(--fg)', fontFamily: 'var(--mono)' },
  '.cm-gutters': { backgroundColor: 'var(--gutter-bg)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--active-line)' },
  '&.cm-focused .cm-cursor': { borderLeftColor: 'var(--fg)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': { backgroundColor: 'var(--selection) !important' },
  '.cm-tooltip': { backgroundColor: 'var(--panel-bg)', color: 'var(--fg)', border: '1px solid var(--border)' },
  '.cm-panels': { backgroundColor: 'var(--panel-bg)', color: 'var(--fg)' },
  '.cm-scroller': { overflow: 'auto' },
});

// ---- completion in CEL rules (the module's "complete" op) ----------------
// The page finds the rule under the cursor (yamlpath.js: the schema node
// that carries it and the expression before the cursor); the validation
// worker answers with the engine's completion (internal/celcomplete, the
// one `crdlab lsp` serves). An async source: CodeMirror keeps the editor
// responsive and drops an answer the user has typed past.
let completeId = 0;
const completeWaiting = new Map(); // id -> resolve
const CM_TYPE = { property: 'property', method: 'method', macro: 'keyword' };
function celCompletion(ctx) {
  const at = ruleAt(ctx.state.doc.toString(), ctx.pos);
  if (!at) return null;
  const id = ++completeId;
  perf.completeRequests = (perf.completeRequests ?? 0) + 1;
  return new Promise((resolve) => {
    completeWaiting.set(id, resolve);
    validator.postMessage({ kind: 'complete', id, schemaNode: at.schema, root: at.root, expression: at.before });
  }).then((r) => {
    if (ctx.aborted || !r || !r.options.length) return null;
    perf.completions = (perf.completions ?? 0) + 1;
    return {
      from: ctx.pos - (at.before.length - r.from),
      options: r.options.map((o) => ({ label: o.label, type: CM_TYPE[o.kind] ?? o.kind, detail: o.detail, info: o.info || undefined })),
      validFor: /^\w*$/,
    };
  });
}
function completionAnswer(m) {
  const resolve = completeWaiting.get(m.id);
  completeWaiting.delete(m.id);
  resolve?.(m.result ?? null);
}

// ---- editors -------------------------------------------------------------
let scheduleRun = () => {};
let scheduleTests = () => {};
let schedulePolicy = () => {};
let scheduleApply = () => {};

function makeEditor(parent, name, doc, extra = []) {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), highlightSpecialChars(), history(), foldGutter(),
        drawSelection(), dropCursor(), EditorState.allowMultipleSelections.of(true), indentOnInput(),
        syntaxHighlighting(highlight), bracketMatching(), closeBrackets(), rectangularSelection(),
        highlightActiveLine(), highlightSelectionMatches(), lintGutter(),
        name === 'crd' ? [autocompletion({ override: [celCompletion] }), celHighlight] : [],
        extra,
        keymap.of([
          { key: 'Mod-Enter', run: () => { runNow(); return true; } },
          indentWithTab,
          ...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap,
          ...foldKeymap, ...completionKeymap, ...lintKeymap,
        ]),
        yaml(), editorTheme,
        EditorView.updateListener.of(timed('edit', (u) => {
          if (!u.docChanged) return;
          if (name === 'suite') return scheduleTests();
          if (name === 'policy') return schedulePolicy();
          if (name === 'applySteps') return scheduleApply();
          perf.editAt = performance.now();
          scheduleRun();
        })),
        EditorView.contentAttributes.of({ 'aria-label': name + ' editor' }),
      ],
    }),
  });
  // A dropped file replaces the editor's text (CodeMirror would insert it).
  const host = parent.closest('.pane');
  host.addEventListener('dragover', (ev) => { ev.preventDefault(); host.classList.add('dragging'); });
  host.addEventListener('dragleave', () => host.classList.remove('dragging'));
  host.addEventListener('drop', (ev) => {
    host.classList.remove('dragging');
    const f = ev.dataTransfer?.files?.[0];
    if (!f) return;
    ev.preventDefault();
    ev.stopPropagation();
    f.text().then((s) => setText(name, s));
  }, true);
  return view;
}

const editors = {
  crd: makeEditor($('crdEditor'), 'crd', ''),
  object: makeEditor($('objectEditor'), 'object', ''),
  old: makeEditor($('oldEditor'), 'old', ''),
  oldCrd: makeEditor($('oldCrdEditor'), 'oldCrd', ''),
};
perf.editors = editors;

// The Tests tab (tests.js): its suite runs against the CRD editor's text.
let wasmModuleReady;
const wasmModulePromise = new Promise((resolve) => { wasmModuleReady = resolve; });
const tests = setupTests({
  makeEditor: (parent, name) => (editors[name] = makeEditor(parent, name, '')),
  getCRD: () => getText('crd'),
  kubeVersion: () => kubeVersion(),
  module: () => wasmModulePromise,
  changed: () => saveHash(),
  perf,
});
scheduleTests = () => {
  if (suppress) return;
  saveHash();
  tests.run();
};

// The Policy tab (policy.js): admission policies on the Validate tab's
// object (its CRD, mode and old object).
const policy = setupPolicy({
  makeEditor: (parent, name, extra) => (editors[name] = makeEditor(parent, name, '', extra)),
  request: () => {
    const update = $('modeUpdate').checked;
    return {
      crd: getText('crd'), oldCrd: getText('oldCrd') || undefined, object: getText('object'),
      old: update ? getText('old') : undefined, fieldValidation: $('fieldValidation').value,
      subresource: $('subresource').value, version: $('version').value, kubeVersion: kubeVersion(),
    };
  },
  module: () => wasmModulePromise,
  changed: () => saveHash(),
  perf,
});
schedulePolicy = () => {
  if (suppress) return;
  saveHash();
  policy.run();
};
// The Apply tab (apply.js): its steps run against the CRD editor's text.
const applyTab = setupApply({
  makeEditor: (parent, name) => (editors[name] = makeEditor(parent, name, '')),
  getCRD: () => getText('crd'),
  kubeVersion: () => kubeVersion(),
  module: () => wasmModulePromise,
  perf,
});
scheduleApply = () => applyTab.run();
perf.applyTab = applyTab;

function setText(name, text) {
  const v = editors[name];
  v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
}
const getText = (name) => editors[name].state.doc.toString();

for (const btn of document.querySelectorAll('[data-open]')) {
  const input = el('input');
  input.type = 'file';
  input.accept = '.yaml,.yml,.json,text/yaml,application/json';
  input.hidden = true;
  input.dataset.openInput = btn.dataset.open;
  btn.after(input);
  btn.addEventListener('click', () => input.click());
  input.addEventListener('change', async () => {
    if (input.files[0]) setText(btn.dataset.open, await input.files[0].text());
    input.value = '';
  });
}

// ---- state ---------------------------------------------------------------
function getState() {
  return {
    crd: getText('crd'), object: getText('object'), old: getText('old'),
    fieldValidation: $('fieldValidation').value, subresource: $('subresource').value,
    version: $('version').value, mode: $('modeUpdate').checked ? 'update' : 'create',
    oldCrd: getText('oldCrd'), suite: getText('suite'), run: tests.filter(), tab: currentTab(),
    policy: getText('policy'), admission: policy.options(), kubeVersion: $('kubeVersion').value,
  };
}

// The Kubernetes release of every verdict: the header's selector, its
// options the module's releases (the "ready" answer's version), the newest
// by default. Before the engine is up it holds the shared link's release,
// if any ("" is the newest); a release the module does not reproduce is
// kept, marked, and its requests answer the module's error.
const kubeVersion = () => $('kubeVersion').value || undefined;
function setKubeVersion(v) {
  const sel = $('kubeVersion');
  if (v && ![...sel.options].some((o) => o.value === v)) sel.appendChild(new Option(kubeReleases ? `${v} (unsupported)` : v, v));
  if (v) sel.value = v;
  else if (kubeReleases) sel.value = kubeReleases.defaultKubeVersion;
  else sel.value = '';
}
let kubeReleases = null;
function kubeVersionsReady(version) {
  if (!version?.kubeVersions?.length) return;
  kubeReleases = version;
  const sel = $('kubeVersion');
  const cur = sel.value;
  sel.replaceChildren(...version.kubeVersions.map((v) => new Option(v === version.defaultKubeVersion ? `${v} (default)` : v, v)));
  sel.disabled = false;
  setKubeVersion(cur);
}

let pendingVersion = '';
function setState(s) {
  suppress = true;
  $('shareNote').textContent = '';
  setText('crd', s.crd ?? '');
  setText('object', s.object ?? '');
  setText('old', s.old ?? '');
  setText('oldCrd', s.oldCrd ?? '');
  if (s.oldCrd) $('oldCrdPane').open = true;
  setText('suite', s.suite ?? '');
  setText('policy', s.policy ?? '');
  policy.setOptions(s.admission);
  tests.setFilter(s.run);
  $('fieldValidation').value = s.fieldValidation || 'Strict';
  setKubeVersion(s.kubeVersion || '');
  $('subresource').value = s.subresource || '';
  pendingVersion = s.version || '';
  ensureVersionOption(pendingVersion);
  $('version').value = pendingVersion;
  const update = s.mode === 'update';
  $('modeUpdate').checked = update;
  $('modeCreate').checked = !update;
  showMode();
  suppress = false;
  perf.editAt = performance.now();
  if (s.tab === 'policy') policy.show();
  else if (s.tab === 'apply') applyTab.show(true);
  else tests.show(s.tab === 'tests' ? 'tests' : 'validate');
  runNow();
}

function ensureVersionOption(v) {
  if (v && ![...$('version').options].some((o) => o.value === v)) $('version').appendChild(new Option(v, v));
}

function showMode() {
  $('oldPane').hidden = !$('modeUpdate').checked;
}

// ---- workers -------------------------------------------------------------
// The validation worker was started by index.html before this bundle
// loaded (it is fetching and compiling the module); without it, here.
const boot = window.__crdlabBoot;
const validator = boot?.validator ?? new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const coster = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
let reqId = 0;
let engineReady = false;
let suppress = false;
let current = {};

// Edits are sent at once when the engine is idle; while it is busy only
// the newest state is sent when it answers (and the worker itself runs
// only the newest of the requests it has queued), so a newer keystroke
// supersedes older ones without a debounce delay.
// The JSON Schema panel (validate worker) and "time it" (cost worker).
const schema = schemaPanel({ after: $('costs'), send: (m) => validator.postMessage(m), perf });
let lastCost = null;
const timing = benchButton({ send: (m) => coster.postMessage(m), rerender: () => lastCost && showCosts(lastCost.m, lastCost.state), perf });

let inflight = { validate: false, cost: false };
let dirty = { validate: false, cost: false };
scheduleRun = () => {
  if (suppress) return;
  saveHash();
  if (!$('live').checked) return;
  runNow();
};

// The cost report follows each validation (and the cost worker starts
// after the first one): the two workers never compete for the CPU with
// each other, so validation keeps one core and the page the other.
// The first request goes before the engine is up: the worker keeps it.
function runNow() {
  send('validate');
}

function send(kind) {
  if (inflight[kind]) {
    dirty[kind] = true;
    return;
  }
  dirty[kind] = false;
  inflight[kind] = true;
  const s = getState();
  if (kind === 'validate') {
    const id = ++reqId;
    current = { id, state: s, editAt: perf.editAt ?? performance.now() };
    perf.requests++;
    const old = s.mode === 'update' ? s.old : undefined;
    const oldCrd = s.oldCrd.trim() ? s.oldCrd : undefined;
    validator.postMessage({ kind: 'validate', id, crd: s.crd, oldCrd, kubeVersion: s.kubeVersion || undefined, object: s.object, old, fieldValidation: s.fieldValidation, subresource: s.subresource, version: s.version });
    $('busy').hidden = false;
  } else {
    costState = { id: ++costId, state: s };
    coster.postMessage({ kind: 'cost', id: costId, crd: s.crd, kubeVersion: s.kubeVersion || undefined, object: s.object });
  }
}
// A slow cost report (a big CRD: the cost op compiles it on each call)
// waits until the edits pause, not to take a core away while typing.
let costSlow = false;
let costTimer = null;
function sendCostSoon() {
  clearTimeout(costTimer);
  costTimer = null;
  if (!costSlow) return send('cost');
  costTimer = setTimeout(() => { costTimer = null; send('cost'); }, 1000);
}
let costId = 0;
let costStarted = false;
let wasmModule;
let costState = {};
perf.getState = () => getState();
perf.busy = () => inflight.validate || dirty.validate;
perf.idle = () => engineReady && !schema.pending() && !marks && costStarted && costTimer === null && !inflight.validate && !inflight.cost && !dirty.validate && !dirty.cost && tests.idle() && policy.idle();

validator.onmessage = timed('validation result', (ev) => {
  const m = ev.data;
  if (m.kind === 'ready') return onReady(m, 'validate');
  if (m.kind === 'schema') return schema.show(m);
  if (m.kind === 'complete') return completionAnswer(m);
  inflight.validate = false;
  const req = current;
  if (dirty.validate) send('validate');
  else $('busy').hidden = true;
  showValidation(m, req.state);
  schema.request(req.state, m.versions ?? []);
  if (!costStarted) {
    costStarted = true;
    coster.postMessage({ kind: 'init', module: wasmModule });
  }
  sendCostSoon();
  perf.results++;
  perf.lastResult = m;
  if (m.compileMs) perf.compileMs = m.compileMs;
  if (req.editAt) perf.lastLatency = performance.now() - req.editAt;
  if (perf.firstResultAt === null) {
    perf.firstResultAt = performance.now();
    registerServiceWorker();
  }
});
coster.onmessage = timed('cost result', (ev) => {
  const m = ev.data;
  if (m.kind === 'ready') return onReady(m, 'cost');
  if (m.kind === 'bench') return timing.show(m);
  inflight.cost = false;
  costSlow = (m.costMs ?? 0) > 500;
  const st = costState.state;
  if (dirty.cost) send('cost');
  const tc = performance.now();
  if (showCosts(m, st) !== false) perf.costRenderMs = performance.now() - tc;
  else perf.costSkipped = (perf.costSkipped ?? 0) + 1;
  perf.costs++;
});

let readyCount = 0;
function onReady(m, role) {
  if (m.error) {
    $('status').textContent = `could not load the engine: ${m.error.message}`;
    return;
  }
  if (role === 'validate') {
    engineReady = true;
    $('engineVersion').textContent = `engine ${m.version.engine} · ABI ${m.version.abi}`;
    kubeVersionsReady(m.version);
    $('status').textContent = `ready in ${Math.round(performance.now() - t0)} ms`;
    perf.readyAt = performance.now();
    perf.initMs = m.initMs;
    perf.marks = m.marks;
    perf.moduleAt = m.marks?.moduleCompiled;
    wasmModule = m.module;
    if (wasmModule) wasmModuleReady(wasmModule); // the Tests tab's worker shares it
    // The page's first request normally went before (the worker kept it).
    if (started && !perf.requests) runNow();
  }
  readyCount++;
}

let started = false; // the page's first state is in the editors
const t0 = performance.now();
if (boot) for (const ev of boot.early.splice(0)) validator.onmessage(ev);
else validator.postMessage({ kind: 'init', url: 'crdlab.wasm', pageOrigin: performance.timeOrigin });

// ---- diagnostics -----------------------------------------------------------
const EDITOR_LABEL = { crd: 'CRD', object: 'object', old: 'old object', oldCrd: 'old CRD', suite: 'suite' };

// lineOf: where an error goes in an editor: the engine's position when it
// reports one, else the node its field path names (or its nearest ancestor).
function placeOf(name, text, e) {
  const doc = editors[name].state.doc;
  if (e.position?.line) {
    const line = doc.line(Math.min(Math.max(1, e.position.line), doc.lines));
    return { from: line.from, to: line.to, line: line.number };
  }
  const at = e.field !== undefined ? locate(text, e.field) : null;
  const offset = at ? Math.min(at.offset, doc.length) : 0;
  const line = doc.lineAt(offset);
  return { from: line.from, to: line.to, line: line.number };
}


function decodeLine(msg) {
  const m = /(?:^|\D)line (\d+)/.exec(msg) ?? /^(\d+): /.exec(msg);
  return m ? Number(m[1]) : 1;
}

let problems = [];
const marked = {};
// The marks go to the editors in the next animation frame, not in the
// task that rebuilt the results: a CodeMirror transaction reads the DOM
// selection, which forces a layout of the whole page, results included
// (measured: most of a 90-170 ms task). In the frame, that layout is the
// one the browser does anyway, and the results' task stays short.
let marks = null;
function markSoon(by, state) {
  if (!marks) requestAnimationFrame(timed('marks', applyMarks));
  marks = { by, state };
}
function applyMarks() {
  const { by, state } = marks;
  marks = null;
  for (const name of Object.keys(editors)) {
    if (state && getText(name) !== state[name]) continue; // edited since: the next result marks it
    // A transaction costs a view update (measured: ~100 ms on a 400 KiB
    // CRD): none when there was nothing to mark and still is not.
    if (!by[name].length && !marked[name]) continue;
    marked[name] = by[name].length;
    editors[name].dispatch(setDiagnostics(editors[name].state, by[name]));
  }
}
function setProblems(list, state) {
  problems = list;
  const by = {};
  for (const name of Object.keys(editors)) by[name] = [];
  const stale = {};
  for (const name of Object.keys(editors)) stale[name] = !!state && getText(name) !== state[name];
  for (const p of list) {
    const doc = editors[p.editor].state.doc;
    if (stale[p.editor]) continue; // the editor changed since: its marks come with the next result
    if (p.from > doc.length) continue;
    by[p.editor].push({ from: p.from, to: p.to, severity: p.severity, message: p.message, source: 'crdlab' });
  }
  markSoon(by, state);
  const box = $('problems');
  box.replaceChildren();
  $('problemCount').textContent = list.length ? String(list.length) : '';
  if (!list.length) {
    box.appendChild(el('div', 'ok', 'No problems.'));
    return;
  }
  const ul = el('ul', 'problems');
  for (const p of list) {
    const li = el('li', p.severity);
    const loc = el('button', 'loc', `${EDITOR_LABEL[p.editor]}:${p.line}`);
    loc.title = 'go to the line';
    loc.addEventListener('click', () => jump(p));
    li.appendChild(loc);
    li.appendChild(el('span', 'msg', p.message));
    ul.appendChild(li);
  }
  box.appendChild(ul);
}

function jump(p) {
  const v = editors[p.editor];
  if (p.editor === 'old') { $('modeUpdate').checked = true; showMode(); }
  if (p.editor === 'oldCrd') $('oldCrdPane').open = true;
  const pos = Math.min(p.from, v.state.doc.length);
  v.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
  v.focus();
}

function problem(editor, state, e, severity, message) {
  const place = placeOf(editor, state[editor], e);
  return { editor, severity, message, ...place, field: e.field };
}

// ---- results -----------------------------------------------------------------
let finalObject = null;

function showValidation(m, state) {
  const crdBox = $('crdResult');
  const objBox = $('objectResult');
  const list = [];
  objBox.replaceChildren();
  crdBox.replaceChildren();
  finalObject = null;
  $('download').disabled = true;
  if (m.fatal) {
    crdBox.appendChild(el('div', 'err', m.fatal.message));
  }
  const update = !!state.oldCrd?.trim();
  if (m.crdError) {
    // With an old CRD, the message names the one that does not decode.
    const oldBad = update && /^old CRD: /.test(m.crdError.message);
    const msg = m.crdError.message.replace(/^(old|new) CRD: /, '');
    list.push(problem(oldBad ? 'oldCrd' : 'crd', state, { position: { line: decodeLine(msg) } }, 'error', m.crdError.message));
    crdBox.appendChild(el('div', 'err', m.crdError.message));
    objBox.appendChild(el('div', 'muted', 'The CRD does not decode: no object to validate.'));
    $('final').replaceChildren();
    setProblems(list, state);
    return;
  }
  if (m.versions) updateVersions(m.versions);
  if (m.crd) {
    for (const e of m.crd.errors) list.push(problem('crd', state, e, 'error', e.message));
    m.crd.warnings.forEach((w, i) => list.push(problem('crd', state, { position: m.crdWarningPositions?.[i] ?? { line: 1 } }, 'warning', 'Warning: ' + w)));
    const n = m.crd.errors.length;
    if (update) crdBox.appendChild(n ? el('div', 'err', `The API server would reject this update of the CRD (${n} error${n > 1 ? 's' : ''}).`) : el('div', 'ok', 'The update of the CRD would be accepted; objects are validated against the updated CRD.'));
    else crdBox.appendChild(n ? el('div', 'err', `The API server would reject this CRD (${n} error${n > 1 ? 's' : ''}).`) : el('div', 'ok', 'The CRD is valid.'));
    if (m.crd.warnings.length) crdBox.appendChild(el('div', 'warn', `${m.crd.warnings.length} warning(s).`));
    if (m.compileMs) crdBox.appendChild(el('div', 'muted', `compiled in ${Math.round(m.compileMs)} ms (kept for the next edits)`));
    if (m.crd.errors.length) {
      objBox.appendChild(el('div', 'warn', 'Fix the CRD first: the API server would not serve it.'));
      $('final').replaceChildren();
    }
  }
  if (m.objectError) {
    const ed = /old object/i.test(m.objectError.message) ? 'old' : 'object';
    list.push(problem(ed, state, { position: { line: decodeLine(m.objectError.message) } }, 'error', m.objectError.message));
    objBox.appendChild(el('div', 'err', m.objectError.message));
    $('final').replaceChildren();
  }
  const o = m.report?.object;
  if (o) {
    if (o.decodeError) {
      const f = warningField(o.decodeError);
      list.push(problem('object', state, f ? { field: f } : { position: { line: decodeLine(o.decodeError) } }, 'error', o.decodeError));
      objBox.appendChild(el('div', 'err', o.decodeError));
    } else if (o.errors.length) {
      objBox.appendChild(el('div', 'err', `The API server would reject ${state.mode === 'update' ? 'the update' : 'the object'} (${o.errors.length} error${o.errors.length > 1 ? 's' : ''}).`));
    } else {
      objBox.appendChild(el('div', 'ok', state.mode === 'update' ? 'The update would be accepted.' : 'The object would be accepted.'));
    }
    for (const e of o.errors) list.push(problem('object', state, e, 'error', e.message));
    o.warnings.forEach((w, i) => list.push(problem('object', state, { position: m.objectWarningPositions?.[i] ?? { line: 1 } }, 'warning', 'Warning: ' + w)));
    if (o.pruned.length) objBox.appendChild(el('div', 'muted', `pruned: ${o.pruned.join(', ')}`));
    if (m.validateMs !== undefined) objBox.appendChild(el('div', 'muted', `validated in ${m.validateMs < 10 ? m.validateMs.toFixed(1) : Math.round(m.validateMs)} ms`));
    showDiff(state.object, o);
  }
  setProblems(list, state);
}

function updateVersions(versions) {
  const sel = $('version');
  const cur = sel.value || pendingVersion;
  const want = ['', ...versions];
  if ([...sel.options].map((o) => o.value).join('\n') !== want.join('\n')) {
    sel.replaceChildren(new Option('(from apiVersion)', ''));
    for (const v of versions) sel.appendChild(new Option(v, v));
  }
  sel.value = versions.includes(cur) ? cur : '';
  pendingVersion = '';
}

// showDiff renders the final object against the input: pruned fields
// struck out, fields the engine added (defaults, metadata the API server
// sets) marked, changed values with both.
function showDiff(inputText, o) {
  const box = $('final');
  box.replaceChildren();
  if (o.result === null || o.result === undefined) return;
  finalObject = o.result;
  $('download').disabled = false;
  let input;
  try { input = parseYAML(inputText); } catch { input = undefined; }
  const lines = [];
  const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  const scalar = (v) => (typeof v === 'string' ? (/^[\w./-]+$/.test(v) && !/^(true|false|null|[\d.]+)$/.test(v) ? v : JSON.stringify(v)) : JSON.stringify(v));
  const push = (cls, ind, text, note) => lines.push({ cls, text: ' '.repeat(ind) + text, note });
  function emit(v, ind, prefix, cls, note) {
    if (isObj(v) && Object.keys(v).length) {
      push(cls, ind, prefix.trimEnd(), note);
      for (const [k, x] of Object.entries(v)) emit(x, ind + 2, `${k}: `, cls);
    } else if (Array.isArray(v) && v.length) {
      push(cls, ind, prefix.trimEnd(), note);
      for (const x of v) emit(x, ind + 2, '- ', cls);
    } else push(cls, ind, prefix + (isObj(v) ? '{}' : Array.isArray(v) ? '[]' : scalar(v)), note);
  }
  function diff(a, b, ind, prefix) {
    if (isObj(a) && isObj(b)) {
      if (prefix) push('', ind - 2, prefix.trimEnd());
      const keys = [...Object.keys(b), ...Object.keys(a).filter((k) => !(k in b))];
      for (const k of keys) {
        if (!(k in b)) emit(a[k], ind, `${k}: `, 'pruned', 'pruned');
        else if (!(k in a)) emit(b[k], ind, `${k}: `, 'added', 'defaulted / set');
        else diff(a[k], b[k], ind + 2, `${k}: `);
      }
      if (!keys.length) push('', ind - 2, prefix + '{}');
    } else if (Array.isArray(a) && Array.isArray(b) && a.length && b.length) {
      push('', ind - 2, prefix.trimEnd());
      const n = Math.max(a.length, b.length);
      for (let i = 0; i < n; i++) {
        if (i >= b.length) emit(a[i], ind, '- ', 'pruned', 'pruned');
        else if (i >= a.length) emit(b[i], ind, '- ', 'added', 'added');
        else if (isObj(a[i]) && isObj(b[i])) {
          // "- " then the object's keys
          const sub = [];
          const save = lines.length;
          diff(a[i], b[i], ind + 2, '');
          sub.push(...lines.splice(save));
          if (sub.length) sub[0].text = ' '.repeat(ind) + '- ' + sub[0].text.trimStart();
          lines.push(...sub);
        } else diff(a[i], b[i], ind + 2, '- ');
      }
    } else if (JSON.stringify(a) === JSON.stringify(b)) {
      emit(b, Math.max(ind - 2, 0), prefix, '');
    } else {
      if (a !== undefined) emit(a, Math.max(ind - 2, 0), prefix, 'pruned', 'changed');
      emit(b, Math.max(ind - 2, 0), prefix, 'added', a === undefined ? 'defaulted' : 'changed');
    }
  }
  if (isObj(input)) diff(input, o.result, 0, '');
  else emit(o.result, 0, '', '');
  for (const l of lines) {
    const d = el('div', 'dl ' + l.cls, l.text);
    if (l.note) d.title = l.note;
    box.appendChild(d);
  }
}

$('download').addEventListener('click', () => {
  if (!finalObject) return;
  const name = finalObject?.metadata?.name ?? 'object';
  const a = el('a');
  a.href = URL.createObjectURL(new Blob([toYAML(finalObject)], { type: 'application/yaml' }));
  a.download = `${name}.yaml`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
});

// ---- costs ---------------------------------------------------------------
const SAFE = Number.MAX_SAFE_INTEGER;
export function fmtCost(n) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '';
  if (n > SAFE) {
    const [m, e] = n.toExponential(1).split('e+');
    return `≈${m}×10^${e}`;
  }
  return group(n);
}
const group = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

function bar(value, limit, over) {
  const wrap = el('div', 'bar');
  const fill = el('div', 'fill' + (over ? ' over' : ''));
  // Log scale: the limits are 10^7 and 10^8, typical rules cost 1..10^4.
  const share = value <= 0 ? 0 : Math.min(1, Math.log10(value + 1) / Math.log10(limit));
  fill.style.width = `${(share * 100).toFixed(1)}%`;
  wrap.appendChild(fill);
  wrap.title = `${fmtCost(value)} of ${fmtCost(limit)} (log scale)`;
  return wrap;
}

// The last cost view's input: an object edit that leaves the report as it
// was (most do: the static estimates depend on the CRD only) leaves the
// table alone instead of rebuilding it (400 rules: 15-50 ms of layout).
let costShown = '';
function showCosts(m, state) {
  lastCost = { m, state };
  const box = $('costs');
  const key = JSON.stringify([m.error, m.cost, state.mode, timing.viewKey(state)]);
  if (key === costShown && box.childElementCount) return false;
  costShown = key;
  box.replaceChildren();
  if (m.error) {
    box.appendChild(el('div', 'muted', `no cost report: ${m.error.message}`));
    return;
  }
  const rep = m.cost;
  const rules = rep.rules ?? [];
  if (!rules.length) {
    box.appendChild(el('div', 'muted', 'The CRD has no x-kubernetes-validations rules.'));
    return;
  }
  const perExpr = rep.limits?.perExpression ?? 10000000;
  const perCRD = rep.limits?.perCRD ?? 100000000;
  const objCost = (rep.objects ?? [])[0];
  const runtimeOK = objCost && !objCost.error;
  const update = state.mode === 'update';
  const order = rules.map((r, i) => ({ r, i })).sort((a, b) => (b.r.overBudget - a.r.overBudget) || (a.i - b.i));
  const table = el('table', 'costs');
  const head = table.createTHead().insertRow();
  for (const h of ['rule', 'at', 'static estimate (against the per-expression limit)', 'on this object']) head.appendChild(el('th', '', h));
  const body = table.createTBody();
  for (const { r, i } of order) {
    const tr = body.insertRow();
    tr.dataset.rule = i;
    if (r.overBudget) tr.className = 'over';
    const expr = el('td', 'expr');
    expr.appendChild(el('code', '', r.expression));
    if (r.field === 'messageExpression') expr.appendChild(el('div', 'muted', 'messageExpression'));
    if (r.compileError) expr.appendChild(el('div', 'err', `does not compile: ${r.compileError}`));
    for (const s of r.suggestions ?? []) expr.appendChild(el('div', 'fix', `fix: ${s.keyword} ≤ ${group(s.max)} on ${s.dataPath}${s.current !== undefined ? ` (now ${group(s.current)})` : ''} → ${fmtCost(s.estimatedCost)}`));
    if (r.suggestionNote) expr.appendChild(el('div', 'muted', r.suggestionNote));
    tr.appendChild(expr);
    tr.appendChild(el('td', 'path', r.dataPath || '(root)'));
    const est = el('td', 'est');
    if (!r.compileError) {
      est.appendChild(bar(r.estimatedCost, perExpr, r.overBudget));
      const range = r.estimate?.min !== undefined && r.estimate.min !== r.estimate.max ? `${fmtCost(r.estimate.min)}..${fmtCost(r.estimate.max)}` : fmtCost(r.estimate?.max);
      const card = r.cardinality > 1 ? ` × ${fmtCost(r.cardinality)}${r.cardinalityBounded ? '' : ' (estimated)'}` : '';
      est.appendChild(el('div', r.overBudget ? 'num over' : 'num', `${fmtCost(r.estimatedCost)}${r.overBudget ? ' — over the limit' : ''}`));
      if (range && (card || range !== fmtCost(r.estimatedCost))) est.appendChild(el('div', 'muted', `per run ${range}${card}`));
    }
    tr.appendChild(est);
    // Runtime cost: the cost op evaluates the object as a create, so on an
    // update the transition rules (oldSelf) have no runtime cost to show.
    const transition = /\boldSelf\b/.test(r.expression);
    const rt = el('td', 'num');
    if (runtimeOK && !r.compileError && !(update && transition) && (r.evaluations?.[0] ?? 0) > 0) {
      rt.textContent = fmtCost(r.runtimeCost?.[0]);
    } else if (update && transition) rt.title = 'transition rules: the runtime cost of updates is not computed';
    tr.appendChild(rt);
  }
  const total = el('div', 'total');
  total.appendChild(el('div', rep.totalLimitShare > 1 ? 'over' : '', `CRD total: ${fmtCost(rep.totalEstimatedCost)} of the ${fmtCost(perCRD)} limit`));
  total.appendChild(bar(rep.totalEstimatedCost, perCRD, rep.totalLimitShare > 1));
  for (const s of rep.schemas ?? []) for (const g of s.suggestions ?? []) total.appendChild(el('div', 'fix', `fix: ${g.keyword} ≤ ${group(g.max)} on ${g.dataPath}`));
  if (runtimeOK && !update) total.appendChild(el('div', 'muted', `this object: ${fmtCost(objCost.totalCost)} of its ${fmtCost(rep.limits?.perObject ?? 10000000)} runtime budget${objCost.note ? ` (${objCost.note})` : ''}`));
  box.replaceChildren(table, total);
  timing.decorate(box, table, state);
}

// ---- share -----------------------------------------------------------------
// The state is encoded in a worker of its own (src/share-worker.js): the
// URL is rewritten 200 ms after the last edit without a long task on the
// page's thread, even for a CRD of 400 KiB. Only the latest encoding is
// written to the URL.
let hashTimer;
let sharer;
let shareSeq = 0;
const shareWaiting = new Map();
function encodeInWorker(state) {
  if (!sharer) {
    sharer = new Worker(new URL('./share-worker.js', import.meta.url), { type: 'module' });
    sharer.onmessage = (ev) => {
      const w = shareWaiting.get(ev.data.id);
      shareWaiting.delete(ev.data.id);
      if (!w) return;
      if (ev.data.error) w.reject(new Error(ev.data.error));
      else w.resolve(ev.data.hash);
    };
  }
  const id = ++shareSeq;
  return new Promise((resolve, reject) => {
    shareWaiting.set(id, { resolve, reject });
    sharer.postMessage({ id, state });
  });
}
async function writeHash() {
  const id = shareSeq + 1;
  const h = await encodeInWorker(getState());
  if (id !== shareSeq) return null; // a newer state was sent meanwhile: it writes the URL
  window.history.replaceState(null, '', '#' + h);
  return h;
}
function saveHash() {
  clearTimeout(hashTimer);
  hashTimer = setTimeout(async () => {
    const t = performance.now();
    try {
      if (await writeHash() === null) return;
    } catch (e) {
      $('shareNote').textContent = `could not encode the state for the URL: ${e.message}`;
      return;
    }
    perf.handlers['share hash (async)'] = Math.max(perf.handlers['share hash (async)'] ?? 0, performance.now() - t);
    perf.hashSaved = (perf.hashSaved ?? 0) + 1;
  }, 200);
}
$('share').addEventListener('click', async () => {
  clearTimeout(hashTimer);
  while (await writeHash() === null);
  const url = location.href;
  try {
    await navigator.clipboard.writeText(url);
    $('shareNote').textContent = `link copied (${url.length.toLocaleString('en-US')} characters)`;
  } catch {
    $('shareNote').textContent = 'copy the address bar: it holds the link';
  }
  perf.sharedURL = url;
});

// ---- examples --------------------------------------------------------------
const sel = $('examples');
const groups = new Map();
for (const x of examples) {
  if (!groups.has(x.group)) {
    const g = document.createElement('optgroup');
    g.label = x.group;
    groups.set(x.group, g);
    sel.appendChild(g);
  }
  groups.get(x.group).appendChild(new Option(x.title, x.id));
}
function loadExample(id) {
  const x = examples.find((e) => e.id === id);
  if (!x) return;
  $('about').textContent = x.about;
  // The Tests tab's suite, filter, the policies and the tab shown stay as they are.
  setState({ crd: x.crd, object: x.object, old: x.old ?? '', fieldValidation: x.fieldValidation, subresource: x.subresource, version: x.version, mode: x.mode ?? 'create',
    oldCrd: x.oldCrd ?? '', suite: getText('suite'), run: tests.filter(), tab: currentTab(),
    policy: getText('policy'), admission: policy.options(), kubeVersion: $('kubeVersion').value });
  if (!x.oldCrd) $('oldCrdPane').open = false;
  saveHash();
}
sel.addEventListener('change', () => { if (sel.value) loadExample(sel.value); });

// ---- controls --------------------------------------------------------------
for (const id of ['fieldValidation', 'subresource', 'version']) $(id).addEventListener('change', scheduleRun);
// Every tab's verdict is the release's: the shown tab runs again (the
// others when they are next shown).
$('kubeVersion').addEventListener('change', () => {
  scheduleRun();
  tests.run();
  policy.run();
  applyTab.run();
});
for (const id of ['modeCreate', 'modeUpdate']) $(id).addEventListener('change', () => { showMode(); scheduleRun(); });
$('run').addEventListener('click', runNow);
document.addEventListener('keydown', (ev) => {
  if ((ev.ctrlKey || ev.metaKey) && ev.key === 'Enter') { ev.preventDefault(); runNow(); }
});

// ---- start -------------------------------------------------------------------
(async () => {
  let s = null;
  try { s = await decodeState(location.hash); } catch (e) { $('shareNote').textContent = `could not read the shared state: ${e.message}`; }
  started = true;
  if (s) setState(s);
  else {
    sel.value = 'crontab';
    loadExample('crontab');
  }
})();

// After the first result: installing the service worker downloads the
// page's assets again, the module too, which would compete with the
// engine's start for the network and the CPU.
function registerServiceWorker() {
  if ('serviceWorker' in navigator && !new URLSearchParams(location.search).has('nosw')) {
    navigator.serviceWorker.register('sw.js').catch(() => {});
  }
}
export { crontabCRD, crontabObject };
