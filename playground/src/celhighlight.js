// CEL highlighting inside the one-line values of `rule:` and
// `messageExpression:` keys of a CRD: self/oldSelf, function and macro
// calls, operators, string and number literals.
import { ViewPlugin, Decoration } from '@codemirror/view';
import { RangeSetBuilder } from '@codemirror/state';

const marks = {
  var: Decoration.mark({ class: 'cm-cel-var' }),
  fn: Decoration.mark({ class: 'cm-cel-fn' }),
  op: Decoration.mark({ class: 'cm-cel-op' }),
  lit: Decoration.mark({ class: 'cm-cel-lit' }),
};
const KEY = /^(\s*(?:-\s+)?(?:rule|messageExpression):\s*)(["']?)(.*?)\2\s*$/;
const TOKEN = /\b(self|oldSelf)\b|\b([A-Za-z_]\w*)(?=\s*\()|(&&|\|\||==|!=|<=|>=|[<>!?+\-*/%]|\bin\b)|('(?:[^'\\]|\\.)*'|\b\d+(?:\.\d+)?\b|\btrue\b|\bfalse\b|\bnull\b)/g;

function build(view) {
  const b = new RangeSetBuilder();
  for (const { from, to } of view.visibleRanges) {
    for (let pos = from; pos <= to;) {
      const line = view.state.doc.lineAt(pos);
      const m = KEY.exec(line.text);
      if (m && m[3] && !/^[|>]/.test(m[3])) {
        const start = line.from + m[1].length + m[2].length;
        TOKEN.lastIndex = 0;
        for (let t; (t = TOKEN.exec(m[3]));) {
          const kind = t[1] ? 'var' : t[2] ? 'fn' : t[3] ? 'op' : 'lit';
          b.add(start + t.index, start + t.index + t[0].length, marks[kind]);
        }
      }
      pos = line.to + 1;
    }
  }
  return b.finish();
}

export const celHighlight = ViewPlugin.fromClass(class {
  constructor(view) { this.decorations = build(view); }
  update(u) { if (u.docChanged || u.viewportChanged) this.decorations = build(u.view); }
}, { decorations: (v) => v.decorations });
