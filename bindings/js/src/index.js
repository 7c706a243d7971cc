// crdlab for JavaScript: validate Kubernetes custom resources against their
// CustomResourceDefinition exactly as kube-apiserver does, in Node (>= 20)
// and in browsers, through crdlab's WebAssembly module (see guest/ABI.md).
import { wasiImportsFor, WasiExit } from './wasi.js';

/**
 * The wire constants: the ABI version, the op names and the error codes
 * (Trap and Load are set by this package, never by the module). They are
 * those of the Go package github.com/crdlab/crdlab/wire; a Go test there
 * checks that the two agree.
 */
export const WIRE = Object.freeze({
  ABI_VERSION: 1,
  Op: Object.freeze({
    Version: 'version',
    Compile: 'compile',
    Lint: 'lint',
    Validate: 'validate',
    ValidateAll: 'validateAll',
    Cost: 'cost',
    Free: 'free',
    Schema: 'schema',
    Bench: 'bench',
    Upgrade: 'upgrade',
    Test: 'test',
    ConversionReview: 'conversionReview',
    Complete: 'complete',
    Admit: 'admit',
    Apply: 'apply',
  }),
  Code: Object.freeze({
    BadRequest: 'BadRequest',
    DecodeError: 'DecodeError',
    NotFound: 'NotFound',
    Invalid: 'Invalid',
    Panic: 'Panic',
    Timeout: 'Timeout',
    ResponseTooLarge: 'ResponseTooLarge',
    Trap: 'Trap',
    Load: 'Load',
  }),
});

const { Op, Code } = WIRE;

export const ABI_VERSION = WIRE.ABI_VERSION;

/** An error returned by the module (or a failure to reach it). */
export class CrdlabError extends Error {
  constructor(code, message) {
    super(`${code}: ${message}`);
    this.name = 'CrdlabError';
    this.code = code;
    this.detail = message;
  }
}

const isNode = typeof process !== 'undefined' && process.versions != null && process.versions.node != null;

async function moduleFrom(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  if (typeof Response !== 'undefined' && source instanceof Response) {
    return WebAssembly.compile(await source.arrayBuffer());
  }
  let url = source;
  if (url === undefined) url = new URL('../crdlab.wasm', import.meta.url);
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    const { fileURLToPath } = await import('node:url');
    const path = url instanceof URL ? fileURLToPath(url) : (String(url).startsWith('file:') ? fileURLToPath(url) : String(url));
    return WebAssembly.compile(await readFile(path));
  }
  const resp = await fetch(url);
  if (!resp.ok) throw new CrdlabError(Code.Load, `fetching ${url}: HTTP ${resp.status}`);
  if (WebAssembly.compileStreaming && (resp.headers.get('content-type') || '').includes('application/wasm')) {
    return WebAssembly.compileStreaming(resp);
  }
  return WebAssembly.compile(await resp.arrayBuffer());
}

/**
 * Loads the module. `source` may be a URL or path, bytes, a Response or a
 * compiled WebAssembly.Module; by default the crdlab.wasm shipped beside
 * this package.
 */
export async function load(source, options = {}) {
  const mod = await moduleFrom(source);
  return new Crdlab(mod, options, await Instance.instantiate(mod, options));
}

class Instance {
  // Browsers refuse synchronous instantiation of modules over 8 MB on the
  // main thread: load() instantiates asynchronously; instantiateSync is
  // only tried to replace a trapped instance at once (it works in Node).
  static async instantiate(mod, options) {
    const { holder, imports } = Instance.imports(mod, options);
    return new Instance(await WebAssembly.instantiate(mod, imports), holder);
  }

  static instantiateSync(mod, options) {
    const { holder, imports } = Instance.imports(mod, options);
    return new Instance(new WebAssembly.Instance(mod, imports), holder);
  }

  static imports(mod, options) {
    const holder = {};
    return { holder, imports: { wasi_snapshot_preview1: wasiImportsFor(mod, () => holder.memory, options) } };
  }

  constructor(instance, holder) {
    this.instance = instance;
    this.memory = holder.memory = instance.exports.memory;
    this.exports = instance.exports;
    this.exports._initialize();
    const v = this.exports.crdlab_abi_version();
    if (v !== ABI_VERSION) throw new CrdlabError(Code.Load, `module ABI version ${v}, this package speaks ${ABI_VERSION}`);
    this.encoder = new TextEncoder();
    this.decoder = new TextDecoder();
  }

