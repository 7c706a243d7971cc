// Field paths to source positions, and source positions to schema
// locations, over the YAML text of an editor (the `yaml` package's
// document tree, which keeps each node's source range).
//
// The engine names fields as upstream's field.Path renders them:
// "spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule",
// "metadata.labels[app.kubernetes.io/name]". locate() finds the node such a
// path names, or its nearest existing ancestor when the field is missing
// (a required field, a default), and returns its offset in the text. When
// the engine reports a position itself (error.position {line, column}), the
// page uses that instead.
import { parseDocument, isMap, isSeq, isScalar, isPair } from 'yaml';

let cacheText;
let cacheDoc;

export function parse(text) {
  if (text !== cacheText) {
    cacheText = text;
    try {
      cacheDoc = parseDocument(text, { keepSourceTokens: false, uniqueKeys: false, strict: false });
    } catch {
      cacheDoc = null;
    }
  }
  return cacheDoc;
}

/** Splits a field path into its segments ("a.b[0][k.x]" -> ["a","b","0","k.x"]). */
export function splitPath(field) {
  const out = [];
  if (!field || field === '<root>' || field === '<nil>') return out;
  let cur = '';
  for (let i = 0; i < field.length; i++) {
    const ch = field[i];
    if (ch === '.') {
      if (cur) out.push(cur);
      cur = '';
    } else if (ch === '[') {
      if (cur) out.push(cur);
      cur = '';
      const j = field.indexOf(']', i);
      if (j < 0) break;
      out.push(field.slice(i + 1, j));
      i = j;
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

const keyOf = (pair) => (isScalar(pair.key) ? String(pair.key.value) : String(pair.key));

/**
 * The offset of the node a field path names in text, or of its nearest
 * existing ancestor: {offset, exact}. Null when the text does not parse to
 * a tree at all.
 */
export function locate(text, field) {
  const doc = parse(text);
  if (!doc || !doc.contents) return null;
  let node = doc.contents;
  let offset = node.range ? node.range[0] : 0;
  const segs = splitPath(field);
  let depth = 0;
  for (const s of segs) {
    let next;
    let at;
    if (isMap(node)) {
      const pair = node.items.find((p) => keyOf(p) === s);
      if (pair) {
        next = pair.value;
        at = pair.key?.range?.[0] ?? pair.value?.range?.[0];
      }
    } else if (isSeq(node) && /^\d+$/.test(s)) {
      next = node.items[Number(s)];
      at = next?.range?.[0];
    }
    if (at === undefined) break;
    offset = at;
    depth++;
    if (!next) break;
    node = next;
  }
  return { offset, exact: depth === segs.length, depth };
}

// Upstream validates a CRD in its internal form, where a schema, the
// subresources and printer columns shared by all versions live at
// spec.validation, spec.subresources and spec.additionalPrinterColumns:
// errors name those paths even though the YAML has them under
// spec.versions[i].
const TOP_LEVEL = [
  [/^spec\.validation(?=\.|\[|$)/, 'schema'],
  [/^spec\.subresources(?=\.|\[|$)/, 'subresources'],
  [/^spec\.additionalPrinterColumns(?=\.|\[|$)/, 'additionalPrinterColumns'],
];

/** locate for errors about a CRD: also maps upstream's internal paths back to spec.versions[i]. */
export function locateInCRD(text, field) {
  const direct = locate(text, field);
  if (!direct || direct.exact) return direct;
  let best = direct;
  for (const [re, name] of TOP_LEVEL) {
    if (!re.test(field)) continue;
    for (let i = 0; i < 64; i++) {
      const alt = locate(text, field.replace(re, `spec.versions[${i}].${name}`));
      if (!alt || alt.depth < 3) break;
      if (alt.exact) return alt;
      if (alt.depth > best.depth) best = alt;
    }
  }
  return best;
}

// The CEL text of a YAML scalar's source up to the cursor: without its
// quote or block indicator, with quoting undone (for completion, which
// looks at the end of it).
export function exprBefore(src, type) {
  if (type === 'QUOTE_DOUBLE') return src.slice(1).replace(/\\(["\\/])/g, '$1');
  if (type === 'QUOTE_SINGLE') return src.slice(1).replace(/''/g, "'");
  if (type === 'BLOCK_LITERAL' || type === 'BLOCK_FOLDED') {
    const nl = src.indexOf('\n');
    return nl < 0 ? '' : src.slice(nl + 1).replace(/^[ \t]+/gm, ''); // without the block's indentation
  }
  return src;
}

/**
 * Where offset is in a CRD's text, for completion inside a CEL expression:
 * null unless offset is in the value of a "rule" or "messageExpression"
 * key of an x-kubernetes-validations item; else {schema, field, root,
 * before} with the schema node that carries the rule (plain JavaScript),
 * whether it is the resource's root (openAPIV3Schema) and the rule's text
 * up to offset.
 */
export function ruleAt(text, offset) {
  const doc = parse(text);
  if (!doc || !doc.contents) return null;
  const stack = []; // [{node, key}]
  let node = doc.contents;
  for (;;) {
    let found = null;
    if (isMap(node)) {
      for (const p of node.items) {
        const v = p.value;
        const end = v?.range ? v.range[2] : p.key?.range?.[2];
        const start = p.key?.range?.[0];
        if (start !== undefined && offset >= start && offset <= end) {
          found = { node: v, key: keyOf(p), parent: node };
          break;
        }
      }
    } else if (isSeq(node)) {
      node.items.forEach((it, i) => {
        if (!found && it?.range && offset >= it.range[0] && offset <= it.range[2]) found = { node: it, key: String(i), parent: node };
      });
    }
    if (!found) break;
    stack.push(found);
    if (!found.node || isScalar(found.node)) break;
    node = found.node;
  }
  const last = stack[stack.length - 1];
  if (!last || (last.key !== 'rule' && last.key !== 'messageExpression') || !isScalar(last.node)) return null;
  const v = last.node;
  if (offset < v.range[0] || offset > v.range[1]) return null;
  if (stack.length < 3 || stack[stack.length - 3].key !== 'x-kubernetes-validations') return null;
  const schemaNode = stack[stack.length - 3].parent;
  const root = stack.length >= 4 && stack[stack.length - 4].key === 'openAPIV3Schema';
  return { schema: schemaNode.toJSON(), field: last.key, root, before: exprBefore(text.slice(v.range[0], offset), v.type) };
}

export { isPair };

let lcText;
let lcStarts;
/** The 1-based line and column of an offset in text. */
export function lineCol(text, offset) {
  if (text !== lcText) {
    lcText = text;
    lcStarts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lcStarts.push(i + 1);
  }
  let lo = 0;
  let hi = lcStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lcStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - lcStarts[lo] + 1 };
}

/** The path a warning quotes ('unknown field "spec.x"'), or ''. */
export function warningField(w) {
  const m = /field "([^"]+)"/.exec(w);
  return m ? m[1] : '';
}

/**
 * Adds a position {line, column} to each error that has none (the engine
 * will report them itself; until then, or for input it could not place,
 * the field path is resolved in the text), and returns the positions of
 * the warnings (null where none is found).
 */
export function addPositions(text, errors, warnings, crd) {
  const find = crd ? locateInCRD : locate;
  for (const e of errors) {
    if (e.position || e.field === undefined) continue;
    const at = find(text, e.field);
    if (at) e.position = { ...lineCol(text, at.offset), inferred: true };
  }
  return warnings.map((w) => {
    const f = warningField(w);
    const at = f ? find(text, f) : null;
    return at ? { ...lineCol(text, at.offset), inferred: true } : null;
  });
}
