// Completion inside CEL rules (x-kubernetes-validations rule and
// messageExpression): what may follow "<receiver>." given the schema that
// carries the rule. Plain JavaScript without the editor, so that Node runs
// its unit tests (celcomplete.test.js).
//
// Types follow upstream's conversion of a structural schema to a CEL type
// (k8s.io/apiserver/pkg/cel/common.SchemaDeclType): objects with
// properties, maps for additionalProperties (string keys), lists for items,
// timestamps for format date/date-time, durations for format duration,
// bytes for format byte, dyn for x-kubernetes-int-or-string; the root of
// the resource and of each x-kubernetes-embedded-resource object has
// apiVersion, kind and metadata.name/generateName whatever its schema says
// (WithTypeAndObjectMeta). Property names are offered as CEL spells them
// (escaped: "x-y" -> "x__dash__y", "namespace" -> "__namespace__").
//
// Receivers: self and oldSelf (the same type), a macro's variable
// (self.items.all(x, x. — the element type; map macros bind the key; the
// two-variable forms bind index/key and element/value), field selects
// (.f and .?f), indexes (l[0], m['k']), calls whose result type is known
// (self.items.filter(...)., quantity('1')., url(s).). Functions and macros
// offered for a type are those of kube-apiserver 1.37's CEL environment:
// cel-go's standard library, its strings (v2), lists (v3), sets and
// two-variable comprehension extensions, and the Kubernetes libraries
// (lists, regex, URLs, quantity, IP, CIDR, semver, format).

const RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/** A property name as CEL expressions spell it, or null when it cannot be accessed. */
export function escapeName(name) {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!/^[A-Za-z_][A-Za-z0-9_./-]*$/.test(name)) return null;
  return name.replace(/__|[./-]/g, (m) => ({ __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' })[m]);
}

const T = {
  dyn: { kind: 'dyn' }, string: { kind: 'string' }, int: { kind: 'int' }, uint: { kind: 'uint' }, double: { kind: 'double' },
  bool: { kind: 'bool' }, bytes: { kind: 'bytes' }, duration: { kind: 'duration' }, timestamp: { kind: 'timestamp' },
  Quantity: { kind: 'Quantity' }, URL: { kind: 'URL' }, IP: { kind: 'IP' }, CIDR: { kind: 'CIDR' }, Semver: { kind: 'Semver' },
  Format: { kind: 'Format' },
};
const list = (elem) => ({ kind: 'list', elem: elem ?? T.dyn });
const map = (key, value) => ({ kind: 'map', key: key ?? T.string, value: value ?? T.dyn });
const optional = (inner) => ({ kind: 'optional', inner: inner ?? T.dyn });

const META = { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } };

/**
 * The CEL type of a schema node: {kind, ...}; null when upstream does not
 * expose it (an array whose items are not exposed, a schema without type).
 */
export function schemaType(s, resourceRoot = false) {
  if (!s || typeof s !== 'object') return null;
  if (s['x-kubernetes-int-or-string']) return T.dyn;
  if (resourceRoot) {
    s = { ...s, properties: { ...(s.properties ?? {}), apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: META } };
  }
  switch (s.type) {
    case 'array': {
      if (!s.items) return null;
      const e = schemaType(s.items, !!s.items['x-kubernetes-embedded-resource']);
      return e ? { ...list(e), schema: s } : null;
    }
    case 'object': {
      const ap = s.additionalProperties;
      if (ap && typeof ap === 'object') {
        const v = schemaType(ap, !!ap['x-kubernetes-embedded-resource']);
        return v ? { ...map(T.string, v), schema: s } : null;
      }
      return { kind: 'object', schema: s };
    }
    case 'string':
      switch (s.format) {
        case 'byte': return T.bytes;
        case 'duration': return T.duration;
        case 'date': case 'date-time': return T.timestamp;
        default: return T.string;
      }
    case 'integer': return T.int;
    case 'number': return T.double;
    case 'boolean': return T.bool;
    default: return null;
  }
}

/** The fields of an object type, by their CEL names: Map name -> {type, schema}. */
function fieldsOfType(t) {
  const out = new Map();
  for (const [name, ps] of Object.entries(t.schema?.properties ?? {})) {
    const ty = schemaType(ps, !!ps?.['x-kubernetes-embedded-resource']);
    const esc = escapeName(name);
    if (ty && esc) out.set(esc, { type: ty, schema: ps, name });
  }
  return out;
}

export function typeName(t) {
  if (!t) return '';
  switch (t.kind) {
    case 'list': return `list(${typeName(t.elem)})`;
    case 'map': return `map(${typeName(t.key)}, ${typeName(t.value)})`;
    case 'optional': return `optional(${typeName(t.inner)})`;
    default: return t.kind;
  }
}

// Member functions and macros: name -> [detail, result type (receiver => type)].
const same = (r) => r;
const elemOf = (r) => r.elem ?? T.dyn;
const M = {
  comprehension: {
    all: ['macro: all(x, predicate) → bool', () => T.bool],
    exists: ['macro: exists(x, predicate) → bool', () => T.bool],
    exists_one: ['macro: exists_one(x, predicate) → bool', () => T.bool],
    existsOne: ['macro: existsOne(x, predicate) → bool', () => T.bool],
    map: ['macro: map(x, expr) → list', () => list(T.dyn)],
    filter: ['macro: filter(x, predicate) → list', (r) => (r.kind === 'map' ? list(r.key) : r)],
    transformList: ['macro: transformList(i, v, expr) → list', () => list(T.dyn)],
    transformMap: ['macro: transformMap(k, v, expr) → map', (r) => map(r.kind === 'map' ? r.key : T.int, T.dyn)],
    size: ['size() → int', () => T.int],
  },
  list: {
    transformMapEntry: ['macro: transformMapEntry(i, v, mapExpr) → map', () => map(T.dyn, T.dyn)],
    isSorted: ['isSorted() → bool', () => T.bool],
    sum: ['sum() → element type', elemOf],
    min: ['min() → element type', elemOf],
    max: ['max() → element type', elemOf],
    indexOf: ['indexOf(value) → int', () => T.int],
    lastIndexOf: ['lastIndexOf(value) → int', () => T.int],
    includes: ['includes(value) → bool', () => T.bool],
    slice: ['slice(start, end) → list', same],
    flatten: ['flatten() → list', () => list(T.dyn)],
    sort: ['sort() → list', same],
    sortBy: ['macro: sortBy(x, keyExpr) → list', same],
    distinct: ['distinct() → list', same],
    reverse: ['reverse() → list', same],
  },
  listOfString: { join: ['join(separator?) → string', () => T.string] },
  map: { transformMapEntry: ['macro: transformMapEntry(k, v, mapExpr) → map', () => map(T.dyn, T.dyn)] },
  string: {
    size: ['size() → int', () => T.int],
    contains: ['contains(s) → bool', () => T.bool],
    startsWith: ['startsWith(prefix) → bool', () => T.bool],
    endsWith: ['endsWith(suffix) → bool', () => T.bool],
    matches: ['matches(re2) → bool', () => T.bool],
    find: ['find(re2) → string', () => T.string],
    findAll: ['findAll(re2, limit?) → list(string)', () => list(T.string)],
    charAt: ['charAt(i) → string', () => T.string],
    indexOf: ['indexOf(s, from?) → int', () => T.int],
    lastIndexOf: ['lastIndexOf(s, from?) → int', () => T.int],
    lowerAscii: ['lowerAscii() → string', () => T.string],
    upperAscii: ['upperAscii() → string', () => T.string],
    replace: ['replace(old, new, n?) → string', () => T.string],
    split: ['split(sep, n?) → list(string)', () => list(T.string)],
    substring: ['substring(start, end?) → string', () => T.string],
    trim: ['trim() → string', () => T.string],
    format: ['format(list) → string', () => T.string],
  },
  bytes: { size: ['size() → int', () => T.int] },
  duration: Object.fromEntries(['getHours', 'getMinutes', 'getSeconds', 'getMilliseconds'].map((f) => [f, [`${f}() → int`, () => T.int]])),
  timestamp: Object.fromEntries(['getFullYear', 'getMonth', 'getDate', 'getDayOfMonth', 'getDayOfWeek', 'getDayOfYear', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds']
    .map((f) => [f, [`${f}(timezone?) → int`, () => T.int]])),
  Quantity: {
    isGreaterThan: ['isGreaterThan(quantity) → bool', () => T.bool],
    isLessThan: ['isLessThan(quantity) → bool', () => T.bool],
    compareTo: ['compareTo(quantity) → int', () => T.int],
    add: ['add(quantity | int) → Quantity', () => T.Quantity],
    sub: ['sub(quantity | int) → Quantity', () => T.Quantity],
    asInteger: ['asInteger() → int', () => T.int],
    asApproximateFloat: ['asApproximateFloat() → double', () => T.double],
    isInteger: ['isInteger() → bool', () => T.bool],
    sign: ['sign() → int', () => T.int],
  },
  URL: {
    getScheme: ['getScheme() → string', () => T.string],
    getHost: ['getHost() → string', () => T.string],
    getHostname: ['getHostname() → string', () => T.string],
    getPort: ['getPort() → string', () => T.string],
    getEscapedPath: ['getEscapedPath() → string', () => T.string],
    getQuery: ['getQuery() → map(string, list(string))', () => map(T.string, list(T.string))],
  },
  IP: {
    family: ['family() → int', () => T.int],
    isUnspecified: ['isUnspecified() → bool', () => T.bool],
    isLoopback: ['isLoopback() → bool', () => T.bool],
    isLinkLocalMulticast: ['isLinkLocalMulticast() → bool', () => T.bool],
    isLinkLocalUnicast: ['isLinkLocalUnicast() → bool', () => T.bool],
    isGlobalUnicast: ['isGlobalUnicast() → bool', () => T.bool],
  },
  CIDR: {
    containsIP: ['containsIP(ip | string) → bool', () => T.bool],
    containsCIDR: ['containsCIDR(cidr | string) → bool', () => T.bool],
    ip: ['ip() → IP', () => T.IP],
    masked: ['masked() → CIDR', () => T.CIDR],
    prefixLength: ['prefixLength() → int', () => T.int],
  },
  Semver: {
    major: ['major() → int', () => T.int],
    minor: ['minor() → int', () => T.int],
    patch: ['patch() → int', () => T.int],
    isGreaterThan: ['isGreaterThan(semver) → bool', () => T.bool],
    isLessThan: ['isLessThan(semver) → bool', () => T.bool],
    compareTo: ['compareTo(semver) → int', () => T.int],
  },
  optional: {
    hasValue: ['hasValue() → bool', () => T.bool],
    value: ['value() → the value', (r) => r.inner],
    orValue: ['orValue(default) → the value', (r) => r.inner],
    or: ['or(optional) → optional', same],
  },
  Format: { validate: ['validate(string) → optional(list(string))', () => optional(list(T.string))] },
};

function methodsOf(t) {
  if (!t) return {};
  switch (t.kind) {
    case 'list': return { ...M.comprehension, ...M.list, ...(t.elem?.kind === 'string' ? M.listOfString : {}) };
    case 'map': return { ...M.comprehension, ...M.map };
    default: return M[t.kind] ?? {};
  }
}

// Global functions whose result has members.
const GLOBALS = {
  quantity: T.Quantity, url: T.URL, ip: T.IP, cidr: T.CIDR, semver: T.Semver, string: T.string, bytes: T.bytes,
  duration: T.duration, timestamp: T.timestamp, int: T.int, uint: T.uint, double: T.double, size: T.int,
  'format.named': T.Format,
};
for (const f of ['dns1123Label', 'dns1123Subdomain', 'dns1035Label', 'qualifiedName', 'dns1123LabelPrefix', 'dns1123SubdomainPrefix', 'dns1035LabelPrefix', 'labelValue', 'uri', 'uuid', 'byte', 'date', 'datetime']) GLOBALS[`format.${f}`] = T.Format;

/** The member after the receiver: a field's type, a call's result. */
function member(t, name, call) {
  if (!t) return null;
  if (call) {
    const m = methodsOf(t)[name];
    return m ? m[1](t) ?? T.dyn : null;
  }
  if (t.kind === 'object') return fieldsOfType(t).get(name)?.type ?? null;
  if (t.kind === 'map') return t.value;
  return null;
}

function index(t) {
  if (!t) return null;
  if (t.kind === 'list') return t.elem;
  if (t.kind === 'map') return t.value;
  return null;
}

// ---- tokens ------------------------------------------------------------------
const MACROS = new Set(['all', 'exists', 'exists_one', 'existsOne', 'map', 'filter', 'sortBy', 'transformList', 'transformMap', 'transformMapEntry']);

export function tokenize(src) {
  const out = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) { i++; continue; }
    if (c === '/' && src[i + 1] === '/') { while (i < src.length && src[i] !== '\n') i++; continue; }
    const s = i;
    if (/[A-Za-z_]/.test(c)) {
      while (i < src.length && /\w/.test(src[i])) i++;
      const v = src.slice(s, i);
      // r'..', b"..": a prefixed string literal
      if (/^[rRbB]{1,2}$/.test(v) && (src[i] === '"' || src[i] === "'")) { i = skipString(src, i); out.push({ t: 'str', s, e: i }); continue; }
      out.push({ t: 'id', v, s, e: i });
    } else if (/[0-9]/.test(c)) {
      while (i < src.length && /[0-9a-fA-FxXuU.eE]/.test(src[i]) && !(src[i] === '.' && !/[0-9]/.test(src[i + 1] ?? ''))) i++;
      out.push({ t: 'num', v: src.slice(s, i), s, e: i });
    } else if (c === '"' || c === "'") {
      i = skipString(src, i);
      out.push({ t: 'str', s, e: i });
    } else {
      out.push({ t: 'p', v: c, s, e: i + 1 });
      i++;
    }
  }
  return out;
}

