// The engine's Web Worker: bindings/js over the WebAssembly module. The
// page runs up to five, all from this file, with one protocol:
//   - the validation worker, started by index.html before the page's
//     bundle loads (it fetches and compiles the module itself and keeps
//     the page's first request until the engine is up): "validate", and
//     "schema" from the CRD it compiled for validation (no second compile),
//     and "complete" (CEL completion in the CRD editor's rules);
//   - the cost worker (main.js, handed the compiled module): "cost" (the
//     ABI's "cost" op recompiles the CRD on each call, so a big CRD's cost
//     report never delays a validation) and "bench";
//   - the Tests tab's worker (tests.js): "test";
//   - the Policy tab's worker (policy.js): "admit", and "complete" with a
//     policy (CEL completion in the policies' expressions);
//   - the Apply tab's worker (apply.js): "apply" (applyop.js).
//   The tabs' workers start when their tab is first shown.
// The Share URL is encoded in share-worker.js, not here. A CRD is
// compiled once per text and Kubernetes release (the last KEEP compile
// handles are kept; with an old CRD, as an update of it). Every request
// but "bench" and "complete" takes kubeVersion (absent: the newest), the
// page's release selector; "ready" carries the module's releases
// (version.kubeVersions, version.defaultKubeVersion).
//
// Messages (page → worker, then the answer):
//   {kind: 'init', url | module, pageOrigin?}
//     → {kind: 'ready', version, initMs, marks, module?} | {kind: 'ready', error}
//   {kind: 'validate', id, crd, oldCrd?, kubeVersion?, object, old?, fieldValidation, subresource, version}
//     → {id, kind, startAt, compileMs, crd, crdWarningPositions, versions,
//        report?, objectWarningPositions?, validateMs?} | {id, kind, crdError} | {..., objectError}
//   {kind: 'cost', id, crd, kubeVersion?, object?} → {id, kind, cost | error, costMs}
//   {kind: 'test', id, files, paths, crds, run, kubeVersion?} → {id, kind, report | error, ms}
//   {kind: 'admit', id, crd, oldCrd?, kubeVersion?, object, old?, policies, operation?, user?, groups?,
//    fieldValidation, subresource, version} → {id, kind, result | error, ms}
//     (the ABI's "admit": result {report, admission?})
//   {kind: 'apply', id, crd, kubeVersion?, steps} → {id, kind, result | crdErrors | error, ms} (applyop.js)
//   {kind: 'schema', id, crd, oldCrd?, kubeVersion?, version, draft, strict} → {id, kind, schema | error, ms}
//   {kind: 'bench', id, crd, object, durationMs, samples, timeoutMs} → {id, kind, bench | error, ms}
//   {kind: 'complete', id, schemaNode, root, expression} → {id, kind, result | error}
//   {kind: 'complete', id, policy, expression, crd, oldCrd?, kubeVersion?} → {id, kind, result | error}
//     (a policy's expression: the CRD's compile types object)
//     (the ABI's "complete": result {from, to, type, options}; a newer
//     request answers the older one with result null)
//   and {id, kind, fatal} when a request throws unexpectedly. Errors are
//   {code, message} (a CrdlabError's code and detail).
// One request runs at a time, and only the newest: "validate", "cost",
// "test", "admit" and "apply" share one slot (a newer request replaces one not yet started),
// "schema" and "bench" another, which runs only when the first is empty;
// "complete" has a third, which runs first (the user is waiting for it,
// and it is cheap: no compile).
// The page drops answers to superseded ids.
import { load } from '../../bindings/js/src/index.js';
import { addPositions } from './yamlpath.js';
import { applySteps } from './applyop.js';

let engine;
let pending = null;
let scheduled = false;
const kept = new Map(); // CRD text -> CompiledCRD (the last few)
const KEEP = 3;

// The module's default release: a request without kubeVersion and one
// naming the default share their compile.
let defaultKube = '';

