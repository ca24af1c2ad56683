(function (registry) {
  "use strict";

  function mean(values) {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[i];
    return values.length ? sum / values.length : 0;
  }

  function variance(values) {
    const m = mean(values);
    let acc = 0;
    for (let i = 0; i < values.length; i++) {
      const d = values[i] - m;
      acc += d * d;
    }
    return values.length ? acc / values.length : 0;
  }

  function topEntries(counts, limit) {
    const entries = Array.from(counts.entries());
    entries.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return entries.slice(0, limit);
  }

  function histogram(values, buckets) {
    const hist = new Array(buckets).fill(0);
    let max = 1;
    for (const v of values) if (v > max) max = v;
    for (const v of values) {
      const b = Math.min(buckets - 1, Math.floor((v / max) * buckets));
      hist[b]++;
    }
    return hist;
  }

  function movingAverage(values, window) {
    const out = new Float64Array(values.length);
    for (let i = 0; i < values.length; i++) {
      let sum = 0;
      let n = 0;
      for (let j = Math.max(0, i - window + 1); j <= i; j++) {
        sum += values[j];
        n++;
      }
      out[i] = sum / n;
    }
    return out;
  }

  registry.stats = { mean, variance, topEntries, histogram, movingAverage };
})(globalThis.__profdiffModules || (globalThis.__profdiffModules = {}));
