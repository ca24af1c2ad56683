// profdiff index-map fixture (metro-source-map BundleBuilder)
(function(s){"use strict";const f=new Set(["the","a","an","of","and","to","in"]);function i(t){let e="";for(let n=0;n<t.length;n++){const o=t.charCodeAt(n);o>=65&&o<=90?e+=String.fromCharCode(o+32):(o>=97&&o<=122||o>=48&&o<=57)&&(e+=t[n])}return e}function r(t){const e=[];let n=0;for(let o=0;o<=t.length;o++)(o===t.length||t.charCodeAt(o)===32)&&(o>n&&e.push(i(t.slice(n,o))),n=o+1);return e}function c(t){const e=new Map;for(const n of r(t))!n||f.has(n)||e.set(n,(e.get(n)||0)+1);return e}s.tokenize={normalizeWord:i,splitWords:r,countWords:c}})(globalThis.__profdiffModules||(globalThis.__profdiffModules={}));(function(c) {
  "use strict";
  function l(t) {
    let e = 0;
    for (let o = 0; o < t.length; o++) e += t[o];
    return t.length ? e / t.length : 0;
  }
  function h(t) {
    const e = l(t);
    let o = 0;
    for (let n = 0; n < t.length; n++) {
      const r = t[n] - e;
      o += r * r;
    }
    return t.length ? o / t.length : 0;
  }
  function g(t, e) {
    const o = Array.from(t.entries());
    return o.sort((n, r) => r[1] - n[1] || (n[0] < r[0] ? -1 : n[0] > r[0] ? 1 : 0)), o.slice(0, e);
  }
  function s(t, e) {
    const o = new Array(e).fill(0);
    let n = 1;
    for (const r of t) r > n && (n = r);
    for (const r of t) {
      const i = Math.min(e - 1, Math.floor(r / n * e));
      o[i]++;
    }
    return o;
  }
  function m(t, e) {
    const o = new Float64Array(t.length);
    for (let n = 0; n < t.length; n++) {
      let r = 0, i = 0;
      for (let f = Math.max(0, n - e + 1); f <= n; f++)
        r += t[f], i++;
      o[n] = r / i;
    }
    return o;
  }
  c.stats = { mean: l, variance: h, topEntries: g, histogram: s, movingAverage: m };
})(globalThis.__profdiffModules || (globalThis.__profdiffModules = {}));(function(c){"use strict";const{countWords:h}=c.tokenize,{variance:f,topEntries:d,histogram:m,movingAverage:p}=c.stats,r=["Source","Map","index","section","offset","column","line","V8","profile","sample","the","of","frame","minified","bundle","Metro"];function g(e,s){const t=[];let o=e>>>0;for(let n=0;n<s;n++)o=Math.imul(o,1103515245)+12345>>>0,t.push(r[o%r.length]+(o%7===0?",":""));return t.join(" ")}function M(e){const s=Date.now()+e;let t=0,o=0;for(;Date.now()<s;){const n=g(t,400),l=h(n),i=Array.from(l.values()),a=p(n.split(" ").map(_=>_.length),48),k=d(l,5),v=m(i,8);o=o+Math.round(f(i))+k[0][1]+v[7]+Math.round(a[a.length-1])>>>0,t++}return{rounds:t,checksum:o}}const u=M(1e3);console.log("rounds="+u.rounds+" checksum="+u.checksum)})(globalThis.__profdiffModules||(globalThis.__profdiffModules={}));
//# sourceMappingURL=app.js.map
