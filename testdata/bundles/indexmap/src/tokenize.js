(function (registry) {
  "use strict";

  const STOP_WORDS = new Set(["the", "a", "an", "of", "and", "to", "in"]);

  function normalizeWord(word) {
    let out = "";
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      if (c >= 65 && c <= 90) out += String.fromCharCode(c + 32);
      else if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) out += word[i];
    }
    return out;
  }

  function splitWords(text) {
    const words = [];
    let start = 0;
    for (let i = 0; i <= text.length; i++) {
      if (i === text.length || text.charCodeAt(i) === 32) {
        if (i > start) words.push(normalizeWord(text.slice(start, i)));
        start = i + 1;
      }
    }
    return words;
  }

  function countWords(text) {
    const counts = new Map();
    for (const word of splitWords(text)) {
      if (!word || STOP_WORDS.has(word)) continue;
      counts.set(word, (counts.get(word) || 0) + 1);
    }
    return counts;
  }

  registry.tokenize = { normalizeWord, splitWords, countWords };
})(globalThis.__profdiffModules || (globalThis.__profdiffModules = {}));
