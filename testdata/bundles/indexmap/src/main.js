(function (registry) {
  "use strict";

  const { countWords } = registry.tokenize;
  const { variance, topEntries, histogram, movingAverage } = registry.stats;

  const VOCAB = [
    "Source", "Map", "index", "section", "offset", "column", "line", "V8",
    "profile", "sample", "the", "of", "frame", "minified", "bundle", "Metro",
  ];

  function makeCorpus(seed, words) {
    const parts = [];
    let x = seed >>> 0;
    for (let i = 0; i < words; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      parts.push(VOCAB[x % VOCAB.length] + (x % 7 === 0 ? "," : ""));
    }
    return parts.join(" ");
  }

  function runBenchmark(durationMs) {
    const deadline = Date.now() + durationMs;
    let rounds = 0;
    let checksum = 0;
    while (Date.now() < deadline) {
      const corpus = makeCorpus(rounds, 400);
      const counts = countWords(corpus);
      const values = Array.from(counts.values());
      const smooth = movingAverage(corpus.split(" ").map((w) => w.length), 48);
      const top = topEntries(counts, 5);
      const hist = histogram(values, 8);
      checksum = (checksum + Math.round(variance(values)) + top[0][1] + hist[7] + Math.round(smooth[smooth.length - 1])) >>> 0;
      rounds++;
    }
    return { rounds, checksum };
  }

  const result = runBenchmark(1000);
  console.log("rounds=" + result.rounds + " checksum=" + result.checksum);
})(globalThis.__profdiffModules || (globalThis.__profdiffModules = {}));