function compiled(text, oldCrd, kubeVersion) {
  const kv = kubeVersion || defaultKube;
  const key = `${kv}\0${text}\0${oldCrd ?? ''}`;
  let c = kept.get(key);
  if (c) {
    kept.delete(key);
    kept.set(key, c); // most recently used last
    return { c, compileMs: 0 };
  }
  const t0 = performance.now();
  c = engine.compile(text, { oldCrd, kubeVersion: kv || undefined });
  const compileMs = performance.now() - t0;
  // Where the CRD's errors and warnings are, once per CRD text (this
  // parses the CRD, which can take a while: not on the page's thread).
  c.warningPositions = addPositions(text, c.report.errors, c.report.warnings, true);
  kept.set(key, c);
  while (kept.size > KEEP) {
    const [k, old] = kept.entries().next().value;
    kept.delete(k);
    old.dispose();
  }
  return { c, compileMs };
}

function failure(e) {
  return { code: e?.code ?? 'Error', message: e?.detail ?? String(e?.message ?? e) };
}

function validate(req) {
  const res = { id: req.id, kind: 'validate', startAt: at() };
  let c;
  try {
    const r = compiled(req.crd, req.oldCrd, req.kubeVersion);
    c = r.c;
    res.compileMs = r.compileMs;
  } catch (e) {
    res.crdError = failure(e);
    return res;
  }
  res.crd = c.report;
  res.crdWarningPositions = c.warningPositions;
  res.versions = c.versions ?? [];
  if (c.errors.length) return res;
  const opts = { fieldValidation: req.fieldValidation, subresource: req.subresource, version: req.version };
  if (req.old !== undefined && req.old !== null) opts.old = req.old;
  const t0 = performance.now();
  try {
    res.report = c.validate(req.object, opts);
    const o = res.report.object;
    if (o) res.objectWarningPositions = addPositions(req.object, o.errors, o.warnings, false);
  } catch (e) {
    res.objectError = failure(e);
  }
  res.validateMs = performance.now() - t0;
  return res;
}

function cost(req) {
  const res = { id: req.id, kind: 'cost' };
  const t0 = performance.now();
  try {
    res.cost = engine.cost(req.crd, req.object === undefined ? [] : [req.object], { kubeVersion: req.kubeVersion || undefined });
  } catch (e) {
    res.error = failure(e);
  }
  res.costMs = performance.now() - t0;
  return res;
}

// The page's other requests ("schema" on the validate worker, "bench" on
// the cost worker) wait in their own slot, the newest replacing older
// ones, and run when no validation or cost request is pending: they never
// replace one, nor are replaced by one.
let extra = null;
// The newest completion request (it runs before any other).
let completion = null;

// complete answers "complete": the engine's CEL completion (the ABI op).
function complete(req) {
  const res = { id: req.id, kind: 'complete' };
  try {
    if (req.policy !== undefined) {
      const { c } = compiled(req.crd, req.oldCrd, req.kubeVersion);
      res.result = c.completePolicy(req.policy, req.expression);
    } else {
      res.result = engine.complete(req.schemaNode, req.expression, { root: req.root });
    }
  } catch (e) {
    res.error = failure(e);
  }
  return res;
}

// runExtra answers "schema" (the JSON Schema export of one version, from
// the CRD compiled for validation: no second compile) and "bench" (the
// rules timed on the object, in this worker's clock).
function runExtra(req) {
  const res = { id: req.id, kind: req.kind };
  const t0 = performance.now();
  try {
    if (req.kind === 'schema') {
      const { c } = compiled(req.crd, req.oldCrd, req.kubeVersion);
      res.schema = c.schema({ versions: req.version ? [req.version] : [], draft: req.draft, strict: req.strict });
    } else {
      res.bench = engine.bench(req.crd, [req.object], { durationMs: req.durationMs, samples: req.samples, timeoutMs: req.timeoutMs });
    }
  } catch (e) {
    res.error = failure(e);
  }
  res.ms = performance.now() - t0;
  return res;
}

