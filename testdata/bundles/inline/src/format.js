const bytes = require("bytes");

function formatSize(n) {
  return bytes(n, { unitSeparator: " ", decimalPlaces: 1 });
}

function checksum(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

function renderLine(hit, size) {
  const params = hit ? JSON.stringify(hit.params) : "{}";
  const line = `${hit ? hit.pattern : "404"} ${params} ${formatSize(size)}`;
  return { line, sum: checksum(line) };
}

module.exports = { formatSize, checksum, renderLine };