  call(request) {
    const body = this.encoder.encode(JSON.stringify(request));
    const ptr = this.exports.crdlab_malloc(body.length);
    new Uint8Array(this.memory.buffer, ptr, body.length).set(body);
    let packed;
    try {
      packed = this.exports.crdlab_call(ptr, body.length);
    } finally {
      this.exports.crdlab_free(ptr);
    }
    const p = Number(BigInt.asUintN(64, packed) >> 32n);
    const n = Number(BigInt.asUintN(32, packed));
    const text = this.decoder.decode(new Uint8Array(this.memory.buffer, p, n));
    this.exports.crdlab_free(p);
    const env = JSON.parse(text);
    if (!env.ok) throw new CrdlabError(env.error?.code ?? Code.Panic, env.error?.message ?? 'error response without error');
    return env.result;
  }
}

/** A loaded crdlab module (see load). */
export class Crdlab {
  constructor(mod, options, inst) {
    this.module = mod;
    this.options = options;
    this.inst = inst;
    this.replacing = null;
  }

  /**
   * Resolves when the module is ready for calls: at once, except just after
   * a trap in a browser, while the replacement instance starts.
   */
  ready() {
    return this.replacing ?? Promise.resolve();
  }

  call(request) {
    if (!this.inst) throw new CrdlabError(Code.Trap, 'the module instance is being replaced after a trap: await crdlab.ready() and retry');
    try {
      return this.inst.call(request);
    } catch (e) {
      if (e instanceof CrdlabError) throw e;
      // A trap leaves the instance unusable: replace it.
      this.replace();
      if (e instanceof WasiExit) throw new CrdlabError(Code.Trap, e.message);
      if (e instanceof RangeError) {
        throw new CrdlabError(Code.Trap, `${e.message} (the input nests deeper than this JavaScript engine's call stack allows; the module instance was replaced)`);
      }
      throw new CrdlabError(Code.Trap, String(e && e.message ? e.message : e));
    }
  }

  replace() {
    for (const crd of this.live) crd.handle = undefined;
    this.inst = null;
    try {
      this.inst = Instance.instantiateSync(this.module, this.options);
    } catch {
      this.replacing = Instance.instantiate(this.module, this.options).then((inst) => {
        this.inst = inst;
        this.replacing = null;
      });
    }
  }

  get live() {
    if (!this._live) this._live = new Set();
    return this._live;
  }

  /**
   * The module's ABI and engine versions, and the Kubernetes releases it
   * reproduces: `{abi, engine, kubeVersions, defaultKubeVersion}`
   * (kubeVersions newest first: the values of the `kubeVersion` option).
   */
  version() {
    return this.call({ op: Op.Version });
  }

  /**
   * Validates a CRD: `{errors, warnings}` as `crdlab lint -o json` prints
   * under "crd". `crdFieldValidation` ("Strict" by default, "Warn",
   * "Ignore") is the CRD create's fieldValidation; a CRD rejected for
   * unknown or duplicate fields has `decodeError` set. `timeoutMs` bounds
   * the call inside the module. With `oldCrd` (the CRD in the cluster) the
   * report is the API server's verdict on updating it to `crd`, as
   * `crdlab lint --old` (`storedVersions`: its status.storedVersions).
   * `kubeVersion` ("1.36"; default the newest, version().defaultKubeVersion)
   * is the Kubernetes release whose API server gives the verdict, as
   * `--kube-version`; an unsupported one throws BadRequest.
   */
  lint(crd, { crdFieldValidation, filename, timeoutMs, oldCrd, storedVersions, kubeVersion } = {}) {
    const req = withKubeVersion(compileRequest(Op.Lint, text(crd), crdFieldValidation, filename), kubeVersion);
    return this.call(withOldCrd(withTimeout(req, timeoutMs), oldCrd, storedVersions)).crd;
  }

