// src/work.js
function sumSquares(n) {
  let total = 0;
  for (let i = 0; i < n; i++) {
    const sq = i % 1e3 * (i % 1e3);
    total = (total + sq) % 1000003;
  }
  return total;
}
function countVowels(text2) {
  let count = 0;
  for (let i = 0; i < text2.length; i++) {
    const c = text2.charCodeAt(i);
    if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) {
      count++;
    }
  }
  return count;
}

// src/main.js
var text = "the quick brown fox jumps over the lazy dog ".repeat(2e3);
var end = Date.now() + 400;
var out = 0;
while (Date.now() < end) {
  out += sumSquares(2e5);
  out += countVowels(text);
}
console.log(out > 0 ? "ok" : "none");
//# sourceMappingURL=app.js.map
