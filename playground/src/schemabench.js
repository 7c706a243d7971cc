// Two views on the engine's "schema" and "bench" ops:
//  - the JSON Schema panel: the export of the current CRD at the current
//    version (what `crdlab schema` writes), with copy and download; it is
//    computed in the validate worker from the CRD it already compiled;
//  - "time it" in the cost view: the rules timed on the current object in
//    the cost worker (`crdlab bench`), wall time per evaluation beside the
//    cost units. Times come from this browser's clock (performance.now,
//    coarsened to 5 µs - 1 ms): compare rules with each other, not with
//    numbers measured natively.

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

// The part of a JSON Schema shown in the panel (characters).
const PREVIEW = 64 * 1024;

// Timed batches per figure (`crdlab bench --samples`).
const SAMPLES = 11;

/** Formats nanoseconds: "850 ns", "12.3 µs", "4.56 ms". */
export function fmtNs(ns) {
  if (typeof ns !== 'number' || !Number.isFinite(ns)) return '';
  if (ns < 1000) return `${ns < 10 ? ns.toFixed(1) : Math.round(ns)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(ns < 1e4 ? 2 : 1)} µs`;
  return `${(ns / 1e6).toFixed(ns < 1e7 ? 2 : 1)} ms`;
}

// The version of an object's apiVersion ("group/v1" -> "v1"), or "".
function objectVersion(text) {
  const m = /^apiVersion:\s*["']?[^\s"'/]+\/([\w.-]+)/m.exec(text ?? '') ?? /"apiVersion"\s*:\s*"[^"/]+\/([^"]+)"/.exec(text ?? '');
  return m ? m[1] : '';
}

/**
 * The JSON Schema panel, placed after `after` (an element of the results
 * column). `send(msg)` posts to the validate worker; `perf` is the page's
 * measurement object (the e2e test reads perf.schema).
 */
export function schemaPanel({ after, send, perf }) {
  const head = el('h2', '', 'JSON Schema ');
  head.id = 'schemaHead';
  head.appendChild(el('small', '', '(crdlab schema: this version, for editors and kubeconform)'));
  const draft = el('select');
  draft.id = 'schemaDraft';
  draft.title = 'JSON Schema draft (07 for yaml-language-server and older tools)';
  draft.append(new Option('2020-12', '2020-12'), new Option('draft-07', '07'));
  const strictLabel = el('label', 'schema-strict');
  const strict = el('input');
  strict.type = 'checkbox';
  strict.id = 'schemaStrict';
  strictLabel.title = 'additionalProperties: false where the API server prunes unknown fields (--field-validation=Strict)';
  strictLabel.append(strict, ' strict');
  const copy = el('button', '', 'Copy');
  copy.id = 'schemaCopy';
  copy.disabled = true;
  const download = el('button', '', 'Download');
  download.id = 'schemaDownload';
  download.disabled = true;
  const note = el('span', 'muted');
  note.id = 'schemaNote';
  head.append(draft, strictLabel, copy, download, note);
  const info = el('div', 'muted');
  info.id = 'schemaInfo';
  const out = el('div', 'box diff schema');
  out.id = 'jsonSchema';
  after.after(head, info, out);

  let id = 0;
  let sentKey = null;
  let lastState = null;
  let lastVersions = [];
  let doc = null;
  perf.schema = { results: 0, key: null, answered: 0 };

  // pending: a request is out (the e2e test waits for it, as for the
  // page's other requests).
  const pending = () => id !== perf.schema.answered;

  function request(state, versions, force) {
    lastState = state;
    lastVersions = versions;
    const want = state.version || objectVersion(state.object);
    const version = versions.includes(want) ? want : '';
    const oldCrd = state.oldCrd?.trim() ? state.oldCrd : undefined;
    const kubeVersion = state.kubeVersion || undefined;
    const key = JSON.stringify([state.crd, oldCrd, kubeVersion, version, draft.value, strict.checked]);
    if (key === sentKey && !force) return;
    sentKey = key;
    perf.schema.key = key;
    // With an old CRD, the CRD compiled for validation is the update's (the
    // same handle, and the verdict shown above).
    send({ kind: 'schema', id: ++id, key, crd: state.crd, oldCrd, kubeVersion, version, draft: draft.value, strict: strict.checked });
  }

  function show(m) {
    perf.schema.answered = m.id;
    if (m.id !== id) return; // superseded
    perf.schema.results++;
    doc = null;
    copy.disabled = download.disabled = true;
    note.textContent = '';
    info.replaceChildren();
    out.replaceChildren();
    if (m.error) {
      out.appendChild(el('div', 'muted', `no JSON Schema: ${m.error.message}`));
      return;
    }
    const { crd, schemas } = m.schema;
    if (crd.errors.length || crd.decodeError) {
      out.appendChild(el('div', 'muted', 'The API server would reject this CRD: no JSON Schema (crdlab schema writes none either).'));
      return;
    }
    if (!schemas.length) {
      out.appendChild(el('div', 'muted', 'The CRD serves no version.'));
      return;
    }
    doc = schemas[0];
    copy.disabled = download.disabled = false;
    info.textContent = `${doc.fileName} · ${doc.kind} ${doc.group}/${doc.version} · ${(doc.document.length / 1024).toFixed(1)} KiB`;
    if (schemas.length > 1) info.textContent += ` (the first of ${schemas.length} served versions: pick one under "version")`;
    if (doc.unexpressed.length) {
      const d = el('details', 'unexpressed');
      d.appendChild(el('summary', '', `${doc.unexpressed.length} check${doc.unexpressed.length > 1 ? 's' : ''} JSON Schema cannot express (kept as x-kubernetes-* annotations)`));
      const ul = el('ul');
      for (const u of doc.unexpressed) ul.appendChild(el('li', '', u));
      d.appendChild(ul);
      info.appendChild(d);
    }
    // A big schema (HTTPRoute's is hundreds of KiB) is shown in part: laying
    // out all of it would hold the page's thread for 100 ms and more.
    if (doc.document.length > PREVIEW) {
      out.textContent = doc.document.slice(0, PREVIEW);
      out.appendChild(el('div', 'muted', `… the first ${PREVIEW / 1024} KiB of ${(doc.document.length / 1024).toFixed(0)} KiB: Copy or Download for the whole document`));
    } else out.textContent = doc.document;
  }

  copy.addEventListener('click', async () => {
    if (!doc) return;
    try {
      await navigator.clipboard.writeText(doc.document);
      note.textContent = 'copied';
    } catch {
      note.textContent = 'the browser refused the clipboard: use Download';
    }
    perf.schema.copied = (perf.schema.copied ?? 0) + 1;
  });
  download.addEventListener('click', () => {
    if (!doc) return;
    const a = el('a');
    a.href = URL.createObjectURL(new Blob([doc.document], { type: 'application/schema+json' }));
    a.download = doc.fileName.split('/').pop();
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
  for (const c of [draft, strict]) c.addEventListener('change', () => lastState && request(lastState, lastVersions));

  return { request, show, pending };
}

/**
 * "time it" in the cost view. `send(msg)` posts to the cost worker;
 * `rerender()` draws the cost view again (with the times, once they come).
 */
export function benchButton({ send, rerender, perf }) {
  let id = 0;
  let result = null; // { key, bench, ms }
  let running = null; // key being timed
  let error = null;
  perf.bench = { results: 0 };
  const keyOf = (state) => JSON.stringify([state.crd, state.object]);

  function start(state) {
    running = keyOf(state);
    error = null;
    send({ kind: 'bench', id: ++id, crd: state.crd, object: state.object, durationMs: 20, samples: SAMPLES, timeoutMs: 60000 });
    rerender();
  }

  // viewKey is what decorate would draw for state: the cost view is drawn
  // again when it changes (the page skips drawing an unchanged report).
  function viewKey(state) {
    const key = keyOf(state);
    return JSON.stringify([running === key, running !== null, result?.key === key ? result.n : null, error]);
  }

  function show(m) {
    if (m.id !== id) return;
    perf.bench.results++;
    const key = running;
    running = null;
    if (m.error) error = m.error.message;
    else result = { key, bench: m.bench, ms: m.ms, n: m.id };
    rerender();
  }

  // decorate adds the button and, when the last timing is of this CRD and
  // object, a wall-time column to the cost table (rows carry data-rule,
  // the rule's index in the cost report).
  function decorate(box, table, state) {
    const key = keyOf(state);
    const bar = el('div', 'benchbar');
    const btn = el('button', '', running === key ? 'timing…' : 'time it');
    btn.id = 'timeIt';
    btn.disabled = running !== null;
    btn.title = 'run each rule on this object for about 20 ms in the worker, and show the wall time per evaluation beside its cost units';
    btn.addEventListener('click', () => start(state));
    bar.appendChild(btn);
    const r = result && result.key === key ? result.bench : null;
    if (error && !r) bar.appendChild(el('span', 'err', ` could not time: ${error}`));
    else if (!r) bar.appendChild(el('span', 'muted', ' wall time of each rule on this object, measured in this browser'));
    box.prepend(bar);
    if (!r || !table) return;
    const ob = r.objects[0];
    const req = ob?.phases?.find((p) => p.phase === 'request');
    const cel = ob?.phases?.find((p) => p.phase === 'cel');
    const parts = [];
    if (req) parts.push(`whole request ${fmtNs(req.timing.medianNs)}`);
    if (cel) parts.push(`all rules ${fmtNs(cel.timing.medianNs)}`);
    const summary = ob?.error ? `not timed: ${ob.error}` : `${parts.join(' · ')} (medians of ${SAMPLES} batches, ${r.machine.goos}/${r.machine.goarch} in this browser; timed as a create)`;
    bar.appendChild(el('span', 'muted', ' ' + summary));
    const byRule = new Map(r.rules.filter((x) => x.object === 0).map((x) => [x.rule, x]));
    table.tHead.rows[0].appendChild(el('th', '', 'wall time per evaluation'));
    for (const tr of table.tBodies[0].rows) {
      const td = el('td', 'num time');
      const x = byRule.get(Number(tr.dataset.rule));
      if (x && x.evaluations > 0 && x.timing) {
        td.appendChild(el('div', '', fmtNs(x.perEvaluationNs)));
        const t = x.timing;
        td.appendChild(el('div', 'muted', `${x.evaluations}× · ${x.cost ? `${(x.nsPerCostUnit).toFixed(x.nsPerCostUnit < 10 ? 1 : 0)} ns/unit` : '0 units'}`));
        td.title = `all ${x.evaluations} evaluation(s): median ${fmtNs(t.medianNs)}, p10 ${fmtNs(t.p10Ns)}, p90 ${fmtNs(t.p90Ns)}; ${t.allocsPerOp} allocations, ${Math.round(t.bytesPerOp)} bytes per run`;
      } else if (x) {
        td.title = /\boldSelf\b/.test(x.expression) ? 'a transition rule: not run on a create' : 'not run on this object';
        td.appendChild(el('span', 'muted', '—'));
      }
      tr.appendChild(td);
    }
  }

  return { show, decorate, viewKey };
}