  /**
   * The CEL cost report of a CRD (static cost per rule and per CRD against
   * the API server's limits, suggestions) and, for each object, the runtime
   * cost of its rules: the document `crdlab cost -o json` prints, at
   * release `kubeVersion` (as lint's).
   */
  cost(crd, objects = [], { crdFieldValidation, kubeVersion } = {}) {
    const req = withKubeVersion({ op: Op.Cost, crd: text(crd), objects: objects.map(text) }, kubeVersion);
    if (crdFieldValidation) req.crdFieldValidation = crdFieldValidation;
    return this.call(req);
  }

  /**
   * The JSON Schema of the served versions of a CRD (text, a plain object
   * or a CompiledCRD), as `crdlab schema` writes it: `{crd, schemas}`, each
   * schema `{group, version, kind, fileName, unexpressed, document}` with
   * `document` the JSON text byte for byte (JSON.parse it for the value).
   * Options: `versions` (default every served version), `draft` ("2020-12"
   * or "07"), `strict` (additionalProperties: false where the API server
   * prunes), `layout` ("kubeconform" or "catalog", for fileName),
   * `crdFieldValidation`, `kubeVersion` (the release of the verdict in
   * `crd`; the documents are the same at every release), `timeoutMs`. A
   * CRD the API server rejects gives no schemas and its errors in `crd`.
   */
  schema(crd, options = {}) {
    if (crd instanceof CompiledCRD) return crd.schema(options);
    const req = withKubeVersion(schemaRequest({ op: Op.Schema, crd: text(crd) }, options), options.kubeVersion);
    if (options.crdFieldValidation) req.crdFieldValidation = options.crdFieldValidation;
    return this.call(withTimeout(req, options.timeoutMs));
  }

  /**
   * Times every CEL rule and messageExpression of a CRD (text, a plain
   * object or a CompiledCRD) on each object, and each object's validation
   * phase by phase: the report `crdlab bench -o json` prints for one CRD.
   * The times are read from this JavaScript engine's clock (performance.now,
   * which browsers coarsen: 5 µs to 1 ms by browser and isolation); cost
   * units are the API server's. Options: `durationMs` per figure (default
   * 20), `samples` (default 11), `crdFieldValidation`, `timeoutMs` (bounds
   * the whole benchmark, checked between figures).
   */
  bench(crd, objects = [], options = {}) {
    if (crd instanceof CompiledCRD) return crd.bench(objects, options);
    const req = benchRequest({ op: Op.Bench, crd: text(crd) }, objects, options);
    if (options.crdFieldValidation) req.crdFieldValidation = options.crdFieldValidation;
    return this.call(withTimeout(req, options.timeoutMs));
  }

  /**
   * Compiles a CRD once, for many validations (options as for lint). With
   * `oldCrd`, the report is the update's verdict and objects validate as
   * the API server serves them after the update (`crdlab validate
   * --old-crd`). With `kubeVersion`, the CRD and every validation through
   * it are that release's (the CompiledCRD's `kubeVersion`).
   */
  compile(crd, { crdFieldValidation, filename, timeoutMs, oldCrd, storedVersions, kubeVersion } = {}) {
    const src = text(crd);
    const req = withOldCrd(withTimeout(withKubeVersion(compileRequest(Op.Compile, src, crdFieldValidation, filename), kubeVersion), timeoutMs), oldCrd, storedVersions);
    const res = this.call(req);
    const c = new CompiledCRD(this, req, res);
    this.live.add(c);
    return c;
  }

  /**
   * What applying `newCrd` over `oldCrd` (as stored in the cluster) does:
   * the API server's verdict on the CRD update, each stored object read and
   * written back by the updated API server, and a compatibility diff of the
   * schemas: the document `crdlab upgrade -o json` prints. `objects` are
   * stored objects (one document each, text or plain objects), named in the
   * report by `sources` (default `objects[i]`); `kubeVersion` as lint's.
   */
  upgrade(oldCrd, newCrd, objects = [], { sources, storedVersions, failOnBreaking, kubeVersion } = {}) {
    const req = withKubeVersion({ op: Op.Upgrade, oldCrd: text(oldCrd), crd: text(newCrd), objects: objects.map(text) }, kubeVersion);
    if (sources) req.sources = sources;
    if (storedVersions) req.storedVersions = storedVersions;
    if (failOnBreaking) req.failOnBreaking = true;
    return this.call(req);
  }