function skipString(src, i) {
  const q = src[i];
  const triple = src.slice(i, i + 3) === q.repeat(3);
  const end = triple ? q.repeat(3) : q;
  i += end.length;
  while (i < src.length) {
    if (src[i] === '\\') { i += 2; continue; }
    if (src.startsWith(end, i)) return i + end.length;
    if (!triple && src[i] === '\n') return i;
    i++;
  }
  return i;
}

const isP = (tok, v) => tok && tok.t === 'p' && tok.v === v;
const CLOSE = { ')': '(', ']': '[', '}': '{' };

// The first token of the postfix chain that ends at toks[end].
function chainStart(toks, end) {
  let i = end;
  for (;;) {
    const tok = toks[i];
    if (!tok) return -1;
    if (tok.t === 'p' && CLOSE[tok.v]) {
      let depth = 0;
      for (; i >= 0; i--) {
        if (isP(toks[i], tok.v)) depth++;
        else if (isP(toks[i], CLOSE[tok.v])) depth--;
        if (depth === 0) break;
      }
      if (i < 0) return -1;
      if (tok.v === '}') return i;
      // "(...)" or "[...]" after a receiver or a function name continues the chain
      const prev = toks[i - 1];
      if (prev && (prev.t === 'id' || isP(prev, ')') || isP(prev, ']'))) { i--; continue; }
      return i;
    }
    if (tok.t === 'id' || tok.t === 'str' || tok.t === 'num') {
      let j = i - 1;
      if (isP(toks[j], '?')) j--; // .?field
      if (tok.t === 'id' && isP(toks[j], '.') && j > 0) {
        // a qualified global (format.named) or a select
        i = j - 1;
        continue;
      }
      return i;
    }
    return -1;
  }
}

