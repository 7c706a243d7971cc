// The Apply tab's request in the worker: the module's "apply" op
// (CompiledCRD.apply, `crdlab apply`) on the Validate tab's CRD.
//   {kind: 'apply', id, crd, kubeVersion?, steps} → {id, kind, result | crdErrors | error, ms}

/**
 * Runs one request. `compiled(text, oldCrd, kubeVersion)` returns `{c}`, the CRD compiled (the
 * worker keeps the last few); `failure(e)` renders an error.
 */
export function applySteps(req, compiled, failure) {
  const res = { id: req.id, kind: 'apply' };
  const t0 = performance.now();
  try {
    const { c } = compiled(req.crd, undefined, req.kubeVersion);
    if (c.report.decodeError || c.errors.length) {
      res.crdErrors = c.report.decodeError ? [c.report.decodeError] : c.errors.map((e) => e.message);
    } else {
      res.result = c.apply(req.steps);
    }
  } catch (e) {
    res.error = failure(e);
  }
  res.ms = performance.now() - t0;
  return res;
}
