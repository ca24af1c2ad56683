import { sumSquares, countVowels } from "./work.js";

const text = "the quick brown fox jumps over the lazy dog ".repeat(2000);
const end = Date.now() + 400;
let out = 0;
while (Date.now() < end) {
  out += sumSquares(200000);
  out += countVowels(text);
}
console.log(out > 0 ? "ok" : "none");
