// Shared busy-JS helpers (plain script; loaded by pages and importScripts'd by the worker).
// Each function has a distinct name so it shows up as its own node in the profile.
function sortWork(n, seed) {
  let s = seed >>> 0;
  const a = new Array(n);
  for (let i = 0; i < n; i++) { s = (s * 1664525 + 1013904223) >>> 0; a[i] = s; }
  a.sort((x, y) => x - y);
  return a[n >> 1];
}
function regexWork(lines) {
  const re = /(\w+)@(\w+)\.(com|org|net)|(\d{3})-(\d{4})/g;
  let hits = 0;
  for (let i = 0; i < lines; i++) {
    const str = `user${i}@host${i % 97}.org called 555-${String(1000 + (i % 9000))} about item ${i * 7}`;
    for (const m of str.matchAll(re)) hits += m[0].length;
  }
  return hits;
}
function primeWork(limit) {
  let count = 0;
  for (let n = 2; n < limit; n++) {
    let p = true;
    for (let d = 2; d * d <= n; d++) if (n % d === 0) { p = false; break; }
    if (p) count++;
  }
  return count;
}
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function hashWork(rounds) {
  let h = 2166136261 >>> 0;
  const s = 'the quick brown fox jumps over the lazy dog';
  for (let r = 0; r < rounds; r++) for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i) + r; h = Math.imul(h, 16777619) >>> 0; }
  return h;
}
function matrixWork(n) {
  const A = new Float64Array(n * n), B = new Float64Array(n * n), C = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) { A[i] = (i % 13) / 13; B[i] = (i % 7) / 7; }
  for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) { const a = A[i * n + k]; for (let j = 0; j < n; j++) C[i * n + j] += a * B[k * n + j]; }
  return C[n + 1];
}
// run fn repeatedly until ms have elapsed; returns iterations
function busyFor(ms, fns) {
  const end = performance.now() + ms;
  let iters = 0, acc = 0;
  while (performance.now() < end) { for (const f of fns) acc += Number(f()) || 0; iters++; }
  return { iters, acc };
}
