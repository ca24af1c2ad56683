// Summarises the Profile / ProfileChunk streams of a Chrome trace-event JSON file.
// usage: node analyze.mjs trace.json [--events]   (--events: also top event names by bytes)
import fs from 'node:fs';
const file = process.argv[2];
const text = fs.readFileSync(file, 'utf8');
const j = JSON.parse(text);
const form = Array.isArray(j) ? 'array' : 'object';
const ev = Array.isArray(j) ? j : j.traceEvents;
const out = { file, bytes: Buffer.byteLength(text), form, topLevelKeys: Array.isArray(j) ? null : Object.keys(j), events: ev.length };
if (!Array.isArray(j) && j.metadata) out.metadataKeys = Object.keys(j.metadata);
const tname = new Map(), pname = new Map();
for (const e of ev) if (e.ph === 'M') {
  if (e.name === 'thread_name') tname.set(`${e.pid}/${e.tid}`, e.args.name);
  if (e.name === 'process_name') pname.set(e.pid, e.args.name);
}
const streams = new Map();
const flags = { chunkWithLines: 0, nodesWithParent: 0, nodesWithChildren: 0, timeDeltasInsideCpuProfile: 0, timeDeltasBesideCpuProfile: 0, chunksWithNodes: 0 };
for (const e of ev) {
  if (e.name !== 'Profile' && e.name !== 'ProfileChunk') continue;
  const key = `${e.pid}/${e.id}`;
  if (!streams.has(key)) streams.set(key, { pid: e.pid, tid: e.tid, process: pname.get(e.pid), thread: tname.get(`${e.pid}/${e.tid}`), id: e.id, ph: e.ph, cat: e.cat, profileEvents: 0, chunks: 0, samples: 0, nodes: 0, timeDeltas: 0, startTime: null, chunkTids: new Set(), sampleTime: 0 });
  const s = streams.get(key);
  if (e.name === 'Profile') { s.profileEvents++; s.tid = e.tid; s.thread = tname.get(`${e.pid}/${e.tid}`); s.startTime = e.args?.data?.startTime; continue; }
  s.chunks++; s.chunkTids.add(e.tid);
  const d = e.args?.data || {};
  const cp = d.cpuProfile || {};
  if (cp.nodes) { s.nodes += cp.nodes.length; flags.chunksWithNodes++;
    for (const n of cp.nodes) { if ('parent' in n) flags.nodesWithParent++; if ('children' in n) flags.nodesWithChildren++; } }
  if (cp.samples) s.samples += cp.samples.length;
  if (d.lines || cp.lines) flags.chunkWithLines++;
  if (d.columns || cp.columns) flags.chunkWithColumns = (flags.chunkWithColumns || 0) + 1;
  if (cp.trace_ids) flags.chunkWithTraceIds = (flags.chunkWithTraceIds || 0) + 1;
  for (const k of Object.keys(d)) (flags.argsDataKeys ||= new Set()).add(k);
  for (const k of Object.keys(cp)) (flags.cpuProfileKeys ||= new Set()).add(k);
  if (d.timeDeltas) { flags.timeDeltasBesideCpuProfile++; s.timeDeltas += d.timeDeltas.length; s.sampleTime += d.timeDeltas.reduce((a, b) => a + b, 0); }
  if (cp.timeDeltas) { flags.timeDeltasInsideCpuProfile++; s.timeDeltas += cp.timeDeltas.length; }
}
out.streams = [...streams.values()].map((s) => ({ ...s, chunkTids: [...s.chunkTids] }));
out.flags = { ...flags, argsDataKeys: [...(flags.argsDataKeys || [])], cpuProfileKeys: [...(flags.cpuProfileKeys || [])] };
// JS time estimate per stream: samples whose node is not (idle)/(program)/(garbage collector)/(root)
for (const s of out.streams) {
  const nodes = new Map(); const counts = new Map(); let lastDelta = [];
  for (const e of ev) if (e.name === 'ProfileChunk' && e.pid === s.pid && e.id === s.id) {
    const cp = e.args.data.cpuProfile || {};
    for (const n of cp.nodes || []) nodes.set(n.id, n);
    const td = e.args.data.timeDeltas || cp.timeDeltas || [];
    (cp.samples || []).forEach((id, i) => counts.set(id, (counts.get(id) || 0) + 1));
  }
  // time per sample = the next sample's timeDelta (DevTools-style); negative deltas counted
  const seq = [];
  for (const e of ev) if (e.name === 'ProfileChunk' && e.pid === s.pid && e.id === s.id) {
    const d = e.args.data, cp = d.cpuProfile || {}; const td = d.timeDeltas || cp.timeDeltas || [];
    (cp.samples || []).forEach((id, i) => seq.push([id, td[i]]));
  }
  const us = { js: 0, idle: 0, program: 0, gc: 0 }; let neg = 0;
  const kind = (id) => { const f = nodes.get(id)?.callFrame?.functionName; return f === '(idle)' ? 'idle' : f === '(program)' || f === '(root)' ? 'program' : f === '(garbage collector)' ? 'gc' : 'js'; };
  for (let i = 0; i < seq.length; i++) { if (seq[i][1] < 0) neg++; if (i + 1 < seq.length) us[kind(seq[i][0])] += seq[i + 1][1]; }
  const pos = seq.slice(1).map((x) => x[1]).filter((x) => x > 0).sort((a, b) => a - b);
  s.medianDeltaUs = pos[pos.length >> 1]; s.negativeDeltas = neg; s.timeUsByKind = us;
  let js = 0, idle = 0, program = 0, gc = 0;
  for (const [id, c] of counts) {
    const fn = nodes.get(id)?.callFrame?.functionName;
    if (fn === '(idle)') idle += c; else if (fn === '(program)') program += c; else if (fn === '(garbage collector)') gc += c; else if (fn === '(root)') program += c; else js += c;
  }
  s.sampleKinds = { js, idle, program, gc };
  s.sampleSpanUs = s.sampleTime;
  const fnCount = new Map();
  for (const [id, c] of counts) { const n = nodes.get(id); const f = n?.callFrame?.functionName || '(anonymous)'; fnCount.set(f, (fnCount.get(f) || 0) + c); }
  s.topSelf = [...fnCount].sort((a, b) => b[1] - a[1]).slice(0, 6);
  delete s.sampleTime;
}
if (process.argv.includes('--events')) {
  const by = new Map();
  for (const e of ev) { const k = `${e.cat} :: ${e.name}`; const b = JSON.stringify(e).length; const x = by.get(k) || [0, 0]; x[0]++; x[1] += b; by.set(k, x); }
  out.byEvent = [...by].sort((a, b) => b[1][1] - a[1][1]).slice(0, 25).map(([k, [n, b]]) => `${b}\t${n}\t${k}`);
  const bp = new Map(); for (const e of ev) bp.set(e.pid, (bp.get(e.pid) || 0) + JSON.stringify(e).length);
  out.bytesByPid = Object.fromEntries([...bp].map(([p, b]) => [`${p} ${pname.get(p)}`, b]));
}
console.log(JSON.stringify(out, null, 1));