// The type of the chain toks[start..end] (inclusive) in scope.
function chainType(toks, start, end, scope, ctx) {
  let i = start;
  let t = null;
  const tok = toks[i];
  if (tok.t === 'id') {
    // A qualified global function: format.named(...), format.dns1123Label()
    if (isP(toks[i + 1], '.') && toks[i + 2]?.t === 'id' && isP(toks[i + 3], '(') && GLOBALS[`${tok.v}.${toks[i + 2].v}`] && !lookup(scope, tok.v)) {
      t = GLOBALS[`${tok.v}.${toks[i + 2].v}`];
      i = skipGroup(toks, i + 3) + 1;
    } else if (isP(toks[i + 1], '(')) {
      t = GLOBALS[tok.v] ?? null;
      i = skipGroup(toks, i + 1) + 1;
    } else {
      t = tok.v === 'self' || tok.v === 'oldSelf' ? ctx.self : lookup(scope, tok.v);
      i++;
    }
  } else if (tok.t === 'str') { t = T.string; i++; } else if (tok.t === 'num') { t = /[.eE]/.test(tok.v) ? T.double : /[uU]$/.test(tok.v) ? T.uint : T.int; i++; } else if (isP(tok, '[')) { t = list(T.dyn); i = skipGroup(toks, i) + 1; } else if (isP(tok, '{')) { t = map(T.dyn, T.dyn); i = skipGroup(toks, i) + 1; } else return null;
  while (i <= end && t) {
    const k = toks[i];
    if (isP(k, '.')) {
      let opt = false;
      let j = i + 1;
      if (isP(toks[j], '?')) { opt = true; j++; }
      const name = toks[j];
      if (!name || name.t !== 'id') return null;
      const call = isP(toks[j + 1], '(') && j + 1 <= end;
      const m = member(t, name.v, call);
      t = opt && m ? optional(m) : m;
      i = call ? skipGroup(toks, j + 1) + 1 : j + 1;
    } else if (isP(k, '[')) {
      const opt = isP(toks[i + 1], '?');
      const m = index(t);
      t = opt && m ? optional(m) : m;
      i = skipGroup(toks, i) + 1;
    } else return null;
  }
  return t;
}

