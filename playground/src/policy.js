// The Policy tab: ValidatingAdmissionPolicies, MutatingAdmissionPolicies,
// their bindings, params and Namespaces, edited beside what
// kube-apiserver's admission would decide on the Validate tab's object
// (create, or update with its old object): the module's "admit" op
// (`crdlab validate --policy`: mutating policies, the schema, validating
// policies), in a worker of its own started when the tab is first shown.
// The policies' CEL expressions complete from the module's "complete" op
// (its policy mode: object typed by the CRD's schema at the version the
// policy matches, the policy's variables).
import { autocompletion } from '@codemirror/autocomplete';
import { parse as parseYAML, stringify as toYAML } from 'yaml';
import { showTab } from './tabs.js';
import { tabWorker } from './tabworker.js';
import { policyExprAt } from './policycomplete.js';

// The policies the tab opens with when empty (examples/admission/policy.yaml).
export const crontabPolicies = `# ValidatingAdmissionPolicies and bindings for the CronTabs of the CRD:
# at most 5 replicas (Deny), images from registry.example.com (Warn),
# and the replica count in the audit event.
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: crontab-rules
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [stable.example.com]
      apiVersions: ["*"]
      operations: [CREATE, UPDATE]
      resources: [crontabs]
  variables:
  - name: replicas
    expression: "object.spec.replicas"
  validations:
  - expression: "variables.replicas <= 5"
    messageExpression: "'replicas must be at most 5, not ' + string(variables.replicas)"
  auditAnnotations:
  - key: replicas
    valueExpression: "string(variables.replicas)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: crontab-rules
spec:
  policyName: crontab-rules
  validationActions: [Deny]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: trusted-images
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [stable.example.com]
      apiVersions: ["*"]
      operations: [CREATE, UPDATE]
      resources: [crontabs]
  validations:
  - expression: "object.spec.image.startsWith('registry.example.com/')"
    messageExpression: "'image ' + object.spec.image + ' is not from registry.example.com'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: trusted-images-warn
spec:
  policyName: trusted-images
  validationActions: [Warn]
`;

const CM_TYPE = { property: 'property', method: 'method', macro: 'keyword', variable: 'variable' };

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

/**
 * Sets up the tab. `makeEditor(parent, name)` makes the policies' editor;
 * `request()` returns the Validate tab's {crd, oldCrd, object, old,
 * fieldValidation, subresource, version}; `module()` the compiled
 * WebAssembly module (a promise); `changed()` is called when the shared
 * state changes.
 */
