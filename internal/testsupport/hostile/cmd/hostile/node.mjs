// The Node surface of the hostile set (cmd/hostile -node): compiles
// crd.yaml and validates each document of object.yaml (if present) through
// bindings/js, and prints the outcome as hostile.RunGo renders it.
//
//   node node.mjs MODULE DIR
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { load } from '../../../../../bindings/js/src/index.js';

const [module, dir] = process.argv.slice(2);
const clip = (s) => (Buffer.byteLength(s) > 2000 ? Buffer.from(s).subarray(0, 2000).toString() + '…' : s);
const crdlab = await load(readFileSync(module), { stderr: () => {} });
const out = [];
let compiled;
try {
  compiled = crdlab.compile(readFileSync(join(dir, 'crd.yaml')));
} catch (e) {
  console.log('compile: ' + e.message);
  process.exit(0);
}
for (const e of compiled.errors) out.push('CRD: ' + clip(e.message));
const objectFile = join(dir, 'object.yaml');
if (out.length === 0 && existsSync(objectFile)) {
  for (const doc of documents(readFileSync(objectFile))) {
    try {
      const rep = compiled.validate(doc);
      if (!rep.object) continue;
      if (rep.object.decodeError) out.push(clip(rep.object.decodeError));
      for (const e of rep.object.errors) out.push(clip(e.message));
    } catch (e) {
      out.push('validate: ' + e.message);
    }
  }
}
console.log(out.length === 0 ? 'valid' : out.join('\n'));

// documents splits at "\n---" as hostile.Documents does, on bytes (the
// input may not be valid UTF-8).
function documents(b) {
  const sep = Buffer.from('\n---');
  if (b.indexOf(sep) < 0) return [b];
  const docs = [];
  let start = 0;
  for (;;) {
    const i = b.indexOf(sep, start);
    const d = b.subarray(start, i < 0 ? b.length : i);
    const t = d.toString('latin1').trim();
    if (t.length > 0 && t !== '---') docs.push(d);
    if (i < 0) break;
    start = i + sep.length;
  }
  return docs.length ? docs : [b];
}