  /**
   * Runs CRD validation test suites (OpenShift's *.testsuite.yaml format and
   * crdlab's sequences) held in memory: `files` maps slash-separated
   * relative paths to the text of suites and CRDs, laid out as on disk (a
   * suite's `crd:` is relative to it). `paths` select suite files or
   * directories (default all), `crds` are given as --crd, `run` is a
   * regular expression on case names (Go syntax), `kubeVersion` the release
   * every suite runs at (overriding the suites' own), `defaultKubeVersion`
   * the release of the suites that name none. Returns the document
   * `crdlab test -o json` prints.
   */
  test(files, { paths, crds, run, kubeVersion, defaultKubeVersion } = {}) {
    const map = {};
    const entries = files instanceof Map ? files.entries() : Object.entries(files ?? {});
    for (const [name, data] of entries) map[name] = text(data);
    const req = withKubeVersion({ op: Op.Test, files: map }, kubeVersion);
    if (paths && paths.length) req.paths = paths;
    if (crds && crds.length) req.crds = crds;
    if (run) req.run = run;
    if (defaultKubeVersion) req.defaultKubeVersion = defaultKubeVersion;
    return this.call(req);
  }

  /**
   * A conversion webhook's recorded answer checked as the API server checks
   * it (`crdlab conversion-review -o json`): `review` is the
   * ConversionReview the API server sent, `response` the one the webhook
   * answered (default: `review` holds both; text or plain objects). `list`
   * and `listAPIVersion` as the CLI's --list and --list-api-version,
   * `kubeVersion` as lint's.
   */
  conversionReview(crd, review, response, { list, listAPIVersion, kubeVersion } = {}) {
    const req = withKubeVersion({ op: Op.ConversionReview, crd: text(crd), review: text(review) }, kubeVersion);
    if (response !== undefined && response !== null && response !== '') req.reviewResponse = text(response);
    if (list) req.list = true;
    if (listAPIVersion) req.listAPIVersion = listAPIVersion;
    return this.call(req);
  }

  /**
   * CEL completion in a rule (x-kubernetes-validations rule or
   * messageExpression): what may follow "<receiver>." at `cursor` in
   * `expression` (UTF-16 offset, as JavaScript counts; default the end),
   * given `schemaNode`, the schema object that carries the rule (self).
   * `root`: the node is openAPIV3Schema (self has apiVersion, kind,
   * metadata). Returns {from, to, type, options: [{label, kind, detail,
   * info?}]}: an option's label replaces expression[from, to); options is
   * empty where nothing completes.
   */
  complete(schemaNode, expression, { cursor, root } = {}) {
    const node = typeof schemaNode === 'string' ? JSON.parse(schemaNode) : schemaNode;
    const req = { op: Op.Complete, schemaNode: node ?? {}, expression: String(expression ?? '') };
    if (cursor !== undefined && cursor !== null) req.cursor = cursor;
    if (root) req.root = true;
    return this.call(req);
  }
}

/** Makes a "compile" or "lint" request a CRD update of oldCrd. */
function withOldCrd(req, oldCrd, storedVersions) {
  if (oldCrd !== undefined && oldCrd !== null && oldCrd !== '') req.oldCrd = text(oldCrd);
  if (storedVersions) req.storedVersions = storedVersions;
  return req;
}

/**
 * Adds the kubeVersion option to a request: a release as text ("1.36");
 * a number is refused, since 1.40 would be sent as "1.4".
 */
function withKubeVersion(req, kubeVersion) {
  if (kubeVersion === undefined || kubeVersion === null || kubeVersion === '') return req;
  if (typeof kubeVersion !== 'string') throw new CrdlabError(Code.BadRequest, `kubeVersion must be a string such as "1.36", not ${typeof kubeVersion} ${String(kubeVersion)}`);
  req.kubeVersion = kubeVersion;
  return req;
}

/** The request of "compile" or "lint". */
function compileRequest(op, crd, crdFieldValidation, filename) {
  const req = { op, crd };
  if (crdFieldValidation) req.crdFieldValidation = crdFieldValidation;
  if (filename) req.filename = filename;
  return req;
}

/** A CRD compiled in the module. */
export class CompiledCRD {
  constructor(owner, compileReq, res) {
    this.owner = owner;
    this.compileReq = compileReq;
    this.handle = res.handle;
    this.report = res.crd;
    this.versions = res.versions;
    this.kubeVersion = res.kubeVersion;
  }

