// Dedicated worker: busy JS for the requested number of ms, then reports back.
importScripts('work.js');
function workerWorkload(ms) {
  return busyFor(ms, [() => fib(22), () => hashWork(2000), () => matrixWork(40)]);
}
onmessage = (e) => {
  const t0 = performance.now();
  const r = workerWorkload(e.data.ms);
  postMessage({ ms: performance.now() - t0, iters: r.iters });
};
