// Runs the shared cases inside headless Chromium (Debian's /usr/bin/chromium
// driven by playwright-core; no browser download) against pages served from
// 127.0.0.1, and requires every result to equal the one Node computes.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { load } from '../src/index.js';
import { cases } from './cases.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const types = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };

const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  if (path === '/' || path === '/index.html') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>crdlab browser test</title>');
    return;
  }
  try {
    const body = await readFile(join(root, path));
    res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let passed = 0;
let failed = 0;
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`${base}/`);
  const inBrowser = await page.evaluate(async () => {
    const { load } = await import('/src/index.js');
    const { cases } = await import('/test/cases.js');
    const m = await load('/crdlab.wasm');
    const out = [];
    for (const c of cases) {
      try { out.push({ ok: true, value: await c.run(m) }); } catch (e) { out.push({ ok: false, error: String(e) }); }
    }
    return out;
  });
  const m = await load();
  const t = {
    equal: (a, b) => assert.equal(a, b),
    deepEqual: (a, b) => assert.deepEqual(a, b),
    ok: (v, msg) => assert.ok(v, msg),
    match: (s, re) => assert.match(s ?? '', re),
  };
  for (const [i, c] of cases.entries()) {
    const got = inBrowser[i];
    try {
      assert.ok(got.ok, got.error);
      c.check(t, got.value);
      assert.deepEqual(got.value, JSON.parse(JSON.stringify(await c.run(m))), 'browser and Node disagree');
      console.log(`ok ${i + 1} - ${c.name} (chromium)`);
      passed++;
    } catch (e) {
      console.log(`not ok ${i + 1} - ${c.name} (chromium): ${e.message}`);
      failed++;
    }
  }
} finally {
  await browser.close();
  server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
