// End-to-end test of the playground: serves build/playground (assembled by
// `make wasm`) from 127.0.0.1, loads it in headless Chromium (Debian's
// /usr/bin/chromium driven by playwright-core), edits the object and checks
// the errors the page shows, then saves a screenshot
// ($PLAYGROUND_SCREENSHOT, default /tmp/crdlab-playground.png).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const root = process.env.PLAYGROUND_DIR ?? fileURLToPath(new URL('../../../build/playground/', import.meta.url));
const screenshot = process.env.PLAYGROUND_SCREENSHOT ?? '/tmp/crdlab-playground.png';
const types = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html', '.css': 'text/css' };

try {
  await stat(join(root, 'index.html'));
  await stat(join(root, 'crdlab.wasm'));
} catch {
  console.error(`not ok - ${root} has no index.html or crdlab.wasm: run \`make wasm\` first`);
  process.exit(1);
}

const server = createServer(async (req, res) => {
  let path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  if (path.endsWith('/')) path += 'index.html';
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

const objectWithTooManyReplicas = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-new-cron-object
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
  replicas: 15
`;

const steps = [];
const step = async (name, fn) => {
  try {
    await fn();
    console.log(`ok ${steps.length + 1} - ${name}`);
    steps.push(true);
  } catch (e) {
    console.log(`not ok ${steps.length + 1} - ${name}: ${e.message}`);
    steps.push(false);
  }
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(m.text()); });
  await page.goto(`${base}/`);

  await step('the engine loads and reports ready', async () => {
    await page.waitForFunction(() => /ready in \d+ ms/.test(document.getElementById('status').textContent), null, { timeout: 30000 });
    assert.match(await page.textContent('#status'), /\(ABI 1\) ready in \d+ ms/);
  });

  await step('the sample object is rejected for its unknown field (Strict)', async () => {
    await page.waitForFunction(() => document.getElementById('objectResult').textContent.length > 0, null, { timeout: 10000 });
    assert.match(await page.textContent('#objectResult'), /unknown field "spec.color"/);
    assert.equal((await page.textContent('#crdResult')).trim(), 'The CRD is valid.');
  });

  await step('editing the object shows the API server\'s errors', async () => {
    await page.fill('#object', objectWithTooManyReplicas);
    await page.waitForFunction(() => document.getElementById('objectResult').textContent.includes('spec.replicas'), null, { timeout: 10000 });
    const items = await page.$$eval('#objectResult li.err', (els) => els.map((e) => e.textContent));
    assert.ok(items.includes('spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10'), JSON.stringify(items));
    // A CEL rule on an object: upstream omits the value (field.OmitValueType).
    assert.ok(items.includes('spec: Invalid value: more than 5 replicas need an image from registry.example.com'), JSON.stringify(items));
  });

  await step('fixing the object makes it accepted, with its defaults shown', async () => {
    await page.fill('#object', objectWithTooManyReplicas.replace('replicas: 15\n', ''));
    await page.waitForFunction(() => document.getElementById('objectResult').textContent.includes('would be accepted'), null, { timeout: 10000 });
    const final = JSON.parse(await page.textContent('#final'));
    assert.equal(final.spec.replicas, 1);
  });

  await step('Warn prunes the unknown field and says so', async () => {
    await page.fill('#object', objectWithTooManyReplicas.replace('replicas: 15\n', 'replicas: 2\n  color: blue\n'));
    await page.selectOption('#fieldValidation', 'Warn');
    await page.waitForFunction(() => document.getElementById('objectResult').textContent.includes('pruned: spec.color'), null, { timeout: 10000 });
    assert.match(await page.textContent('#objectResult'), /Warning: unknown field "spec.color"/);
  });

  await step('an invalid CRD is reported and the object is not validated', async () => {
    await page.selectOption('#fieldValidation', 'Strict');
    const crd = await page.inputValue('#crd');
    await page.fill('#crd', crd.replace('scope: Namespaced', 'scope: Galactic'));
    await page.waitForFunction(() => document.getElementById('crdResult').textContent.includes('spec.scope'), null, { timeout: 10000 });
    assert.match(await page.textContent('#crdResult'), /spec.scope: Unsupported value: "Galactic"/);
    assert.match(await page.textContent('#objectResult'), /Fix the CRD first/);
    await page.fill('#crd', crd);
    await page.fill('#object', objectWithTooManyReplicas);
    await page.waitForFunction(() => document.getElementById('objectResult').textContent.includes('spec.replicas'), null, { timeout: 10000 });
  });

  await step('the cost panel lists the CEL rule with its estimate and its cost on the object', async () => {
    await page.waitForFunction(() => document.querySelectorAll('#costs table.costs tbody tr').length > 0, null, { timeout: 10000 });
    const rows = await page.$$eval('#costs table.costs tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assert.equal(rows.length, 1, JSON.stringify(rows));
    assert.match(rows[0][0], /self\.replicas <= 5/);
    assert.match(rows[0][2], /^\d[\d,]*\.\.\d[\d,]*$/);
    assert.match(rows[0][5], /^\d[\d,]*$/, 'runtime cost on the object');
    assert.match(await page.textContent('#costs'), /CRD total: [\d,]+ of the 100,000,000 limit; this object: [\d,]+ of its 10,000,000 runtime budget/);
  });

  await step('the page reports no script errors', async () => {
    assert.deepEqual(pageErrors, []);
  });

  await page.screenshot({ path: screenshot, fullPage: true });
  console.log(`# screenshot: ${screenshot}`);
} finally {
  await browser.close();
  server.close();
}
const failed = steps.filter((s) => !s).length;
console.log(`${steps.length - failed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
