// End-to-end test of the playground: serves build/playground (assembled by
// `make wasm`: playground/build.mjs) from 127.0.0.1, the module gzip'd as
// the documented deployment serves it, and drives it in headless Chromium
// (Debian's /usr/bin/chromium through playwright-core): the worker, the
// editors' diagnostics, completion, sharing, examples, results, comfort
// features and offline reload. It measures page open -> first result and
// keystroke -> result (printed as "# measure" lines, reported in
// benchmarks/README.md) and writes the README's screenshots
// (docs/playground-light.png, docs/playground-dark.png,
// docs/playground-schema-bench.png, docs/playground-apply.png,
// docs/playground-kube-version.png; $PLAYGROUND_SHOTS
// to write them elsewhere).
import { createServer } from 'node:http';
import { readFile, stat, readdir } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { examples, crontabCRD } from '../../../playground/src/examples.js';
import { load } from '../src/index.js';

const root = process.env.PLAYGROUND_DIR ?? fileURLToPath(new URL('../../../build/playground/', import.meta.url));
const shots = process.env.PLAYGROUND_SHOTS ?? fileURLToPath(new URL('../../../docs/', import.meta.url));
const types = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html', '.css': 'text/css', '.map': 'application/json' };

try {
  await stat(join(root, 'index.html'));
  await stat(join(root, 'crdlab.wasm'));
  await stat(join(root, 'main.js'));
} catch {
  console.error(`not ok - ${root} has no index.html, main.js or crdlab.wasm: run \`make wasm\` first`);
  process.exit(1);
}

// The HTTPRoute CRD of the Gateway API module, when the module cache has it.
async function httpRouteCRD() {
  if (process.env.HTTPROUTE_CRD) return readFile(process.env.HTTPROUTE_CRD, 'utf8');
  try {
    const cache = execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
    const dirs = (await readdir(join(cache, 'sigs.k8s.io'))).filter((d) => d.startsWith('gateway-api@')).sort();
    if (!dirs.length) return null;
    return await readFile(join(cache, 'sigs.k8s.io', dirs[dirs.length - 1], 'config/crd/standard/gateway.networking.k8s.io_httproutes.yaml'), 'utf8');
  } catch {
    return null;
  }
}

// A static server; the module and bundles go out gzip'd (from the .gz files
// the build writes) to clients that accept it.
let serving = true;
const server = createServer(async (req, res) => {
  if (!serving) {
    req.socket.destroy();
    return;
  }
  let path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
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

const steps = [];
const step = async (name, fn) => {
  const t = Date.now();
  try {
    await fn();
    console.log(`ok ${steps.length + 1} - ${name} (${Date.now() - t} ms)`);
    steps.push(true);
  } catch (e) {
    console.log(`not ok ${steps.length + 1} - ${name}: ${e.stack ?? e.message}`);
    steps.push(false);
  }
};
const measures = [];
const measure = (name, ms) => {
  measures.push([name, ms]);
  console.log(`# measure ${name}: ${Math.round(ms)} ms`);
};
// The longest main-thread task allowed while validating (typing in
// CronTab, while a 400-rule CRD compiles, typing in HTTPRoute), and the
// longest run of the editor's change handler: asserted only when
// LONG_TASK_MAX is set (benchmarks/README.md's measured runs use 50, the
// issue's target). Long tasks are wall time: on a loaded machine the
// layout of a result (15-30 ms of CPU) is observed at 50-300 ms, and no
// test may depend on the machine's load. Without it the runs print them
// as "# measure" lines, and what keeps the engine off the main thread is
// checked without a clock: the page's bundle does not contain it (the
// 'the engine runs in a worker' step).
const LONG_TASK_MAX = process.env.LONG_TASK_MAX ? Number(process.env.LONG_TASK_MAX) : null;
const noLongTasks = (tasks, what) => {
  if (LONG_TASK_MAX !== null) assert.ok(Math.max(0, ...tasks) < LONG_TASK_MAX, `main-thread long tasks ${JSON.stringify(tasks)} ${what}`);
};
// How long a step waits for something the page shows after the engine
// answers (a completion list, a tooltip): generous, since a wait costs
// nothing when the page works and a loaded machine can take seconds (a
// 10 s wait for a policy completion failed at load average 35).
const WAIT = 60000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

// Page helpers.
const idle = (page, timeout = 30000) => page.waitForFunction(() => window.__crdlab?.idle?.(), null, { timeout, polling: 20 });
const setText = (page, name, text) => page.evaluate(([n, t]) => {
  const v = window.__crdlab.editors[n];
  v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: t } });
}, [name, text]);
const getText = (page, name) => page.evaluate((n) => window.__crdlab.editors[n].state.doc.toString(), name);
const settle = async (page, timeout) => {
  await page.waitForTimeout(30);
  await idle(page, timeout);
};
const problems = (page) => page.$$eval('#problems li', (lis) => lis.map((li) => ({ loc: li.querySelector('.loc').textContent, msg: li.querySelector('.msg').textContent })));
const resultsText = (page) => page.evaluate(() => ['problems', 'crdResult', 'objectResult', 'final', 'costs'].map((id) => document.getElementById(id).innerText).join('\n'));
const lineOf = (text, needle) => text.slice(0, text.indexOf(needle)).split('\n').length;

