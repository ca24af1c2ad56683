// Main thread: starts a dedicated worker (busy ~WMS ms), then runs its own busy loop (~MS ms).
const q = new URLSearchParams(location.search);
const MS = Number(q.get('ms') || 1200), WMS = Number(q.get('wms') || 800);
function mainThreadWorkload(ms) {
  return busyFor(ms, [() => sortWork(20000, 1), () => regexWork(300), () => primeWork(20000)]);
}
const worker = new Worker('worker.js');
const workerDone = new Promise((res) => { worker.onmessage = (e) => res(e.data); });
worker.postMessage({ ms: WMS });
// give the worker a moment to start so the two really overlap
setTimeout(() => {
  const t0 = performance.now();
  const r = mainThreadWorkload(MS);
  const mainMs = performance.now() - t0;
  workerDone.then((w) => {
    window.__done = { mainMs, mainIters: r.iters, workerMs: w.ms, workerIters: w.iters };
    document.getElementById('out').textContent = JSON.stringify(window.__done);
  });
}, 50);
