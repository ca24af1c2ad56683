// A small program recorded by the README's profdiff record example: new/
// differs in checksum only.
function checksum(text) { let h = 0; for (const c of Array.from(text)) h = (h * 31 + c.codePointAt(0)) | 0; return h; }
function run(n) { let s = 0; for (let i = 0; i < n; i++) s ^= checksum("row-" + i); return s; }
console.log(run(20000));