export function setupPolicy({ makeEditor, request, module, changed, perf }) {
  const $ = (id) => document.getElementById(id);
  let engine = null;
  let completeId = 0;
  // CEL completion in the policies' expressions (an async source:
  // CodeMirror drops an answer the user has typed past).
  function policyCompletion(ctx) {
    const at = policyExprAt(ctx.state.doc.toString(), ctx.pos);
    if (!at || !engine) return null;
    const r = request();
    perf.policy.completeRequests++;
    return engine.complete({ id: ++completeId, crd: r.crd, oldCrd: r.oldCrd, kubeVersion: r.kubeVersion, policy: at.policy, expression: at.before })
      .then((res) => {
        if (ctx.aborted || !res || !res.options.length) return null;
        // names where nothing is typed yet only on request (Ctrl-Space)
        if (!ctx.explicit && res.type === '' && res.from === res.to) return null;
        perf.policy.completions++;
        return {
          from: ctx.pos - (at.before.length - res.from),
          options: res.options.map((o) => ({ label: o.label, type: CM_TYPE[o.kind] ?? o.kind, detail: o.detail, info: o.info || undefined })),
          validFor: /^\w*$/,
        };
      });
  }
  const editor = makeEditor($('policyEditor'), 'policy', [autocompletion({ override: [policyCompletion] })]);
  let id = 0;
  perf.policy = { runs: 0, last: null, completeRequests: 0, completions: 0 };

  function show() {
    showTab('policy');
    if (!editor.state.doc.length) setPolicies(crontabPolicies);
    start();
    run();
  }

  function setPolicies(text) {
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
  }

  engine = tabWorker({
    module,
    busy: $('policyBusy'),
    shown: () => !$('policyView').hidden,
    request: () => {
      const o = options();
      return { kind: 'admit', id: ++id, ...request(), policies: editor.state.doc.toString(),
        operation: o.operation || undefined, user: o.user || undefined, groups: o.groups.length ? o.groups : undefined };
    },
    answer: (m) => {
      if (m.id === id) showResult(m);
      perf.policy.runs++;
      perf.policy.last = m;
    },
    failed: (e) => { $('policySummary').textContent = `could not load the engine: ${e.message}`; },
  });
  const start = engine.start;
  const run = engine.run;

  function options() {
    const groups = $('policyGroups').value.split(',').map((g) => g.trim()).filter(Boolean);
    return { operation: $('policyOperation').value, user: $('policyUser').value.trim(), groups };
  }

  function line(cls, text) {
    $('policyResult').appendChild(el('div', cls, text));
  }

  function showResult(m) {
    $('policyResult').replaceChildren();
    const sum = $('policySummary');
    if (m.error) {
      sum.className = 'err';
      sum.textContent = m.error.message;
      return;
    }
    const { report, admission, mutation } = m.result;
    const obj = report.object;
    if (report.crd?.errors?.length) {
      sum.className = 'err';
      sum.textContent = 'The CRD is invalid (see the Validate tab): the API server would not serve the object.';
      return;
    }
    if (mutation && !mutation.allowed) {
      sum.className = 'err';
      sum.textContent = `Denied by MutatingAdmissionPolicy '${mutation.policy}'${mutation.binding ? ` with binding '${mutation.binding}'` : ''}`;
      line('err denial', `Error from server (${mutation.reason}): ${mutation.message}`);
      showMutation(mutation);
      return;
    }
    if (!admission) {
      showMutation(mutation);
      sum.className = 'err';
      sum.textContent = obj?.decodeError
        ? `The object does not decode: ${obj.decodeError}`
        : `The object is invalid (${obj?.errors?.length ?? 0} errors, see the Validate tab): admission does not run.`;
      return;
    }
    sum.className = admission.allowed ? 'ok' : 'err';
    sum.textContent = admission.allowed
      ? `Allowed (${Math.round(m.ms)} ms in the engine)`
      : `Denied by ValidatingAdmissionPolicy '${admission.policy}'${admission.binding ? ` with binding '${admission.binding}'` : ''}`;
    if (!admission.allowed) line('err denial', `Error from server (${admission.reason}): ${admission.message}`);
    for (const w of admission.warnings ?? []) line('warn', `Warning: ${w}`);
    const audit = Object.entries(admission.auditAnnotations ?? {});
    if (audit.length) {
      line('muted', 'Audit annotations:');
      for (const [k, v] of audit) line('audit', `${k}: ${v}`);
    }
    line('muted', admission.evaluated?.length
      ? `Evaluated (policy/binding): ${admission.evaluated.join(', ')}`
      : 'No binding matched the request.');
    for (const n of admission.notes ?? []) line('note', `Note: ${n}`);
    showMutation(mutation);
  }

  // The mutating policies' outcome: each mutation that ran and the fields
  // it changed, each changed field before → after, and the mutated object.
  function showMutation(mutation) {
    if (!mutation) return;
    line('muted', 'Mutations (policy/binding, patch type, mutation index):');
    const changed = new Set();
    for (const a of mutation.mutations ?? []) {
      for (const c of a.changed ?? []) changed.add(c);
      const what = a.error ? `error: ${a.error}` : a.changed?.length ? `changed ${a.changed.join(', ')}` : 'no change';
      line('mutation', `${a.policy}/${a.binding} ${a.patchType} #${a.mutation}${a.reinvocation ? ' (reinvocation)' : ''}: ${what}`);
    }
    for (const n of mutation.notes ?? []) line('note', `Note: ${n}`);
    if (!mutation.object) return;
    let before = null;
    try {
      before = parseYAML(request().object);
    } catch {
      // the diff lines need the object as given
    }
    for (const ptr of [...changed].sort()) {
      line('diff', `${ptr}: ${showValue(pointer(before, ptr))} → ${showValue(pointer(mutation.object, ptr))}`);
    }
    line('muted', 'The mutated object (as validation received it):');
    $('policyResult').appendChild(el('pre', 'mutated', toYAML(mutation.object)));
  }

  $('tabPolicy').addEventListener('click', () => { show(); changed(); });
  for (const id of ['policyOperation', 'policyUser', 'policyGroups']) {
    $(id).addEventListener('input', () => { run(); changed(); });
  }

  return {
    editor,
    run,
    show,
    idle: engine.idle,
    setPolicies,
    options,
    setOptions: (o = {}) => {
      $('policyOperation').value = o.operation || '';
      $('policyUser').value = o.user ?? '';
      $('policyGroups').value = (o.groups ?? []).join(', ');
    },
  };
}

// pointer is the value at a JSON pointer (undefined when absent).
function pointer(obj, ptr) {
  let v = obj;
  for (const raw of ptr.split('/').slice(1)) {
    const k = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (v === null || typeof v !== 'object') return undefined;
    v = v[k];
  }
  return v;
}

const showValue = (v) => (v === undefined ? '(absent)' : JSON.stringify(v));