  get errors() { return this.report.errors; }
  get warnings() { return this.report.warnings; }

  /**
   * Validates one object (YAML or JSON text, or a plain object). Returns the
   * document `crdlab validate -o json` prints: `{crd, object}`.
   */
  validate(object, { old, version, subresource, fieldValidation, timeoutMs } = {}) {
    if (this.disposed) throw new CrdlabError(Code.Invalid, 'CRD was disposed');
    if (this.handle === undefined) this.handle = this.owner.call(this.compileReq).handle;
    const req = { op: Op.Validate, handle: this.handle, object: text(object) };
    if (old !== undefined && old !== null) req.old = text(old);
    if (version) req.version = version;
    if (subresource) req.subresource = subresource;
    if (fieldValidation) req.fieldValidation = fieldValidation;
    return this.owner.call(withTimeout(req, timeoutMs));
  }

  /**
   * Validates every document of a multi-document YAML stream (split on
   * "---" lines as kubectl does; validate() refuses a stream). Returns one
   * entry per non-empty document, `{index, line, report}` or, for a
   * document validate() would refuse alone, `{index, line, error}`.
   */
  validateAll(stream, { old, version, subresource, fieldValidation, timeoutMs } = {}) {
    if (this.disposed) throw new CrdlabError(Code.Invalid, 'CRD was disposed');
    if (this.handle === undefined) this.handle = this.owner.call(this.compileReq).handle;
    const req = { op: Op.ValidateAll, handle: this.handle, object: text(stream) };
    if (old !== undefined && old !== null) req.old = text(old);
    if (version) req.version = version;
    if (subresource) req.subresource = subresource;
    if (fieldValidation) req.fieldValidation = fieldValidation;
    return this.owner.call(withTimeout(req, timeoutMs)).documents;
  }

  /**
   * Runs mutating admission policies on one object, validates it (the
   * mutated object), then runs validating admission policies on it as
   * `crdlab validate --policy` does: `policies` is a YAML stream of
   * Validating- and MutatingAdmissionPolicies, bindings, params and
   * Namespaces. Returns `{report, mutation, admission}`: `report` as
   * validate() (of the mutated object), `mutation` the mutating policies'
   * outcome when one's binding matched (`allowed`, the mutated `object`,
   * the `mutations` that ran with the fields each `changed`), `admission`
   * the validating outcome (`allowed`, the denying `policy`/`binding`,
   * `message`, `warnings`, `auditAnnotations`, `evaluated`) when the
   * object is valid.
   * Options: `old` (an UPDATE), `operation` (CREATE, UPDATE, DELETE),
   * `user`, `groups`, and validate()'s.
   */
  admit(object, policies, { old, version, operation, user, groups, subresource, fieldValidation, timeoutMs } = {}) {
    if (this.disposed) throw new CrdlabError(Code.Invalid, 'CRD was disposed');
    if (this.handle === undefined) this.handle = this.owner.call(this.compileReq).handle;
    const req = { op: Op.Admit, handle: this.handle, object: text(object), policies: text(policies) };
    if (old !== undefined && old !== null) req.old = text(old);
    if (version) req.version = version;
    if (operation) req.operation = operation;
    if (user) req.user = user;
    if (groups) req.groups = groups;
    if (subresource) req.subresource = subresource;
    if (fieldValidation) req.fieldValidation = fieldValidation;
    return this.owner.call(withTimeout(req, timeoutMs));
  }

  /**
   * CEL completion in an expression of an admission policy: `policy` is
   * the policy's document (a ValidatingAdmissionPolicy or
   * MutatingAdmissionPolicy, YAML or JSON), whose matchConstraints pick the
   * version of this CRD that types `object` and `oldObject`, whose
   * paramKind declares `params` and whose variables are `variables`'
   * fields. Where an identifier starts, the expression's variables are
   * offered (kind "variable"); after "<receiver>.", as complete().
   * Returns complete()'s result.
   */
  completePolicy(policy, expression, { cursor } = {}) {
    if (this.disposed) throw new CrdlabError(Code.Invalid, 'CRD was disposed');
    if (this.handle === undefined) this.handle = this.owner.call(this.compileReq).handle;
    const req = { op: Op.Complete, handle: this.handle, policy: text(policy), expression: String(expression ?? '') };
    if (cursor !== undefined && cursor !== null) req.cursor = cursor;
    return this.owner.call(req);
  }

