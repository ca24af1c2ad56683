// A program whose work is in a worker thread: the worker holds 64 MiB and
// spins for about 300 ms of CPU; the main thread waits for it. Its CPU
// time and RSS are its process's, whichever thread spent them.
const { Worker, isMainThread, parentPort } = require('node:worker_threads');
if (isMainThread) {
  const w = new Worker(__filename);
  w.on('message', (m) => { console.log('worker done', m); });
  w.on('exit', () => {});
} else {
  const keep = Buffer.alloc(64 << 20, 1);
  const start = process.cpuUsage();
  let x = 0;
  for (;;) {
    for (let i = 0; i < 1e5; i++) x += Math.sqrt(i);
    const u = process.cpuUsage(start);
    if (u.user + u.system >= 300e3) break;
  }
  parentPort.postMessage(keep.length + (x > 0 ? 0 : 1));
}
