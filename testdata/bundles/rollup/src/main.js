import { Router, buildRoutes } from './router.js';
import { formatRecord, summarize } from './format.js';

class Workload {
  constructor(n) {
    // constructor does real work: build a checksum table
    this.table = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let x = i;
      for (let j = 0; j < 200; j++) x = (x * 1103515245 + 12345) % 2147483647;
      this.table[i] = x;
    }
  }

  crunch(rounds) {
    let acc = 0;
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < this.table.length; i++) acc = (acc + Math.sqrt(this.table[i] * (r + 1))) % 1e9;
    }
    return acc;
  }
}

const hashString = (s) => {
  let h = 2166136261;
  for (let k = 0; k < 50; k++)
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
};

function makeUrls(count) {
  const urls = [];
  for (let i = 0; i < count; i++) urls.push(`/api/v${i % 30}/users/${i}/items/${i * 7}`);
  return urls;
}

function runLoop(deadlineMs) {
  const router = new Router(buildRoutes(30));
  const urls = makeUrls(500);
  const lines = [];
  let total = 0;
  const start = Date.now();
  while (Date.now() - start < deadlineMs) {
    const w = new Workload(3000);
    total += w.crunch(20);
    urls.forEach(function (u, idx) {
      const hit = router.resolve(u);
      if (hit) {
        const line = formatRecord({ ...hit, size: idx * 1024 });
        total += hashString(line);
        lines.push(line);
      }
    });
    if (lines.length > 5000) { summarize(lines); lines.length = 0; }
  }
  return total;
}

console.log('total', runLoop(1500));
