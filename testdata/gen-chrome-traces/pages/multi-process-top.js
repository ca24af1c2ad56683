// Top frame (served from 127.0.0.1): loads a cross-site iframe (served from localhost,
// same port) so site isolation puts it in a second renderer process, then both run busy JS.
const q = new URLSearchParams(location.search);
const MS = Number(q.get('ms') || 1000), FMS = Number(q.get('fms') || 1000);
const other = q.get('other') || `http://localhost:${location.port}`;
const frameDone = new Promise((res) => { window.addEventListener('message', (e) => { if (e.data && e.data.frame) res(e.data); }); });
const frameReady = new Promise((res) => { window.addEventListener('message', (e) => { if (e.data === 'ready') res(); }); });
document.getElementById('f').src = `${other}/frame.html?ms=${FMS}`;
function topFrameWorkload(ms) {
  return busyFor(ms, [() => regexWork(200), () => sortWork(15000, 7), () => hashWork(1500)]);
}
frameReady.then(() => {
  setTimeout(() => {
    const t0 = performance.now();
    const r = topFrameWorkload(MS);
    const topMs = performance.now() - t0;
    frameDone.then((f) => {
      window.__done = { topMs, topIters: r.iters, frameMs: f.ms, frameIters: f.iters, frameOrigin: f.origin, topOrigin: location.origin };
      document.getElementById('out').textContent = JSON.stringify(window.__done);
    });
  }, 20);
});
