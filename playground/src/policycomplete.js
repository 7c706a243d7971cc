// Where the cursor is in the Policy tab's text, for completion inside an
// admission policy's CEL expression (the module's "complete" op in its
// policy mode: internal/celcomplete.CompletePolicy, the one completion of
// the page's CRD rules and of `crdlab lsp`).
import { parseAllDocuments, isMap, isSeq, isScalar } from 'yaml';
import { exprBefore } from './yamlpath.js';

const policyKinds = new Set(['ValidatingAdmissionPolicy', 'MutatingAdmissionPolicy']);
const exprKeys = new Set(['expression', 'messageExpression', 'valueExpression']);

let cacheText;
let cacheDocs;
function documents(text) {
  if (text !== cacheText) {
    cacheText = text;
    try {
      cacheDocs = parseAllDocuments(text, { keepSourceTokens: false, uniqueKeys: false, strict: false });
      if (!Array.isArray(cacheDocs)) cacheDocs = []; // an empty stream
    } catch {
      cacheDocs = [];
    }
  }
  return cacheDocs;
}

const keyOf = (p) => (isScalar(p.key) ? String(p.key.value) : String(p.key ?? ''));

/**
 * null unless offset is in the value of an expression, messageExpression
 * or valueExpression under the spec of a ValidatingAdmissionPolicy or
 * MutatingAdmissionPolicy document; else {policy, before, field}: the
 * policy's document text (with the expression being typed replaced by ""
 * so that it decodes however unfinished the expression is), the
 * expression's text up to offset, and the key.
 */
export function policyExprAt(text, offset) {
  const doc = documents(text).find((d) => d.range && offset >= d.range[0] && offset <= d.range[2]);
  if (!doc || !isMap(doc.contents)) return null;
  const kind = doc.contents.items.find((p) => keyOf(p) === 'kind');
  if (!kind || !isScalar(kind.value) || !policyKinds.has(String(kind.value.value))) return null;
  const stack = [];
  let node = doc.contents;
  for (;;) {
    let found = null;
    if (isMap(node)) {
      for (const p of node.items) {
        const v = p.value;
        const end = v?.range ? v.range[2] : p.key?.range?.[2];
        const start = p.key?.range?.[0];
        if (start !== undefined && offset >= start && offset <= end) {
          found = { node: v, key: keyOf(p) };
          break;
        }
      }
    } else if (isSeq(node)) {
      node.items.forEach((it, i) => {
        if (!found && it?.range && offset >= it.range[0] && offset <= it.range[2]) found = { node: it, key: String(i) };
      });
    }
    if (!found) break;
    stack.push(found);
    if (!found.node || isScalar(found.node)) break;
    node = found.node;
  }
  const last = stack[stack.length - 1];
  if (!last || stack[0].key !== 'spec' || !exprKeys.has(last.key) || !isScalar(last.node)) return null;
  const v = last.node;
  if (offset < v.range[0] || offset > v.range[1]) return null;
  const quoted = v.type === 'QUOTE_DOUBLE' || v.type === 'QUOTE_SINGLE';
  if (quoted && offset === v.range[0]) return null; // before the opening quote
  // The expression replaced by "" (a quoted one not closed on the cursor's
  // line ends there: the parser took the following lines into it).
  let end = v.range[1];
  const lineEnd = text.indexOf('\n', offset);
  if (quoted && lineEnd >= 0 && end > lineEnd) end = lineEnd;
  const from = doc.range[0];
  const policy = text.slice(from, v.range[0]) + (v.type === 'BLOCK_LITERAL' || v.type === 'BLOCK_FOLDED' ? '""\n' : '""') + text.slice(end, doc.range[2]);
  return { policy, before: exprBefore(text.slice(v.range[0], offset), v.type), field: last.key };
}
