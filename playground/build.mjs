// Builds the static site: bundles src/main.js, src/worker.js and
// src/share-worker.js (with CodeMirror, the yaml parser and crdlab's JS
// binding) with esbuild, and
// copies the page, the service worker and the engine module next to them.
//   node build.mjs [--out DIR] [--wasm FILE]   (defaults: ../build/playground, ../build/crdlab.wasm)
import { build } from 'esbuild';
import { cp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { gzipSync, constants } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? resolve(process.argv[i + 1]) : def;
};
const out = arg('--out', join(here, '../build/playground'));
const wasm = arg('--wasm', join(here, '../build/crdlab.wasm'));

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
const res = await build({
  entryPoints: { main: join(here, 'src/main.js'), worker: join(here, 'src/worker.js'), 'share-worker': join(here, 'src/share-worker.js') },
  outdir: out,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox115', 'safari16.4'],
  minify: true,
  sourcemap: 'linked',
  external: ['node:*'],
  metafile: true,
  logLevel: 'warning',
});
for (const f of ['index.html', 'style.css']) await cp(join(here, f), join(out, f));
await cp(wasm, join(out, 'crdlab.wasm'));

// The service worker's cache is named after the content of the build.
const h = createHash('sha256');
for (const f of ['index.html', 'style.css', 'main.js', 'worker.js', 'share-worker.js', 'crdlab.wasm']) h.update(await readFile(join(out, f)));
const id = h.digest('hex').slice(0, 16);
await writeFile(join(out, 'sw.js'), (await readFile(join(here, 'sw.js'), 'utf8')).replace('BUILD_ID', id));

// Precompressed copies for static hosts that serve them (nginx gzip_static,
// Caddy precompressed): the module is 21 MB raw.
for (const f of ['crdlab.wasm', 'main.js', 'worker.js']) {
  const data = await readFile(join(out, f));
  await writeFile(join(out, f + '.gz'), gzipSync(data, { level: constants.Z_BEST_COMPRESSION }));
}
const size = async (f) => (await stat(join(out, f))).size;
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
for (const f of ['main.js', 'worker.js', 'crdlab.wasm']) console.log(`${f}: ${kb(await size(f))} raw, ${kb(await size(f + '.gz'))} gzip`);
console.log(`build ${id} in ${out}`);