// test runs a suite held in memory (the Tests tab): crdlab test -o json.
function test(req) {
  const res = { id: req.id, kind: 'test' };
  const t0 = performance.now();
  try {
    res.report = engine.test(req.files, { paths: req.paths, crds: req.crds, run: req.run, kubeVersion: req.kubeVersion || undefined });
  } catch (e) {
    res.error = failure(e);
  }
  res.ms = performance.now() - t0;
  return res;
}

// admit runs validating admission policies on an object (the Policy tab):
// crdlab validate --policy on one object.
function admit(req) {
  const res = { id: req.id, kind: 'admit' };
  const t0 = performance.now();
  try {
    const { c } = compiled(req.crd, req.oldCrd, req.kubeVersion);
    res.result = c.admit(req.object, req.policies, {
      old: req.old, operation: req.operation, user: req.user, groups: req.groups,
      fieldValidation: req.fieldValidation, subresource: req.subresource, version: req.version,
    });
  } catch (e) {
    res.error = failure(e);
  }
  res.ms = performance.now() - t0;
  return res;
}

function run() {
  scheduled = false;
  if (completion) {
    const c = completion;
    completion = null;
    postMessage(complete(c));
    schedule();
    return;
  }
  if (!pending && extra) {
    const x = extra;
    extra = null;
    let res;
    try {
      res = runExtra(x);
    } catch (e) {
      res = { id: x.id, kind: x.kind, error: failure(e) };
    }
    postMessage(res);
    schedule();
    return;
  }
  const req = pending;
  pending = null;
  if (!req) return;
  let res;
  try {
    res = req.kind === 'cost' ? cost(req) : req.kind === 'test' ? test(req) : req.kind === 'admit' ? admit(req) : req.kind === 'apply' ? applySteps(req, compiled, failure) : validate(req);
  } catch (e) {
    res = { id: req.id, kind: req.kind, fatal: failure(e) };
  }
  postMessage(res);
  schedule();
}

function schedule() {
  // A macrotask: messages that arrived while the engine was busy are
  // delivered first, so only the newest of them runs.
  if ((pending || extra || completion) && !scheduled) {
    scheduled = true;
    setTimeout(run, 0);
  }
}

// Times in the page's clock (ms since the page's navigation), for the
// page-open breakdown the e2e test prints: the worker has its own time
// origin, the page passes its own.
let pageOrigin = performance.timeOrigin;
const at = () => performance.timeOrigin + performance.now() - pageOrigin;

// The module: fetched and compiled here (WebAssembly.compileStreaming, so
// that Liftoff compiles while the bytes arrive, off every thread the page
// uses), or handed over already compiled (the cost worker gets the
// validation worker's).
async function moduleOf(m) {
  if (m.module) return m.module;
  const url = new URL(m.url, location.href);
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(`fetching ${url}: HTTP ${resp.status}`);
  if (WebAssembly.compileStreaming && (resp.headers.get('content-type') || '').includes('application/wasm')) {
    return WebAssembly.compileStreaming(resp);
  }
  return WebAssembly.compile(await resp.arrayBuffer());
}

onmessage = async (ev) => {
  const m = ev.data;
  if (m.kind === 'init') {
    if (m.pageOrigin) pageOrigin = m.pageOrigin;
    const marks = { workerStart: at() };
    try {
      const mod = await moduleOf(m);
      marks.moduleCompiled = at();
      const t0 = performance.now();
      engine = await load(mod, { stderr: () => {} });
      marks.engineStarted = at();
      const version = engine.version();
      defaultKube = version.defaultKubeVersion ?? '';
      postMessage({ kind: 'ready', version, initMs: performance.now() - t0, marks, module: m.module ? undefined : mod });
    } catch (e) {
      postMessage({ kind: 'ready', error: failure(e) });
    }
    // The page's first request (kept while the module loaded) runs at once:
    // the requests that came meanwhile have already replaced each other.
    if (engine && pending && !scheduled) run();
    else schedule();
    return;
  }
  if (m.kind === 'complete') {
    if (completion) postMessage({ id: completion.id, kind: 'complete', result: null });
    completion = m;
  } else if (m.kind === 'schema' || m.kind === 'bench') extra = m;
  else pending = m;
  if (engine) schedule();
};
