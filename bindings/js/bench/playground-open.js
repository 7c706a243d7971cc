// Page open -> first result of the playground, with its breakdown (the
// Performance API and the validation worker's marks, window.__crdlab.marks),
// in headless Chromium: each build directory is served from 127.0.0.1 with
// the module and bundles gzip'd (as the e2e test and the documented
// deployment), opened in a fresh browser, the directories taking turns so
// that a side-by-side comparison sees the same machine load.
//
//   node bench/playground-open.js [-n RUNS] [--repeat] DIR...
//     (default DIR: ../../build/playground; CHROMIUM=/usr/bin/chromium;
//      CHROME_ARGS="--js-flags=--liftoff-only" for a diagnostic run)
//   --repeat: also reload twice in the same browser context, once the
//     service worker controls the page (a repeat visit).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
let runs = 5;
let repeat = false;
const dirs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '-n') runs = Number(args[++i]);
  else if (args[i] === '--repeat') repeat = true;
  else dirs.push(resolve(args[i]));
}
if (!dirs.length) dirs.push(fileURLToPath(new URL('../../../build/playground/', import.meta.url)));

const types = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html', '.css': 'text/css', '.map': 'application/json' };
const server = createServer(async (req, res) => {
  const u = new URL(req.url, 'http://x');
  const [, n, ...rest] = decodeURIComponent(u.pathname).split('/');
  const root = dirs[Number(n)];
  let path = normalize('/' + rest.join('/')).replace(/^(\.\.[/\\])+/, '');
  if (path.endsWith('/')) path += 'index.html';
  try {
    const headers = { 'content-type': types[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-cache' };
    let body;
    if (/\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      try {
        body = await readFile(join(root, path + '.gz'));
        headers['content-encoding'] = 'gzip';
      } catch { /* no precompressed copy */ }
    }
    body ??= await readFile(join(root, path));
    res.writeHead(200, headers);
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;
const extra = process.env.CHROME_ARGS ? process.env.CHROME_ARGS.split(' ') : [];

async function open(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => window.__crdlab?.firstResultAt != null, null, { timeout: 120000 });
  const t = await page.evaluate(() => {
    const p = window.__crdlab;
    const nav = performance.getEntriesByType('navigation')[0];
    const m = p.marks ?? {};
    const r = p.lastResult ?? {};
    return {
      domContentLoaded: nav.domContentLoadedEventEnd, workerStarted: m.workerStart, moduleCompiled: p.moduleAt,
      engineStarted: m.engineStarted ?? p.readyAt, workerInit: p.initMs, firstRequestStarted: r.startAt,
      firstCompileMs: r.compileMs, firstValidateMs: r.validateMs, firstResult: p.firstResultAt,
    };
  });
  return Object.fromEntries(Object.entries(t).filter(([, v]) => typeof v === 'number').map(([k, v]) => [k, Math.round(v)]));
}

const results = dirs.map(() => ({ cold: [], repeat: [] }));
for (let i = 0; i < runs; i++) {
  for (let d = 0; d < dirs.length; d++) {
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extra],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
      const cold = await open(page, `${base}/${d}/`);
      results[d].cold.push(cold);
      console.log(`${dirs[d]} run ${i + 1}: ${JSON.stringify(cold)}`);
      if (repeat) {
        await page.waitForFunction(() => navigator.serviceWorker.ready.then(() => true), null, { timeout: 30000 });
        for (let k = 0; k < 2; k++) {
          await page.waitForTimeout(2500);
          const warm = await open(page, `${base}/${d}/`);
          results[d].repeat.push(warm);
          console.log(`${dirs[d]} run ${i + 1} repeat visit ${k + 1}: ${JSON.stringify(warm)}`);
        }
      }
    } finally {
      await browser.close();
    }
  }
}
server.close();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (let d = 0; d < dirs.length; d++) {
  for (const kind of ['cold', 'repeat']) {
    const rows = results[d][kind];
    if (!rows.length) continue;
    const keys = Object.keys(rows[0]);
    const med = Object.fromEntries(keys.map((k) => [k, median(rows.map((r) => r[k]).filter((v) => v !== undefined))]));
    console.log(`# ${dirs[d]} ${kind} (median of ${rows.length}): ${JSON.stringify(med)}; first result: ${rows.map((r) => r.firstResult).sort((a, b) => a - b).join(' ')}`);
  }
}