try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, colorScheme: 'light' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(m.text()); });

  await step('the engine loads in a worker; the header shows its version', async () => {
    await page.goto(`${base}/`);
    await page.waitForFunction(() => window.__crdlab?.firstResultAt !== null && window.__crdlab?.firstResultAt !== undefined, null, { timeout: 30000 });
    const t = await page.evaluate(() => {
      const p = window.__crdlab;
      const nav = performance.getEntriesByType('navigation')[0];
      const m = p.marks ?? {};
      const r = p.lastResult ?? {};
      return {
        domContentLoaded: nav.domContentLoadedEventEnd, workerStarted: m.workerStart, moduleCompiled: m.moduleCompiled,
        engineStarted: m.engineStarted, workerInit: p.initMs, firstRequestStarted: r.startAt, firstCompileMs: r.compileMs, firstValidateMs: r.validateMs,
        firstResult: p.firstResultAt,
      };
    });
    measure('page open -> first result (CronTab, module gzip)', t.firstResult);
    // workerStarted..engineStarted and firstRequestStarted are the worker's
    // marks in the page's clock; workerInit = instantiate + Go's _initialize;
    // firstCompileMs/firstValidateMs: the first CronTab compile/validation
    // in the fresh instance (Liftoff code while V8 tiers up).
    console.log(`# page open breakdown (ms since navigation): ${JSON.stringify(Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v)])))}`);
    const v = await page.textContent('#engineVersion');
    assert.match(v, /^engine \S+ · ABI 1$/);
    assert.doesNotMatch(v, /engine dev/, 'the module is stamped with its version by wasm.mk');
    assert.match(await page.textContent('#status'), /ready in \d+ ms/);
  });

  await step('CronTab opens with its errors marked on their lines in the object editor', async () => {
    await settle(page);
    const obj = await getText(page, 'object');
    const ps = await problems(page);
    const rep = ps.find((p) => p.msg.startsWith('spec.replicas: Invalid value: 15'));
    assert.ok(rep, JSON.stringify(ps));
    assert.equal(rep.loc, `object:${lineOf(obj, 'replicas: 15')}`);
    const cron = ps.find((p) => p.msg.startsWith('spec.cronSpec: Invalid value'));
    assert.equal(cron?.loc, `object:${lineOf(obj, 'cronSpec:')}`);
    const marked = await page.$$eval('#objectEditor .cm-lintRange-error', (els) => els.map((e) => e.textContent));
    assert.ok(marked.some((t) => t.includes('replicas: 15')), JSON.stringify(marked));
    assert.ok(marked.some((t) => t.includes('cronSpec: "* * * *"')), JSON.stringify(marked));
    // The rule on spec is reported on spec.
    assert.ok(ps.some((p) => p.loc === `object:${lineOf(obj, 'spec:')}` && p.msg.includes('more than 5 replicas')), JSON.stringify(ps));
  });

  await step('hovering a mark shows the message; clicking a problem jumps to its line', async () => {
    await page.hover('#objectEditor .cm-lintRange-error >> nth=0');
    await page.waitForSelector('.cm-tooltip-lint', { timeout: WAIT });
    assert.match(await page.textContent('.cm-tooltip-lint'), /Invalid value/);
    await page.mouse.move(5, 5);
    const ps = await problems(page);
    const i = ps.findIndex((p) => p.msg.startsWith('spec.replicas'));
    await page.click(`#problems li >> nth=${i} >> .loc`);
    const line = await page.evaluate(() => { const v = window.__crdlab.editors.object; return v.state.doc.lineAt(v.state.selection.main.head).number; });
    assert.equal(`object:${line}`, ps[i].loc);
  });

  await step('CRD errors are marked on the CRD editor line they name', async () => {
    const crd = await getText(page, 'crd');
    await setText(page, 'crd', crd.replace('scope: Namespaced', 'scope: Galactic').replace("self.replicas <= 5 ||", 'self.replicaz <= 5 ||'));
    await settle(page);
    const now = await getText(page, 'crd');
    const ps = await problems(page);
    assert.ok(ps.some((p) => p.loc === `CRD:${lineOf(now, 'scope: Galactic')}` && p.msg.includes('spec.scope: Unsupported value: "Galactic"')), JSON.stringify(ps));
    assert.ok(ps.some((p) => p.loc === `CRD:${lineOf(now, '- rule:')}` && /x-kubernetes-validations\[0\]\.rule: Invalid value/.test(p.msg) && p.msg.includes('replicaz')), JSON.stringify(ps));
    const marked = await page.$$eval('#crdEditor .cm-lintRange-error', (els) => els.map((e) => e.textContent));
    assert.ok(marked.some((t) => t.includes('scope: Galactic')), JSON.stringify(marked));
    assert.match(await page.textContent('#objectResult'), /Fix the CRD first/);
    await setText(page, 'crd', crd);
    await settle(page);
  });

  await step('updates: a transition rule\'s error on its object line; an undecodable old object marked in its editor', async () => {
    await page.selectOption('#examples', 'transition-rules');
    await settle(page);
    assert.ok(await page.isVisible('#oldPane'));
    const obj = await getText(page, 'object');
    let ps = await problems(page);
    assert.ok(ps.some((p) => p.loc === `object:${lineOf(obj, 'storageClass: slow')}` && p.msg.includes('storageClass is immutable')), JSON.stringify(ps));
    await setText(page, 'old', 'spec:\n  storageClass: [fast\n');
    await settle(page);
    ps = await problems(page);
    assert.ok(ps.some((p) => p.loc.startsWith('old object:') && p.msg.includes('old object')), JSON.stringify(ps));
    assert.ok((await page.$$eval('#oldEditor .cm-lintRange-error', (els) => els.length)) > 0);
    await page.selectOption('#examples', 'crontab');
    await settle(page);
    assert.ok(!(await page.isVisible('#oldPane')));
  });

  await step('CEL inside rule strings is highlighted', async () => {
    await page.evaluate(() => {
      const v = window.__crdlab.editors.crd;
      v.dispatch({ effects: EditorViewScroll(v, v.state.doc.toString().indexOf('- rule:')) });
      function EditorViewScroll(view, pos) { return view.constructor.scrollIntoView(pos, { y: 'center' }); }
    });
    await page.waitForTimeout(100);
    const vars = await page.$$eval('#crdEditor .cm-cel-var', (els) => els.map((e) => e.textContent));
    const fns = await page.$$eval('#crdEditor .cm-cel-fn', (els) => els.map((e) => e.textContent));
    assert.deepEqual(vars, ['self', 'self']);
    assert.deepEqual(fns, ['startsWith']);
    const [cel, str] = await page.evaluate(() => [
      getComputedStyle(document.querySelector('#crdEditor .cm-cel-var')).color,
      getComputedStyle(document.querySelector('#crdEditor .cm-cel-lit')).color,
    ]);
    assert.notEqual(cel, str);
  });

  await step('completion offers the schema fields at the rule\'s location (self., self.<field>.), served by the module\'s "complete" op in the worker', async () => {
    const crd = await getText(page, 'crd');
    const served = await page.evaluate(() => window.__crdlab.completions ?? 0);
    const pos = crd.indexOf('"self.replicas') + '"self.'.length;
    await page.evaluate((p) => { const v = window.__crdlab.editors.crd; v.focus(); v.dispatch({ selection: { anchor: p } }); }, pos);
    const t0 = Date.now();
    await page.keyboard.press('Control+Space');
    await page.waitForSelector('.cm-tooltip-autocomplete li', { timeout: WAIT, state: 'attached' });
    measure('completion after self. (Ctrl+Space -> list shown, the worker\'s "complete")', Date.now() - t0);
    const labels = await page.$$eval('.cm-tooltip-autocomplete li .cm-completionLabel', (els) => els.map((e) => e.textContent));
    assert.deepEqual([...labels].sort(), ['cronSpec', 'image', 'replicas']);
    // The options came from the worker (the engine's internal/celcomplete):
    // the page has no completion of its own.
    assert.equal(await page.evaluate(() => window.__crdlab.completions), served + 1);
    const details = await page.$$eval('.cm-tooltip-autocomplete li .cm-completionDetail', (els) => els.map((e) => e.textContent));
    assert.ok(details.includes('int') && details.includes('string'), JSON.stringify(details));
    const bundle = await readFile(join(root, 'main.js'), 'utf8');
    assert.ok(!bundle.includes('exists_one(x, predicate)'), 'the page bundle carries no CEL function table (celcomplete.js is gone)');
    await page.screenshot({ path: join(shots, 'playground-completion.png') });
    await page.keyboard.press('Escape');
    // A nested object, one level down, in the status example's... own CRD.
    const nested = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: things, singular: thing, kind: Thing}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - rule: "self.spec.template.x"
        properties:
          spec:
            type: object
            properties:
              template:
                type: object
                properties:
                  image: {type: string}
                  pullPolicy: {type: string}
`;
    await setText(page, 'crd', nested);
    const p2 = nested.indexOf('self.spec.template.') + 'self.spec.template.'.length;
    await page.evaluate((p) => { const v = window.__crdlab.editors.crd; v.focus(); v.dispatch({ selection: { anchor: p } }); }, p2);
    await page.keyboard.press('Control+Space');
    await page.waitForSelector('.cm-tooltip-autocomplete li', { timeout: WAIT, state: 'attached' });
    const l2 = await page.$$eval('.cm-tooltip-autocomplete li .cm-completionLabel', (els) => els.map((e) => e.textContent));
    assert.deepEqual([...l2].sort(), ['image', 'pullPolicy']);
    await page.keyboard.press('Escape');
  });

  await step('completion follows list items, macro variables, map values, embedded resources, and offers the receiver type\'s functions', async () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: pools.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: pools, singular: pool, kind: Pool}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "self.members.all(m, m.)"
            - rule: "self.members[0].address."
            - rule: "self.weights['a']."
            - rule: "self.template."
            - rule: "oldSelf.labels.all(k, k.)"
            properties:
              members:
                type: array
                items:
                  type: object
                  properties:
                    address: {type: string}
                    port: {type: integer}
              weights:
                type: object
                additionalProperties:
                  type: object
                  properties:
                    value: {type: integer}
                    zone: {type: string}
              labels:
                type: object
                additionalProperties: {type: string}
              template:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
`;
    await setText(page, 'crd', crd);
    const offer = async (needle) => {
      const p = crd.indexOf(needle) + needle.length;
      await page.evaluate((q) => { const v = window.__crdlab.editors.crd; v.focus(); v.dispatch({ selection: { anchor: q } }); }, p);
      await page.keyboard.press('Control+Space');
      await page.waitForSelector('.cm-tooltip-autocomplete li', { timeout: WAIT, state: 'attached' });
      const l = await page.$$eval('.cm-tooltip-autocomplete li .cm-completionLabel', (els) => els.map((e) => e.textContent));
      await page.keyboard.press('Escape');
      await page.waitForSelector('.cm-tooltip-autocomplete', { state: 'detached', timeout: WAIT });
      return [...l].sort();
    };
    assert.deepEqual(await offer('all(m, m.'), ['address', 'port']);
    const str = await offer('self.members[0].address.');
    for (const f of ['startsWith', 'endsWith', 'matches', 'size', 'split']) assert.ok(str.includes(f), JSON.stringify(str));
    assert.ok(!str.includes('all'), JSON.stringify(str));
    assert.deepEqual(await offer("self.weights['a']."), ['value', 'zone']);
    assert.deepEqual(await offer('self.template.'), ['apiVersion', 'kind', 'metadata']);
    assert.ok((await offer('all(k, k.')).includes('startsWith'));
    // Choosing an option inserts it.
    const p = crd.indexOf('all(m, m.') + 'all(m, m.'.length;
    await page.evaluate((q) => { const v = window.__crdlab.editors.crd; v.focus(); v.dispatch({ selection: { anchor: q } }); }, p);
    await page.keyboard.type('po');
    await page.waitForFunction(() => [...document.querySelectorAll('.cm-tooltip-autocomplete li .cm-completionLabel')].map((e) => e.textContent).join() === 'port', null, { timeout: WAIT });
    await page.waitForTimeout(200); // CodeMirror ignores Enter just after the list opens (interactionDelay)
    await page.keyboard.press('Enter');
    assert.match(await getText(page, 'crd'), /self\.members\.all\(m, m\.port\)/);
  });

  await step('the engine runs in a worker: the CRD is compiled once, object edits reuse it, the main thread stays free', async () => {
    await page.selectOption('#examples', 'crontab');
    await settle(page);
    // Compiling happens once per CRD text: object edits reuse the handle.
    await setText(page, 'object', (await getText(page, 'object')).replace('replicas: 15', 'replicas: 4'));
    await settle(page);
    assert.equal(await page.evaluate(() => window.__crdlab.lastResult.compileMs), 0);
    await page.evaluate(() => {
      window.__longTasks = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) { window.__longTasks.push(e.duration); (window.__ltAt ??= []).push([Math.round(e.startTime), Math.round(e.duration)]); } }).observe({ type: 'longtask' });
    });
    // Ten keystrokes in the object editor.
    const lat = [];
    const obj = await getText(page, 'object');
    await page.evaluate((p) => { const v = window.__crdlab.editors.object; v.focus(); v.dispatch({ selection: { anchor: p } }); }, obj.indexOf('my-awesome-cron-image') + 'my-awesome-cron-image'.length);
    for (let i = 0; i < 10; i++) {
      const before = await page.evaluate(() => window.__crdlab.results);
      await page.keyboard.type('x');
      await page.waitForFunction((b) => window.__crdlab.results > b && window.__crdlab.idle(), before, { polling: 5 });
      lat.push(await page.evaluate(() => window.__crdlab.lastLatency));
    }
    measure('CronTab object keystroke -> result (median of 10)', median(lat));
    const typingTasks = await page.evaluate(() => window.__longTasks.splice(0));
    measure('longest main-thread task while typing (CronTab)', Math.max(0, ...typingTasks));
    noLongTasks(typingTasks, 'while typing');
    // A CRD that takes a while to compile: the main thread stays free, and
    // the keystrokes made meanwhile are validated once, in their last state.
    const props = Array.from({ length: 400 }, (_, i) => `              f${i}:\n                type: string\n                maxLength: 64\n                x-kubernetes-validations:\n                - rule: "self.startsWith('a') || self.size() < ${i + 2}"\n`).join('');
    // The new text is put in the editor with "as I type" off, and the
    // editor given time to parse and paint it: what is measured is the
    // main thread while the worker compiles (Ctrl+Enter) and while the
    // keystrokes made meanwhile wait for it, up to the result.
    await page.uncheck('#live');
    await setText(page, 'crd', crontabCRD.replace('              cronSpec:\n', props + '              cronSpec:\n'));
    await page.waitForTimeout(1500);
    await page.check('#live');
    await page.evaluate(() => window.__longTasks.splice(0));
    const before = await page.evaluate(() => window.__crdlab.results);
    const o2 = await getText(page, 'object');
    await page.evaluate((p) => { const v = window.__crdlab.editors.object; v.focus(); v.dispatch({ selection: { anchor: p } }); }, o2.indexOf('replicas: 4') + 'replicas: 4'.length);
    const typing0 = Date.now();
    await page.keyboard.type('321', { delay: 20 });
    const typingMs = Date.now() - typing0;
    await page.waitForFunction((b) => window.__crdlab.results > b && !window.__crdlab.busy(), before, { timeout: 120000, polling: 10 });
    const longTasks = await page.evaluate(() => window.__longTasks.splice(0));
    await settle(page, 120000);
    const results = (await page.evaluate(() => window.__crdlab.results)) - before;
    const compileMs = await page.evaluate(() => window.__crdlab.compileMs);
    measure('compile of a CRD with 400 rules, in the worker', compileMs);
    measure('longest main-thread task during that compile', Math.max(0, ...longTasks));
    console.log(`# the page's own handlers, longest run (ms): ${JSON.stringify(await page.evaluate(() => window.__crdlab.handlers))}; over 30 ms [name, ms, at]: ${JSON.stringify(await page.evaluate(() => window.__crdlab.slow.splice(0)))}; long tasks [at, ms]: ${JSON.stringify(await page.evaluate(() => (window.__ltAt ?? []).splice(0)))}`);
    measure('cost view render, 400 rules', await page.evaluate(() => window.__crdlab.costRenderMs));
    console.log(`# cost reports equal to the one shown, not re-rendered: ${await page.evaluate(() => window.__crdlab.costSkipped ?? 0)}`);
    // Keystrokes made while the worker compiles are validated once, in
    // their last state: asserted when the compile outlasted the typing
    // (as the timings observed imply, not a bound on them).
    if (compileMs > typingMs) assert.ok(results <= 2, `${results} results for 3 keystrokes typed in ${typingMs} ms during a ${compileMs} ms compile`);
    else console.log(`# the compile (${compileMs} ms) ended before the typing (${typingMs} ms): coalescing not exercised`);
    assert.ok((await problems(page)).some((p) => p.msg.startsWith('spec.replicas: Invalid value: 4321')), 'the last state is validated');
    // The engine is not on the main thread: a compile of seconds leaves no
    // long task there (LONG_TASK_MAX: see its definition).
    noLongTasks(longTasks, `while the worker compiled for ${compileMs} ms`);
    const own = await page.evaluate(() => window.__crdlab.handlers);
    if (LONG_TASK_MAX !== null) assert.ok(own.edit < 50, `the editor's change handler ran ${own.edit} ms`);
    // Without a clock: the engine is in the workers' bundle, never in the
    // page's (the main thread cannot run it).
    const bundle = await readFile(join(root, 'main.js'), 'utf8');
    assert.ok(!bundle.includes('crdlab_call') && (await readFile(join(root, 'worker.js'), 'utf8')).includes('crdlab_call'), 'the page bundle (main.js) calls the module: the engine would run on the main thread');
  });

  await step('share: a URL holding every field restores the exact state, valid CRD or not', async () => {
    await page.selectOption('#examples', 'multi-version');
    await settle(page);
    await page.check('#modeUpdate');
    await setText(page, 'old', 'apiVersion: example.com/v1beta1\nkind: Gadget\nmetadata:\n  name: sample\nspec:\n  size: S\n');
    await page.selectOption('#fieldValidation', 'Warn');
    await page.selectOption('#subresource', 'status');
    await page.selectOption('#version', 'v1');
    await setText(page, 'crd', (await getText(page, 'crd')).replace('scope: Namespaced', 'scope: Galactic') + '# ünïcödé ✓\n');
    await settle(page);
    const state = await page.evaluate(() => window.__crdlab.getState());
    await page.click('#share');
    await page.waitForFunction(() => !!window.__crdlab.sharedURL);
    const url = await page.evaluate(() => window.__crdlab.sharedURL);
    assert.match(url, /#s=[A-Za-z0-9_-]+$/);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), url);
    const p2 = await context.newPage();
    await p2.goto(url);
    await p2.waitForFunction(() => window.__crdlab?.results > 0, null, { timeout: 30000 });
    assert.deepEqual(await p2.evaluate(() => window.__crdlab.getState()), state);
    assert.match(await p2.textContent('#problems'), /Galactic/);
    await p2.close();
    // The address bar is kept up to date without pressing Share.
    await setText(page, 'object', 'kind: Changed\n');
    await page.waitForFunction(() => window.__crdlab.hashSaved > 0 && location.hash.length > 3);
    await page.waitForTimeout(400);
    const p3 = await context.newPage();
    await p3.goto(page.url());
    await p3.waitForFunction(() => window.__crdlab?.results > 0, null, { timeout: 30000 });
    assert.equal(await p3.evaluate(() => window.__crdlab.getState().object), 'kind: Changed\n');
    await p3.close();
  });

  await step(`every example (${examples.length}) loads and shows its point`, async () => {
    const failures = [];
    for (const x of examples) {
      await page.selectOption('#examples', x.id);
      await settle(page);
      await page.waitForFunction(() => document.getElementById('costs').textContent.length > 0);
      const text = await resultsText(page);
      for (const s of x.shows) if (!text.includes(s)) failures.push(`${x.id}: no "${s}"`);
      for (const s of x.hides ?? []) if (text.includes(s)) failures.push(`${x.id}: shows "${s}"`);
      assert.equal(await page.textContent('#about'), x.about);
    }
    assert.deepEqual(failures, []);
  });

  await step('the final object is a diff: pruned fields struck out, defaults marked; download', async () => {
    await page.selectOption('#examples', 'defaulting-pruning');
    await settle(page);
    const pruned = await page.$$eval('#final .dl.pruned', (els) => els.map((e) => e.textContent.trim()));
    const added = await page.$$eval('#final .dl.added', (els) => els.map((e) => e.textContent.trim()));
    assert.deepEqual(pruned, ['debug: true']);
    assert.ok(added.includes('replicas: 1') && added.includes('strategy:') && added.includes('type: RollingUpdate'), JSON.stringify(added));
    assert.equal(await page.$eval('#final .dl.pruned', (e) => getComputedStyle(e).textDecorationLine), 'line-through');
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    assert.equal(dl.suggestedFilename(), 'sample.yaml');
    const body = await readFile(await dl.path(), 'utf8');
    assert.match(body, /replicas: 1\n/);
    assert.doesNotMatch(body, /debug/);
  });

  await step('the cost view: bars against the limit, over-budget rules first with their fixes, blanks where nothing applies', async () => {
    await page.selectOption('#examples', 'cost-over-budget');
    await settle(page);
    await page.waitForFunction(() => document.querySelector('#costs table'));
    const rows = await page.$$eval('#costs tbody tr', (trs) => trs.map((tr) => ({ over: tr.classList.contains('over'), cells: [...tr.cells].map((c) => c.innerText) })));
    assert.ok(rows[0].over, JSON.stringify(rows));
    assert.match(rows[0].cells[0], /fix: maxItems ≤ [\d,]+ on spec\.names/);
    assert.match(rows[0].cells[2], /over the limit/);
    assert.equal(await page.$eval('#costs tbody tr .bar .fill', (e) => e.style.width), '100%');
    assert.match(await page.textContent('#costs .total'), /CRD total: [\d,≈.×^]+ of the 100,000,000 limit/);
    // No garbage: no "..N" ranges without a minimum, no 19-digit numbers.
    const all = await page.textContent('#costs');
    assert.doesNotMatch(all, /(^|[^\d])\.\.\d/);
    assert.doesNotMatch(all, /\d{1,3}(,\d{3}){6,}/);
    // CronTab: a runtime cost on the object.
    await page.selectOption('#examples', 'crontab');
    await settle(page);
    await page.waitForFunction(() => document.querySelectorAll('#costs tbody tr').length === 1);
    assert.match((await page.$$eval('#costs tbody td', (tds) => tds.map((t) => t.innerText)))[3], /^\d[\d,]*$/);
    // An object that does not decode: no runtime cost, blank.
    await setText(page, 'object', 'spec: [unclosed\n');
    await settle(page);
    await page.waitForTimeout(100);
    assert.equal((await page.$$eval('#costs tbody td', (tds) => tds.map((t) => t.innerText)))[3], '');
    // An update: the transition rule's runtime cost is blank, not 0.
    await page.selectOption('#examples', 'transition-rules');
    await settle(page);
    await page.waitForFunction(() => document.querySelectorAll('#costs tbody tr').length === 1);
    const cells = await page.$$eval('#costs tbody td', (tds) => tds.map((t) => t.innerText));
    assert.equal(cells[3], '');
    assert.match(cells[2], /^\d/);
  });

  await step('the JSON Schema panel: the export of the CRD at its version (byte for byte the binding\'s), draft and strict, copy and download', async () => {
    const node = await load(new URL('../crdlab.wasm', import.meta.url));
    const schemaText = () => page.$eval('#jsonSchema', (e) => e.textContent);
    const waitSchema = (before) => page.waitForFunction((b) => window.__crdlab.schema.results > b, before, { timeout: 30000 });
    await page.selectOption('#examples', 'crontab');
    await settle(page);
    await page.waitForFunction(() => document.getElementById('jsonSchema').textContent.includes('"$schema"'), null, { timeout: 30000 });
    const crd = await getText(page, 'crd');
    const want = node.schema(crd).schemas[0];
    assert.equal(await schemaText(), want.document);
    assert.equal(JSON.parse(await schemaText()).$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.match(await page.textContent('#schemaInfo'), /^crontab_v1\.json · CronTab stable\.example\.com\/v1/);
    // draft-07, strict: the document changes, and is the binding's.
    let before = await page.evaluate(() => window.__crdlab.schema.results);
    await page.selectOption('#schemaDraft', '07');
    await waitSchema(before);
    before = await page.evaluate(() => window.__crdlab.schema.results);
    await page.check('#schemaStrict');
    await waitSchema(before);
    const strict = node.schema(crd, { draft: '07', strict: true }).schemas[0].document;
    assert.equal(await schemaText(), strict);
    assert.equal(JSON.parse(strict).additionalProperties, false);
    // An object edit does not export again (same CRD and version).
    const n = await page.evaluate(() => window.__crdlab.schema.results);
    await setText(page, 'object', (await getText(page, 'object')).replace('replicas: 15', 'replicas: 3'));
    await settle(page);
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => window.__crdlab.schema.results), n);
    // Copy and download.
    await page.click('#schemaCopy');
    await page.waitForFunction(() => window.__crdlab.schema.copied > 0);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), strict);
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#schemaDownload')]);
    assert.equal(dl.suggestedFilename(), 'crontab_v1.json');
    assert.equal(await readFile(await dl.path(), 'utf8'), strict);
    // The version picked under "version": a multi-version CRD.
    await page.selectOption('#examples', 'multi-version');
    await settle(page);
    const mv = await getText(page, 'crd');
    const versions = node.compile(mv).versions;
    assert.ok(versions.length > 1, JSON.stringify(versions));
    for (const v of versions) {
      before = await page.evaluate(() => window.__crdlab.schema.results);
      await page.selectOption('#version', v);
      await settle(page);
      await page.waitForFunction((x) => document.getElementById('schemaInfo').textContent.includes('/' + x + ' '), v, { timeout: 30000 });
      assert.equal(await schemaText(), node.schema(mv, { versions: [v], draft: '07', strict: true }).schemas[0].document);
    }
    // A rejected CRD: no schema, and why.
    await setText(page, 'crd', mv.replace('scope: Namespaced', 'scope: Galactic'));
    await settle(page);
    await page.waitForFunction(() => /would reject this CRD/.test(document.getElementById('jsonSchema').textContent), null, { timeout: 30000 });
    assert.ok(await page.isDisabled('#schemaCopy'));
    await page.selectOption('#schemaDraft', '2020-12');
    await page.uncheck('#schemaStrict');
  });

  await step('time it: the cost view shows each rule\'s wall time per evaluation beside its cost units (bench in the cost worker)', async () => {
    await page.selectOption('#examples', 'lists');
    await settle(page);
    await page.waitForFunction(() => document.querySelector('#costs #timeIt'), null, { timeout: 30000 });
    const rows = await page.$$eval('#costs tbody tr', (trs) => trs.length);
    assert.ok(rows >= 2, `${rows} rules`);
    assert.equal(await page.$$eval('#costs thead th', (ths) => ths.length), 4);
    const before = await page.evaluate(() => window.__crdlab.bench.results);
    const t = Date.now();
    await page.click('#timeIt');
    await page.waitForFunction((b) => window.__crdlab.bench.results > b, before, { timeout: 120000 });
    measure(`time it, ${rows} rules (in the cost worker)`, Date.now() - t);
    await page.waitForFunction(() => document.querySelectorAll('#costs thead th').length === 5);
    const heads = await page.$$eval('#costs thead th', (ths) => ths.map((h) => h.innerText));
    assert.equal(heads[4], 'wall time per evaluation');
    const cells = await page.$$eval('#costs tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.innerText)));
    const timed = cells.filter((c) => /^\d[\d.]* (ns|µs|ms)\n\d+× · /.test(c[4]));
    assert.ok(timed.length >= 1, JSON.stringify(cells));
    // Beside the runtime cost units of the same rule.
    for (const c of timed) assert.match(c[3], /^\d[\d,]*$/, JSON.stringify(c));
    assert.match(await page.textContent('#costs .benchbar'), /whole request [\d.]+ (ns|µs|ms) · all rules [\d.]+ (ns|µs|ms) \(medians of 11 batches, wasip1\/wasm in this browser/);
    await page.evaluate(() => document.querySelector('#costs').scrollIntoView());
    await page.screenshot({ path: join(shots, 'playground-schema-bench.png'), fullPage: true });
    // The times belong to that object: an edit removes them until timed again.
    await setText(page, 'object', (await getText(page, 'object')) + '\n');
    await settle(page);
    await page.waitForFunction(() => document.querySelectorAll('#costs thead th').length === 4, null, { timeout: 30000 });
    assert.equal(await page.textContent('#timeIt'), 'time it');
  });

  await step('Ctrl+Enter validates when "as I type" is off', async () => {
    await page.selectOption('#examples', 'crontab');
    await settle(page);
    await page.uncheck('#live');
    await setText(page, 'object', (await getText(page, 'object')).replace('replicas: 15', 'replicas: 77'));
    await page.waitForTimeout(200);
    assert.ok(!(await page.textContent('#problems')).includes('77'));
    await page.evaluate(() => window.__crdlab.editors.object.focus());
    await page.keyboard.press('Control+Enter');
    await settle(page);
    assert.ok((await page.textContent('#problems')).includes('Invalid value: 77'));
    await page.check('#live');
  });

  await step('open a local file and drag-and-drop one into an editor', async () => {
    const text = 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: from-a-file\nspec:\n  replicas: 0\n';
    await page.setInputFiles('input[data-open-input="object"]', { name: 'ct.yaml', mimeType: 'text/yaml', buffer: Buffer.from(text) });
    await page.waitForFunction((t) => window.__crdlab.editors.object.state.doc.toString() === t, text);
    await settle(page);
    assert.ok((await problems(page)).some((p) => p.loc === 'object:6' && p.msg.includes('spec.replicas: Invalid value: 0')));
    const dropped = text.replace('from-a-file', 'dropped').replace('replicas: 0', 'replicas: 3');
    const dt = await page.evaluateHandle((t) => {
      const d = new DataTransfer();
      d.items.add(new File([t], 'dropped.yaml', { type: 'text/yaml' }));
      return d;
    }, dropped);
    await page.dispatchEvent('#objectEditor .cm-content', 'drop', { dataTransfer: dt });
    await page.waitForFunction((t) => window.__crdlab.editors.object.state.doc.toString() === t, dropped);
  });

  await step('CRD update: the old CRD editor is collapsed; filled, the verdict is the update\'s and objects validate against the updated CRD', async () => {
    await page.selectOption('#examples', 'crontab');
    await settle(page);
    assert.equal(await page.$eval('#oldCrdPane', (d) => d.open), false, 'the old CRD is collapsed by default');
    await page.click('#oldCrdPane > summary');
    const crontab = await getText(page, 'crd');
    await setText(page, 'oldCrd', crontab);
    await setText(page, 'crd', crontab.replace('scope: Namespaced', 'scope: Cluster'));
    await settle(page);
    assert.match(await page.textContent('#crdResult'), /would reject this update of the CRD \(1 error\)/);
    const list = await problems(page);
    assert.ok(list.some((p) => p.msg === 'spec.scope: Invalid value: "Cluster": field is immutable' && p.loc === `CRD:${lineOf(crontab, 'scope:')}`), JSON.stringify(list));
    // A compatible update that serves v2 too: objects at v2 validate against the updated CRD.
    const v2 = crontab.replace('  versions:\n', '  versions:\n  - name: v2\n    served: true\n    storage: false\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              replicas: {type: integer, maximum: 3}\n');
    await setText(page, 'crd', v2);
    await setText(page, 'object', 'apiVersion: stable.example.com/v2\nkind: CronTab\nmetadata:\n  name: a\nspec:\n  replicas: 4\n');
    await settle(page);
    assert.match(await page.textContent('#crdResult'), /The update of the CRD would be accepted/);
    assert.ok((await problems(page)).some((p) => /spec\.replicas: Invalid value: 4: spec\.replicas in body should be less than or equal to 3/.test(p.msg)), JSON.stringify(await problems(page)));
    await page.evaluate(() => document.activeElement?.blur());
    await page.screenshot({ path: join(shots, 'playground-crd-update.png') });
    // An old CRD that does not decode is marked in its editor.
    await setText(page, 'oldCrd', 'a: [b\n');
    await settle(page);
    assert.ok((await problems(page)).some((p) => p.loc.startsWith('old CRD:') && /^old CRD: /.test(p.msg)), JSON.stringify(await problems(page)));
    // Emptied, the CRD is checked as a create again.
    await setText(page, 'oldCrd', '');
    await settle(page);
    assert.match(await page.textContent('#crdResult'), /The CRD is valid/);
  });

  await step('Tests tab: the suite runs against the CRD, each case with pass/fail and the failure diff; shared in the URL', async () => {
    await page.selectOption('#examples', 'crontab');
    await settle(page);
    await page.click('#tabTests');
    assert.equal(await page.isVisible('#validateView'), false);
    await page.waitForFunction(() => window.__crdlab.tests.runs > 0, null, { timeout: 60000 });
    await settle(page, 60000);
    assert.match(await page.textContent('#testSummary'), /^PASS: 4 passed, 0 failed/);
    assert.equal(await page.$$eval('#testResults li.pass', (l) => l.length), 4);
    // A wrong expectation fails with the diff of the stored object.
    const suite = await getText(page, 'suite');
    const runs = await page.evaluate(() => window.__crdlab.tests.runs);
    await setText(page, 'suite', suite.replace('        replicas: 1\n', '        replicas: 2\n'));
    await page.waitForFunction((n) => window.__crdlab.tests.runs > n, runs, { timeout: 60000 });
    await settle(page, 60000);
    assert.match(await page.textContent('#testSummary'), /^FAIL: 3 passed, 1 failed/);
    const failure = await page.$eval('#testResults li.fail', (li) => ({ name: li.querySelector('.name').textContent, del: [...li.querySelectorAll('.del')].map((d) => d.textContent), ins: [...li.querySelectorAll('.ins')].map((d) => d.textContent) }));
    assert.equal(failure.name, 'onCreate / Defaults replicas to 1');
    assert.deepEqual([failure.del, failure.ins], [['-  replicas: 2'], ['+  replicas: 1']]);
    // The case's line button goes to it in the suite.
    await page.click('#testResults li.fail .loc');
    const line = await page.evaluate(() => { const v = window.__crdlab.editors.suite; return v.state.doc.lineAt(v.state.selection.main.head).number; });
    assert.equal(line, lineOf(suite, '- name: Defaults replicas to 1'));
    await page.evaluate(() => document.activeElement?.blur());
    await page.screenshot({ path: join(shots, 'playground-tests.png') });
    // The run filter selects cases by name.
    await page.fill('#testRun', 'onUpdate');
    await page.waitForFunction(() => document.querySelectorAll('#testResults li').length === 1, null, { timeout: 60000 });
    assert.match(await page.textContent('#testSummary'), /^PASS: 1 passed, 0 failed/);
    // The tab, the suite and the filter are shared.
    await page.evaluate(() => { window.__crdlab.sharedURL = null; });
    await page.click('#share');
    await page.waitForFunction(() => window.__crdlab.sharedURL && window.__crdlab.sharedURL.includes('#s='));
    const url = await page.evaluate(() => window.__crdlab.sharedURL);
    const p2 = await context.newPage();
    await p2.goto(url);
    await p2.waitForFunction(() => window.__crdlab?.tests?.runs > 0, null, { timeout: 60000 });
    const st = await p2.evaluate(() => window.__crdlab.getState());
    assert.deepEqual([st.tab, st.run, st.suite], ['tests', 'onUpdate', await getText(page, 'suite')]);
    assert.match(await p2.textContent('#testSummary'), /^PASS: 1 passed, 0 failed/);
    await p2.close();
    await page.fill('#testRun', '');
    await page.click('#tabValidate');
    assert.equal(await page.isVisible('#testsView'), false);
    await settle(page);
  });

  await step('Policy tab: admission policies on the object, denied with the API server message, then allowed; shared in the URL', async () => {
    await page.selectOption('#examples', 'crontab');
    await settle(page);
    await setText(page, 'object', 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: big\nspec:\n  cronSpec: "*/5 * * * *"\n  image: registry.example.com/cron:1.0\n  replicas: 8\n');
    await settle(page);
    await page.click('#tabPolicy');
    assert.equal(await page.isVisible('#validateView'), false);
    await page.waitForFunction(() => window.__crdlab.policy.runs > 0, null, { timeout: 60000 });
    await settle(page, 60000);
    assert.equal(await page.textContent('#policySummary'), "Denied by ValidatingAdmissionPolicy 'crontab-rules' with binding 'crontab-rules'");
    const denial = await page.textContent('#policyResult .denial');
    assert.equal(denial, `Error from server (Invalid): crontabs.stable.example.com "big" is forbidden: ValidatingAdmissionPolicy 'crontab-rules' with binding 'crontab-rules' denied request: replicas must be at most 5, not 8`);
    assert.deepEqual(await page.$$eval('#policyResult .audit', (l) => l.map((d) => d.textContent)), ['crontab-rules/replicas: 8']);
    // Edited, the policies run again: a higher limit admits the object; another user's request reaches the policy.
    const policies = await getText(page, 'policy');
    let runs = await page.evaluate(() => window.__crdlab.policy.runs);
    await setText(page, 'policy', policies.replace('variables.replicas <= 5', 'variables.replicas <= 10'));
    await page.waitForFunction((n) => window.__crdlab.policy.runs > n, runs, { timeout: 60000 });
    await settle(page, 60000);
    assert.match(await page.textContent('#policySummary'), /^Allowed \(/);
    runs = await page.evaluate(() => window.__crdlab.policy.runs);
    await setText(page, 'policy', policies.replace('variables.replicas <= 5', "request.userInfo.username != 'jane'").replace("'replicas must be at most 5, not ' + string(variables.replicas)", "'not ' + request.userInfo.username"));
    await page.waitForFunction((n) => window.__crdlab.policy.runs > n, runs, { timeout: 60000 });
    await settle(page, 60000);
    assert.match(await page.textContent('#policySummary'), /^Allowed \(/);
    runs = await page.evaluate(() => window.__crdlab.policy.runs);
    await page.fill('#policyUser', 'jane');
    await page.waitForFunction((n) => window.__crdlab.policy.runs > n, runs, { timeout: 60000 });
    await settle(page, 60000);
    assert.match(await page.textContent('#policyResult .denial'), /denied request: not jane$/);
    // The tab, the policies and the user are shared.
    await page.evaluate(() => { window.__crdlab.sharedURL = null; });
    await page.click('#share');
    await page.waitForFunction(() => window.__crdlab.sharedURL && window.__crdlab.sharedURL.includes('#s='));
    const url = await page.evaluate(() => window.__crdlab.sharedURL);
    const p2 = await context.newPage();
    await p2.goto(url);
    await p2.waitForFunction(() => window.__crdlab?.policy?.runs > 0, null, { timeout: 60000 });
    const st = await p2.evaluate(() => window.__crdlab.getState());
    assert.deepEqual([st.tab, st.admission.user, st.policy], ['policy', 'jane', await getText(page, 'policy')]);
    await p2.waitForFunction(() => document.querySelector('#policyResult .denial'), null, { timeout: 60000 });
    await p2.close();
    await page.fill('#policyUser', '');
    await page.click('#tabValidate');
    assert.equal(await page.isVisible('#policyView'), false);
    await settle(page);
  });

  await step('Policy tab: a MutatingAdmissionPolicy mutates the object before validation and validating policies; policy expressions complete from the CRD\'s schema (the module\'s "complete" op)', async () => {
    const capReplicas = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: cap-replicas
spec:
  reinvocationPolicy: Never
  matchConstraints:
    resourceRules:
    - apiGroups: [stable.example.com]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [crontabs]
  matchConditions:
  - name: too-many
    expression: object.spec.replicas > 5
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >
        Object{spec: Object.spec{replicas: 5}}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: cap-replicas
spec:
  policyName: cap-replicas
---
`;
    const validating = await readFile(new URL('../../../examples/admission/policy.yaml', import.meta.url), 'utf8');
    await page.click('#tabPolicy');
    const saved = await getText(page, 'policy');
    let runs = await page.evaluate(() => window.__crdlab.policy.runs);
    await setText(page, 'policy', capReplicas + validating);
    await page.waitForFunction((n) => window.__crdlab.policy.runs > n, runs, { timeout: 60000 });
    await settle(page, 60000);
    // big (8 replicas) is capped to 5 before crontab-rules sees it.
    assert.match(await page.textContent('#policySummary'), /^Allowed \(/);
    const mutations = await page.$$eval('#policyResult .mutation', (l) => l.map((d) => d.textContent));
    assert.equal(mutations[0], 'cap-replicas/cap-replicas ApplyConfiguration #0: changed /spec/replicas');
    assert.deepEqual(await page.$$eval('#policyResult .diff', (l) => l.map((d) => d.textContent)), ['/spec/replicas: 8 → 5']);
    assert.match(await page.textContent('#policyResult pre.mutated'), /\n {2}replicas: 5\n/);
    assert.deepEqual(await page.$$eval('#policyResult .audit', (l) => l.map((d) => d.textContent)), ['crontab-rules/replicas: 5']);

    // Completion after object.spec. in the MAP's match condition: the CRD's fields.
    const text = await getText(page, 'policy');
    const served = await page.evaluate(() => window.__crdlab.policy.completions);
    let pos = text.indexOf('expression: object.spec.') + 'expression: object.spec.'.length;
    await page.evaluate((p) => { const v = window.__crdlab.editors.policy; v.focus(); v.dispatch({ selection: { anchor: p }, scrollIntoView: true }); }, pos);
    const t0 = Date.now();
    await page.keyboard.press('Control+Space');
    await page.waitForSelector('.cm-tooltip-autocomplete li', { timeout: WAIT, state: 'attached' });
    measure('policy completion after object.spec. (Ctrl+Space -> list shown, the Policy worker\'s "complete")', Date.now() - t0);
    let labels = await page.$$eval('.cm-tooltip-autocomplete li .cm-completionLabel', (els) => els.map((e) => e.textContent));
    assert.deepEqual([...labels].sort(), ['cronSpec', 'image', 'replicas']);
    assert.equal(await page.evaluate(() => window.__crdlab.policy.completions), served + 1);
    await page.screenshot({ path: join(shots, 'playground-policy.png') });
    await page.keyboard.press('Escape');
    await page.waitForSelector('.cm-tooltip-autocomplete', { state: 'detached', timeout: WAIT });

    // Typing "object." in a validation's messageExpression offers object's fields (the resource's root).
    pos = text.indexOf('+ string(') + '+ string('.length;
    await page.evaluate((p) => { const v = window.__crdlab.editors.policy; v.focus(); v.dispatch({ selection: { anchor: p }, scrollIntoView: true }); }, pos);
    await page.keyboard.type('object.');
    await page.waitForFunction(() => [...document.querySelectorAll('.cm-tooltip-autocomplete li .cm-completionLabel')].map((e) => e.textContent).join() === 'apiVersion,kind,metadata,spec', null, { timeout: WAIT });
    await page.keyboard.press('Escape');
    // A name typed where an identifier starts: the policy's variables.
    await page.keyboard.type('+ req');
    await page.waitForFunction(() => [...document.querySelectorAll('.cm-tooltip-autocomplete li .cm-completionLabel')].map((e) => e.textContent).includes('request'), null, { timeout: WAIT });
    await page.keyboard.press('Escape');
    runs = await page.evaluate(() => window.__crdlab.policy.runs);
    await setText(page, 'policy', saved);
    await page.waitForFunction((n) => window.__crdlab.policy.runs > n, runs, { timeout: 60000 });
    await settle(page, 60000);
    await page.click('#tabValidate');
    await settle(page);
  });

  await step('Kubernetes release: the selector lists the module\'s releases (the newest by default); another release changes the verdict of every tab; kept in the share link, old links load at the newest', async () => {
    const module = (await load()).version();
    const x = examples.find((e) => e.id === 'kube-versions');
    const int32 = 'Checked value must be of type integer with format int32 in spec.replicas';
    assert.deepEqual(await page.$$eval('#kubeVersion option', (os) => os.map((o) => o.value)), module.kubeVersions);
    assert.equal(await page.inputValue('#kubeVersion'), module.defaultKubeVersion);
    assert.equal(await page.isDisabled('#kubeVersion'), false);
    await page.selectOption('#examples', 'kube-versions');
    await settle(page);
    assert.ok((await problems(page)).some((p) => p.msg.includes(int32)), JSON.stringify(await problems(page)));
    // 1.35 does not check int32's range (kubeversion.NumericFormats, 1.36).
    await page.selectOption('#kubeVersion', '1.35');
    await settle(page);
    assert.deepEqual(await problems(page), []);
    assert.match(await page.textContent('#objectResult'), /The object would be accepted/);
    await page.evaluate(() => document.activeElement?.blur());
    await page.screenshot({ path: join(shots, 'playground-kube-version.png'), clip: { x: 0, y: 0, width: 1440, height: 420 } });
    // The Tests tab runs at the same release (overriding a suite's own).
    const suite = 'name: huge\ncrd: crd.yaml\ntests:\n  onCreate:\n  - name: a replicas count past int32\n    initial: |\n      apiVersion: example.com/v1\n      kind: Widget\n      spec: {replicas: 4294967296}\n';
    await page.click('#tabTests');
    await setText(page, 'suite', suite);
    await page.waitForFunction(() => window.__crdlab.tests.runs > 0, null, { timeout: 60000 });
    await settle(page, 60000);
    assert.match(await page.textContent('#testSummary'), /^PASS: 1 passed, 0 failed/);
    let runs = await page.evaluate(() => window.__crdlab.tests.runs);
    await page.selectOption('#kubeVersion', '1.36');
    await page.waitForFunction((n) => window.__crdlab.tests.runs > n, runs, { timeout: 60000 });
    await settle(page, 60000);
    assert.match(await page.textContent('#testSummary'), /^FAIL: 0 passed, 1 failed/);
    // The release is shared.
    await page.evaluate(() => { window.__crdlab.sharedURL = null; });
    await page.click('#share');
    await page.waitForFunction(() => window.__crdlab.sharedURL && window.__crdlab.sharedURL.includes('#s='));
    const url = await page.evaluate(() => window.__crdlab.sharedURL);
    const p2 = await context.newPage();
    await p2.goto(url);
    await p2.waitForFunction(() => window.__crdlab?.tests?.runs > 0, null, { timeout: 60000 });
    await settle(p2, 60000);
    assert.equal((await p2.evaluate(() => window.__crdlab.getState())).kubeVersion, '1.36');
    assert.equal(await p2.inputValue('#kubeVersion'), '1.36');
    assert.match(await p2.textContent('#testSummary'), /^FAIL: 0 passed, 1 failed/);
    await p2.close();
    // A link from before the selector (here the oldest form, crd=&object=) loads at the newest release.
    const p3 = await context.newPage();
    await p3.goto(`${base}/#crd=${encodeURIComponent(x.crd)}&object=${encodeURIComponent(x.object)}`);
    await p3.waitForFunction(() => window.__crdlab?.results > 0, null, { timeout: 30000 });
    await settle(p3);
    assert.equal(await p3.inputValue('#kubeVersion'), module.defaultKubeVersion);
    assert.ok((await problems(p3)).some((p) => p.msg.includes(int32)), JSON.stringify(await problems(p3)));
    await p3.close();
    await page.selectOption('#kubeVersion', module.defaultKubeVersion);
    await page.click('#tabValidate');
    await settle(page);
    await page.selectOption('#examples', 'crontab');
    await settle(page);
  });

  await step('layout: the editors keep their width as results grow; one column on a narrow window', async () => {
    await page.selectOption('#examples', 'cost-over-budget');
    await settle(page);
    const w = () => page.$eval('#crdPane', (e) => e.getBoundingClientRect().width);
    const wide = await w();
    assert.ok(wide > 0.45 * 1440 - 40, `CRD editor ${wide} px wide in a 1440 px window`);
    await setText(page, 'object', 'apiVersion: example.com/v1\nkind: Policy\nmetadata:\n  name: ' + 'x'.repeat(400) + '\nspec:\n  names: [' + 'averyveryverylongname,'.repeat(40) + 'z]\n');
    await settle(page);
    assert.equal(await w(), wide, 'long results do not squeeze the editors');
    await page.setViewportSize({ width: 800, height: 1000 });
    const narrow = await w();
    assert.ok(narrow > 700, `CRD editor ${narrow} px wide in an 800 px window`);
    const below = await page.evaluate(() => document.querySelector('.results').getBoundingClientRect().top >= document.querySelector('.editors').getBoundingClientRect().bottom - 1);
    assert.ok(below, 'results below the editors');
    await page.setViewportSize({ width: 1440, height: 1000 });
  });

  await step('light screenshot', async () => {
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.selectOption('#examples', 'crontab');
    await settle(page);
    await page.waitForFunction(() => document.querySelectorAll('#costs tbody tr').length === 1);
    await page.evaluate(() => document.activeElement?.blur());
    await page.screenshot({ path: join(shots, 'playground-light.png') });
  });

  await step('dark mode follows prefers-color-scheme; the toggle is remembered', async () => {
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const dark = (c) => c.match(/\d+/g).slice(0, 3).reduce((a, b) => a + Number(b), 0) < 200;
    assert.ok(!dark(await bg()));
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.ok(dark(await bg()), await bg());
    const editorBg = await page.$eval('#objectEditor .cm-editor', (e) => getComputedStyle(e).backgroundColor);
    assert.ok(dark(editorBg), editorBg);
    await page.screenshot({ path: join(shots, 'playground-dark.png') });
    await page.click('#theme'); // -> light, remembered
    assert.ok(!dark(await bg()));
    await page.reload();
    await page.waitForFunction(() => window.__crdlab?.results > 0, null, { timeout: 30000 });
    assert.equal(await page.evaluate(() => localStorage.getItem('crdlab-theme')), 'light');
    assert.ok(!dark(await bg()), 'the choice survives a reload');
    await page.click('#theme');
    assert.ok(dark(await bg()));
    await page.evaluate(() => localStorage.removeItem('crdlab-theme'));
    await page.emulateMedia({ colorScheme: 'light' });
  });

  const crd = await httpRouteCRD();
  await step(crd ? 'HTTPRoute: the CRD compiles once in the worker, object keystrokes reuse it' : 'HTTPRoute: skipped (no Gateway API module in the module cache)', async () => {
    if (!crd) return;
    const route = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: example
spec:
  parentRefs:
  - name: gw
  hostnames: ["www.example.com"]
  rules:
  - matches:
    - path: {type: PathPrefix, value: /login}
    backendRefs:
    - name: auth
      port: 8080
`;
    await page.evaluate(() => {
      window.__longTasks = [];
      new PerformanceObserver((l) => { for (const e of l.getEntries()) { window.__longTasks.push(e.duration); (window.__ltAt ??= []).push([Math.round(e.startTime), Math.round(e.duration)]); } }).observe({ type: 'longtask' });
    });
    await page.evaluate(([c, o]) => {
      const e = window.__crdlab.editors;
      e.object.dispatch({ changes: { from: 0, to: e.object.state.doc.length, insert: o } });
      e.crd.dispatch({ changes: { from: 0, to: e.crd.state.doc.length, insert: c } });
    }, [crd, route]);
    await settle(page, 120000);
    const compileMs = await page.evaluate(() => window.__crdlab.lastResult.compileMs);
    measure('HTTPRoute CRD compile in the worker', compileMs);
    assert.match(await page.textContent('#crdResult'), /The CRD is valid/);
    assert.match(await page.textContent('#objectResult'), /would be accepted/);
    await page.evaluate(() => window.__longTasks.splice(0));
    const lat = [];
    const obj = await getText(page, 'object');
    await page.evaluate((p) => { const v = window.__crdlab.editors.object; v.focus(); v.dispatch({ selection: { anchor: p } }); }, obj.indexOf('/login') + '/login'.length);
    for (let i = 0; i < 10; i++) {
      const before = await page.evaluate(() => window.__crdlab.results);
      await page.keyboard.type('x');
      await page.waitForFunction((b) => window.__crdlab.results > b && !window.__crdlab.busy(), before, { polling: 5, timeout: 30000 });
      lat.push(await page.evaluate(() => window.__crdlab.lastLatency));
      assert.equal(await page.evaluate(() => window.__crdlab.lastResult.compileMs), 0);
    }
    measure('HTTPRoute object keystroke -> result, CRD compiled (median of 10)', median(lat));
    const longTasks = await page.evaluate(() => window.__longTasks);
    measure('longest main-thread task during the HTTPRoute keystrokes', Math.max(0, ...longTasks));
    console.log(`# the page's own handlers, longest run (ms): ${JSON.stringify(await page.evaluate(() => window.__crdlab.handlers))}; over 30 ms [name, ms, at]: ${JSON.stringify(await page.evaluate(() => window.__crdlab.slow.splice(0)))}; long tasks [at, ms]: ${JSON.stringify(await page.evaluate(() => (window.__ltAt ?? []).splice(0)))}`);
    noLongTasks(longTasks, `during HTTPRoute keystrokes (the CRD compiles in ${compileMs} ms)`);
    await settle(page, 120000);
  });

  await step('Apply tab: two managers\' applies stepped through, the owners of each field after each step, the 409 text', async () => {
    await page.selectOption('#examples', 'crontab');
    await settle(page);
    await page.click('#tabApply');
    assert.equal(await page.isVisible('#validateView'), false);
    assert.equal(await page.isVisible('#testsView'), false);
    await page.waitForFunction(() => window.__crdlab.apply?.runs > 0, null, { timeout: 60000 });
    await settle(page, 60000);
    const steps = await page.$$eval('#applyStepList li', (l) => l.map((li) => li.textContent));
    assert.deepEqual(steps, ['✓Apply by alice ok', '✗Apply by autoscaler conflict (409)', '✓Apply (force) by autoscaler ok', '✓Apply by alice ok']);
    const owners = () => page.$$eval('#applyOwners tr', (rows) => rows.slice(1).map((r) => [r.querySelector('.path').textContent, [...r.querySelectorAll('.owner')].map((o) => o.textContent).join(', ') || 'nobody']));
    // Step 1 first: alice owns what she applied.
    assert.equal(await page.textContent('#applyAt'), 'step 1 of 4');
    assert.deepEqual(await owners(), [['.spec.image', 'alice (Apply)'], ['.spec.replicas', 'alice (Apply)']]);
    // Step 2: the conflict text; the object, and its owners, as they were.
    await page.click('#applyStepList li:nth-child(2)');
    assert.equal(await page.textContent('#applyOutcome pre'), 'Apply failed with 1 conflict: conflict with "alice": .spec.replicas');
    assert.deepEqual(await owners(), [['.spec.image', 'alice (Apply)'], ['.spec.replicas', 'alice (Apply)']]);
    // Step 3, forced: the autoscaler takes replicas over.
    await page.click('#applyNext');
    assert.equal(await page.textContent('#applyAt'), 'step 3 of 4');
    assert.deepEqual(await owners(), [['.spec.image', 'alice (Apply)'], ['.spec.replicas', 'autoscaler (Apply)']]);
    // Step 4: alice drops replicas from her manifest; the autoscaler's value stays.
    await page.click('#applyNext');
    assert.deepEqual(await owners(), [['.spec.image', 'alice (Apply)'], ['.spec.replicas', 'autoscaler (Apply)']]);
    assert.deepEqual(await page.$$eval('#applyOwners td.value', (l) => l.map((v) => v.textContent)), ['"registry.example.com/backup:2"', '5']);
    assert.match(await page.textContent('#applyManaged'), /"manager": "autoscaler"/);
    assert.equal(await page.isDisabled('#applyNext'), true);
    await page.click('#applyStepList li:nth-child(3)');
    await page.evaluate(() => document.activeElement?.blur());
    await page.screenshot({ path: join(shots, 'playground-apply.png'), fullPage: true });
    // An edit re-runs the steps: a bad operation is the steps file's error, with its line.
    const runs = await page.evaluate(() => window.__crdlab.apply.runs);
    const text = await getText(page, 'applySteps');
    await setText(page, 'applySteps', text.replace('  operation: Apply\n', '  operation: Patch\n'));
    await page.waitForFunction((n) => window.__crdlab.apply.runs > n, runs, { timeout: 60000 });
    assert.match(await page.textContent('#applySummary'), /steps: line \d+: step 1: operation "Patch": want Apply, Update or Delete/);
    await setText(page, 'applySteps', text);
    await page.click('#tabValidate');
    assert.equal(await page.isVisible('#applyView'), false);
    assert.equal(await page.isVisible('#validateView'), true);
    await settle(page, 60000);
  });

  await step('offline: after the first load the page works without the server (service worker)', async () => {
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 30000 }).catch(async () => {
      await page.reload();
      await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 30000 });
    });
    await page.goto(`${base}/`);
    await page.waitForFunction(() => window.__crdlab?.results > 0, null, { timeout: 30000 });
    serving = false;
    server.closeAllConnections();
    await page.reload();
    await page.waitForFunction(() => window.__crdlab?.results > 0, null, { timeout: 30000 });
    assert.match(await page.textContent('#engineVersion'), /ABI 1/);
    assert.match(await page.textContent('#problems'), /spec\.replicas/);
    serving = true;
  });

  await step('the page reports no script errors', async () => {
    assert.deepEqual(pageErrors.filter((e) => !/Failed to load resource|ERR_|net::/.test(e)), []);
  });
} finally {
  await browser.close();
  server.close();
}
const failed = steps.filter((s) => !s).length;
console.log(`${steps.length - failed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