  /** The JSON Schema export of this CRD: Crdlab.schema's options and result. */
  schema(options = {}) {
    if (this.disposed) throw new CrdlabError(Code.Invalid, 'CRD was disposed');
    if (this.handle === undefined) this.handle = this.owner.call(this.compileReq).handle;
    return this.owner.call(withTimeout(schemaRequest({ op: Op.Schema, handle: this.handle }, options), options.timeoutMs));
  }

  /** The benchmark of this CRD's rules on objects: Crdlab.bench's options and result. */
  bench(objects = [], options = {}) {
    if (this.disposed) throw new CrdlabError(Code.Invalid, 'CRD was disposed');
    if (this.handle === undefined) this.handle = this.owner.call(this.compileReq).handle;
    return this.owner.call(withTimeout(benchRequest({ op: Op.Bench, handle: this.handle }, objects, options), options.timeoutMs));
  }

  /**
   * Server-side apply requests by field managers sent, in order, to one
   * object of this CRD, as `crdlab apply --crd CRD [--stored OBJECT] STEPS`
   * sends them: `steps` is a steps file (YAML or JSON text) or an array of
   * `{manager, operation: 'Apply'|'Update'|'Delete', force, subresource,
   * object}`; `stored` the object as stored before the first step (with
   * its managedFields); `time` the first step's time (RFC 3339 text or a
   * Date; one second more per step). Returns `{steps}`: per step the stored
   * object, its managedFields, the conflict or error, and the owners of
   * its fields.
   */
  apply(steps, { stored, time, fieldValidation } = {}) {
    if (this.disposed) throw new CrdlabError(Code.Invalid, 'CRD was disposed');
    if (this.handle === undefined) this.handle = this.owner.call(this.compileReq).handle;
    const req = { op: Op.Apply, handle: this.handle, steps: text(steps) };
    if (stored !== undefined && stored !== null && stored !== '') req.stored = text(stored);
    if (time instanceof Date) req.time = time.toISOString().replace(/\.\d{3}Z$/, 'Z');
    else if (time) req.time = String(time);
    if (fieldValidation) req.fieldValidation = fieldValidation;
    return this.owner.call(req);
  }

  /** Releases the compiled CRD inside the module. */
  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.owner.live.delete(this);
    if (this.handle !== undefined) this.owner.call({ op: Op.Free, handle: this.handle });
  }
}

// withTimeout sets the request's timeoutMs (the module ends the call's work
// at that deadline: a CEL rule it interrupts is a validation error naming
// the rule, other work fails with the Timeout code).
function withTimeout(req, timeoutMs) {
  if (timeoutMs === undefined || timeoutMs === null || timeoutMs === 0) return req;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new CrdlabError(Code.BadRequest, `timeoutMs must be a non-negative number of milliseconds, not ${timeoutMs}`);
  }
  req.timeoutMs = Math.max(1, Math.ceil(timeoutMs));
  return req;
}

// schemaRequest adds the options of "schema" to req.
function schemaRequest(req, { versions, draft, strict, layout } = {}) {
  if (versions !== undefined && versions !== null) {
    if (!Array.isArray(versions)) throw new CrdlabError(Code.BadRequest, 'versions must be an array of version names');
    if (versions.length) req.versions = versions.map(String);
  }
  if (draft) req.draft = String(draft);
  if (strict) req.strict = true;
  if (layout) req.layout = layout;
  return req;
}

// benchRequest adds the objects and the options of "bench" to req.
function benchRequest(req, objects, { durationMs, samples } = {}) {
  if (!Array.isArray(objects)) throw new CrdlabError(Code.BadRequest, 'objects must be an array');
  req.objects = objects.map(text);
  for (const [name, v] of [['durationMs', durationMs], ['samples', samples]]) {
    if (v === undefined || v === null || v === 0) continue;
    if (!Number.isInteger(v) || v < 0) throw new CrdlabError(Code.BadRequest, `${name} must be a positive integer, not ${v}`);
    req[name] = v;
  }
  return req;
}

function text(v) {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  return JSON.stringify(v);
}
