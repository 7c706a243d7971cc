// The page's tabs: Validate, Tests (tests.js), Policy (policy.js) and Apply
// (apply.js). One
// view is shown at a time; each tab's module does its own work when shown.
export const tabNames = ['validate', 'tests', 'policy', 'apply'];
const ids = { validate: ['tabValidate', 'validateView'], tests: ['tabTests', 'testsView'], policy: ['tabPolicy', 'policyView'], apply: ['tabApply', 'applyView'] };

/** Shows the view of tab name and marks its button. */
export function showTab(name) {
  for (const t of tabNames) {
    const [button, view] = ids[t].map((id) => document.getElementById(id));
    const on = t === name;
    view.hidden = !on;
    button.classList.toggle('active', on);
    button.setAttribute('aria-selected', String(on));
  }
}

/** The tab shown. */
export function currentTab() {
  return tabNames.find((t) => !document.getElementById(ids[t][1]).hidden) ?? 'validate';
}
