// A workload whose time is spread over known lines: sumSquares spends
// most of its time on the multiplication loop, countVowels on its test.
export function sumSquares(n) {
  let total = 0;
  for (let i = 0; i < n; i++) {
    const sq = (i % 1000) * (i % 1000);
    total = (total + sq) % 1000003;
  }
  return total;
}

export function countVowels(text) {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) {
      count++;
    }
  }
  return count;
}
