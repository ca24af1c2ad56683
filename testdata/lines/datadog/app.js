'use strict';
const docs = Array.from({length: 40}, (_, i) => 'doc ' + i + ' ' + 'lorem ipsum dolor sit amet '.repeat(200));
function other(i) { let s = 0; for (let k = 0; k < 20000; k++) s += Math.sqrt(k * i + 1); return s; }
function parse(text) { let h = 0; for (let r = 0; r < 30; r++) for (let k = 0; k < text.length; k++) h = (h * 31 + text.charCodeAt(k)) | 0; return h; }
const cache = null;
function renderDocument(i) {
  return parse(docs[i % docs.length]);
}
function readme(i) { return renderDocument(i); }
function handle(i) { return readme(i) + other(i); }
function main() { let s = 0; let i = 0; while (i < 5000) s += handle(i++); console.log(s, i); }
main();
