// The Tests tab: a CRD validation test suite (OpenShift's *.testsuite.yaml
// format or crdlab's sequences, see docs/test-format.md) edited beside the
// results of running it with the module's "test" op (`crdlab test`)
// against the CRD of the Validate tab. Suites run in a worker of their own
// (a big suite takes seconds), started when the tab is first shown.

import { showTab } from './tabs.js';
import { tabWorker } from './tabworker.js';

// The CronTab suite the tab opens with when the suite is empty.
export const crontabSuite = `# OpenShift's test suite format (crdlab test runs it unchanged):
# onCreate cases create "initial" and compare the stored object with
# "expected", or the API server's error with "expectedError" (a substring).
name: CronTab
crd: crontab-crd.yaml
tests:
  onCreate:
  - name: Defaults replicas to 1
    initial: |
      apiVersion: stable.example.com/v1
      kind: CronTab
      spec:
        cronSpec: "*/5 * * * *"
        image: my-image
    expected: |
      apiVersion: stable.example.com/v1
      kind: CronTab
      spec:
        cronSpec: "*/5 * * * *"
        image: my-image
        replicas: 1
  - name: Rejects more than 5 replicas of an outside image
    initial: |
      apiVersion: stable.example.com/v1
      kind: CronTab
      spec:
        image: docker.io/cron
        replicas: 6
    expectedError: "more than 5 replicas need an image from registry.example.com"
  - name: Rejects a bad cronSpec
    initial: |
      apiVersion: stable.example.com/v1
      kind: CronTab
      spec:
        cronSpec: "* * * *"
    expectedError: "spec.cronSpec: Invalid value"
  onUpdate:
  - name: Scaling up an outside image past 5 fails
    initial: |
      apiVersion: stable.example.com/v1
      kind: CronTab
      spec:
        image: docker.io/cron
        replicas: 2
    updated: |
      apiVersion: stable.example.com/v1
      kind: CronTab
      spec:
        image: docker.io/cron
        replicas: 7
    expectedError: "more than 5 replicas"
`;

// Where the suite and the CRD go in the in-memory tree: the suite's
// `crd: PATH` (relative to the suite) names the CRD file, so the suite is
// placed deep enough for a PATH with "../"; without one the CRD is given
// as --crd (crdName: or the group and kind of the objects find it).
export function layout(suite) {
  const m = /^crd:[ \t]*["']?([^\s"'#]+)["']?[ \t]*(?:#.*)?$/m.exec(suite);
  const rel = m ? m[1] : 'crd.yaml';
  const ups = rel.split('/').filter((p) => p === '..').length;
  const dir = Array.from({ length: ups }, (_, i) => `d${i}`);
  const parts = [...dir];
  for (const p of rel.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.' && p !== '') parts.push(p);
  }
  const suitePath = [...dir, 'suite.testsuite.yaml'].join('/');
  const crdPath = parts.join('/') || 'crd.yaml';
  return { suitePath, crdPath };
}

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

/**
 * Sets up the tab. `makeEditor(parent, name)` makes the suite's editor,
 * `getCRD()` returns the CRD text, `kubeVersion()` the page's Kubernetes
 * release (it overrides the suite's own kubeVersion, as crdlab test
 * --kube-version), `module()` the compiled WebAssembly module (a promise),
 * `changed()` is called when the shared state changes.
 */
export function setupTests({ makeEditor, getCRD, kubeVersion, module, changed, perf }) {
  const $ = (id) => document.getElementById(id);
  const editor = makeEditor($('suiteEditor'), 'suite');
  let id = 0;
  let last = null;
  perf.tests = { runs: 0, last: null };

  function show(tab) {
    const tests = tab === 'tests';
    showTab(tests ? 'tests' : 'validate');
    if (tests) {
      if (!editor.state.doc.length) setSuite(crontabSuite);
      start();
      run();
    }
  }

  function setSuite(text) {
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
  }

  const engine = tabWorker({
    module,
    busy: $('testBusy'),
    shown: () => !$('testsView').hidden,
    request: () => {
      const suite = editor.state.doc.toString();
      const { suitePath, crdPath } = layout(suite);
      const files = { [suitePath]: suite };
      files[crdPath] = getCRD();
      last = { id: ++id, suite, suitePath };
      return { kind: 'test', id, files, paths: [suitePath], crds: [crdPath], run: $('testRun').value, kubeVersion: kubeVersion() };
    },
    answer: (m) => {
      showResults(m);
      perf.tests.runs++;
      perf.tests.last = m;
    },
    failed: (e) => { $('testSummary').textContent = `could not load the engine: ${e.message}`; },
  });
  const start = engine.start;
  const run = engine.run;

  function jump(line) {
    const doc = editor.state.doc;
    const pos = doc.line(Math.min(Math.max(1, line), doc.lines)).from;
    editor.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
    editor.focus();
  }

  function showResults(m) {
    const box = $('testResults');
    box.replaceChildren();
    const sum = $('testSummary');
    if (m.error) {
      sum.className = 'err';
      sum.textContent = m.error.message;
      return;
    }
    const rep = m.report;
    const loadErrors = rep.loadErrors ?? [];
    sum.className = rep.failed || loadErrors.length ? 'err' : 'ok';
    sum.textContent = `${rep.failed || loadErrors.length ? 'FAIL' : 'PASS'}: ${rep.passed} passed, ${rep.failed} failed` +
      (loadErrors.length ? ', the suite did not load' : '') + ` (${Math.round(m.ms)} ms in the engine)`;
    for (const le of loadErrors) box.appendChild(el('div', 'err loaderr', le.error));
    const ul = el('ul', 'cases');
    for (const r of rep.results) {
      const li = el('li', r.passed ? 'pass' : 'fail');
      const head = el('div', 'case');
      head.appendChild(el('span', 'mark', r.passed ? '✓' : '✗'));
      const loc = el('button', 'loc', `line ${r.line}`);
      loc.title = 'go to the case';
      loc.addEventListener('click', () => jump(r.line));
      head.appendChild(loc);
      head.appendChild(el('span', 'name', r.name.split('/').slice(1).join(' / ')));
      li.appendChild(head);
      if (!r.passed && r.message) {
        const pre = el('pre', 'failure');
        for (const line of r.message.replace(/\n+$/, '').split('\n')) {
          const cls = /^[-](?!--)/.test(line) ? 'del' : /^[+](?!\+\+)/.test(line) ? 'ins' : /^@@/.test(line) ? 'hunk' : '';
          pre.appendChild(el('div', cls, line || ' '));
        }
        li.appendChild(pre);
      }
      ul.appendChild(li);
    }
    box.appendChild(ul);
  }

  $('tabValidate').addEventListener('click', () => { show('validate'); changed(); });
  $('tabTests').addEventListener('click', () => { show('tests'); changed(); });
  $('testRun').addEventListener('input', () => { run(); changed(); });
  $('testRunButton').addEventListener('click', run);

  return {
    editor,
    run,
    show,
    idle: engine.idle,
    setSuite,
    filter: () => $('testRun').value,
    setFilter: (v) => { $('testRun').value = v ?? ''; },
  };
}
