// A tab's engine worker (worker.js), shared by the Tests, Policy and Apply
// tabs: started when the tab is first shown, handed the page's compiled
// module; one request in flight at a time, and while one is, only the
// newest edit is remembered (sent when the answer comes). Answers to
// superseded requests are the caller's to drop (by id). Completion
// requests ("complete") go beside them: complete(message) posts one at
// once and resolves with its result (null when a newer one superseded it
// or it failed).

/**
 * `module()` is the compiled module (a promise); `busy` the element shown
 * while a request runs; `shown()` whether the tab is shown (requests run
 * only then); `request()` builds the next message; `answer(m)` takes each
 * answer; `failed(error)` is told when the engine does not load.
 */
export function tabWorker({ module, busy, shown, request, answer, failed }) {
  let worker = null;
  let ready = false;
  let inflight = false;
  let dirty = false;
  const completing = new Map(); // id -> resolve

  function start() {
    if (worker) return;
    worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = (ev) => {
      const m = ev.data;
      if (m.kind === 'complete') {
        completing.get(m.id)?.(m.result ?? null);
        completing.delete(m.id);
        return;
      }
      if (m.kind === 'ready') {
        if (m.error) {
          failed(m.error);
          return;
        }
        ready = true;
        run();
        return;
      }
      inflight = false;
      if (dirty) run();
      else busy.hidden = true;
      answer(m);
    };
    module().then((mod) => worker.postMessage({ kind: 'init', module: mod }));
  }

  function run() {
    if (!worker || !ready || !shown()) return;
    if (inflight) {
      dirty = true;
      return;
    }
    dirty = false;
    inflight = true;
    busy.hidden = false;
    worker.postMessage(request());
  }

  function complete(message) {
    start();
    return new Promise((resolve) => {
      completing.set(message.id, resolve);
      worker.postMessage({ ...message, kind: 'complete' });
    });
  }

  return { start, run, complete, idle: () => !worker || (ready && !inflight && !dirty) };
}