function skipGroup(toks, i) {
  const open = toks[i].v;
  const close = { '(': ')', '[': ']', '{': '}' }[open];
  let depth = 0;
  for (; i < toks.length; i++) {
    if (isP(toks[i], open)) depth++;
    else if (isP(toks[i], close) && --depth === 0) return i;
  }
  return toks.length;
}

function lookup(scope, name) {
  for (let f = scope.length - 1; f >= 0; f--) if (scope[f].vars && name in scope[f].vars) return scope[f].vars[name];
  return undefined;
}

// The macro variables in scope at the end of toks: a forward pass keeping
// a frame per open bracket; a macro's frame gets its variables once
// "(x," or "(i, v," has been read.
function scopeAtEnd(toks, ctx) {
  const frames = [];
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i];
    if (tok.t !== 'p') continue;
    if (tok.v === '(' || tok.v === '[' || tok.v === '{') {
      const frame = { open: tok.v };
      const name = toks[i - 1];
      if (tok.v === '(' && name?.t === 'id' && MACROS.has(name.v) && isP(toks[i - 2], '.')) {
        const rs = chainStart(toks, i - 3);
        const recv = rs >= 0 ? chainType(toks, rs, i - 3, frames, ctx) : null;
        const a = toks[i + 1];
        const b = toks[i + 3];
        if (a?.t === 'id' && isP(toks[i + 2], ',')) {
          frame.vars = {};
          const two = b?.t === 'id' && isP(toks[i + 4], ',') && /^(all|exists|existsOne|transformList|transformMap|transformMapEntry)$/.test(name.v);
          const key = recv?.kind === 'map' ? recv.key : recv?.kind === 'list' ? T.int : T.dyn;
          const val = recv?.kind === 'map' ? recv.value : recv?.kind === 'list' ? recv.elem : T.dyn;
          if (two) {
            frame.vars[a.v] = key;
            frame.vars[b.v] = val;
          } else frame.vars[a.v] = recv?.kind === 'map' ? recv.key : val;
        }
      }
      frames.push(frame);
    } else if (tok.v === ')' || tok.v === ']' || tok.v === '}') {
      frames.pop();
    }
  }
  return frames;
}

/**
 * Completion at the end of `before` (the CEL text from the start of the
 * expression to the cursor) for a rule on `schema`: null when the cursor
 * is not after "<receiver>." with a known receiver type, else
 * {from, options, type}: `from` is the offset in `before` where the
 * completed name starts; options are {label, type, detail, info}.
 * opts.root: the rule is on the resource's root schema (openAPIV3Schema).
 */
export function completeCEL(schema, before, opts = {}) {
  const m = /\.(\?)?([A-Za-z_]\w*)?$/.exec(before);
  if (!m) return null;
  const prefix = m[2] ?? '';
  const from = before.length - prefix.length;
  const toks = tokenize(before.slice(0, m.index));
  if (!toks.length) return null;
  // Inside a string literal: no completion.
  const lastTok = toks[toks.length - 1];
  if (lastTok.t === 'str' && lastTok.e > before.slice(0, m.index).length) return null;
  const self = schemaType(schema, !!opts.root || !!schema?.['x-kubernetes-embedded-resource']);
  const ctx = { self };
  const scope = scopeAtEnd(toks, ctx);
  const end = toks.length - 1;
  const start = chainStart(toks, end);
  if (start < 0) return null;
  const recv = chainType(toks, start, end, scope, ctx);
  if (!recv) return null;
  const options = [];
  if (recv.kind === 'object') {
    for (const [name, f] of fieldsOfType(recv)) {
      options.push({ label: name, type: 'property', detail: typeName(f.type) + (f.schema?.['x-kubernetes-int-or-string'] ? ' (int-or-string)' : ''), info: f.schema?.description ?? (name !== f.name ? `the property "${f.name}"` : undefined) });
    }
  }
  if (!m[1]) {
    for (const [name, [detail]] of Object.entries(methodsOf(recv))) {
      options.push({ label: name, type: detail.startsWith('macro') ? 'keyword' : 'method', detail });
    }
  }
  if (!options.length) return null;
  return { from, options, type: typeName(recv) };
}
