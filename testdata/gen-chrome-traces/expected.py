#!/usr/bin/env python3
"""The numbers analyze's trace test expects, computed independently of
profdiff from a Chrome trace: per process and profile id, the ProfileChunk
events' samples and timeDeltas concatenated in file order; each sample's
time is the running sum of the deltas; samples are put in the order of
their times (stable), each weighs the time to the next one, the last the
median of those steps, the first step being its time from the start.
Time is then summed by the sample's node: (idle), (program) (and (root)),
(garbage collector), the rest on-CPU.

usage: python3 expected.py trace.json[.gz] PID:TID
"""
import gzip, json, sys

path, sel = sys.argv[1], sys.argv[2]
pid, tid = (int(x) for x in sel.split(':'))
op = gzip.open if path.endswith('.gz') else open
d = json.load(op(path, 'rt'))
ev = d if isinstance(d, list) else d['traceEvents']
# the profile ids of the thread (from its Profile events, else its chunks)
ids = {e['id'] for e in ev if e.get('name') == 'Profile' and e.get('pid') == pid and e.get('tid') == tid}
if not ids:
    ids = {e['id'] for e in ev if e.get('name') == 'ProfileChunk' and e.get('pid') == pid and e.get('tid') == tid}
nodes, seq = {}, []
for e in ev:
    if e.get('name') != 'ProfileChunk' or e.get('pid') != pid or e.get('id') not in ids:
        continue
    data = e['args']['data']
    cp = data.get('cpuProfile', {})
    for n in cp.get('nodes', []):
        nodes[n['id']] = n
    td = data.get('timeDeltas', cp.get('timeDeltas', []))
    seq += list(zip(cp.get('samples', []), td))
t, timed = 0, []
for node, delta in seq:
    t += delta
    timed.append((t, node))
timed.sort(key=lambda x: x[0])  # stable
steps = [max(timed[0][0], 0)] + [timed[i][0] - timed[i - 1][0] for i in range(1, len(timed))]
s = sorted(steps)
n = len(s)
median = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
weights = [steps[i + 1] for i in range(n - 1)] + [median]
out = dict(samples=n, sampled=0, onCPU=0, idle=0, program=0, gcTime=0)
for (t, node), w in zip(timed, weights):
    w = int(w * 1000)
    fn = nodes[node]['callFrame']['functionName']
    out['sampled'] += w
    if fn == '(idle)':
        out['idle'] += w
    elif fn in ('(program)', '(root)'):
        out['program'] += w
    else:
        out['onCPU'] += w
        if fn == '(garbage collector)':
            out['gcTime'] += w
print(f"{{pid: {pid}, tid: {tid}, samples: {out['samples']}, sampled: {out['sampled']}, onCPU: {out['onCPU']}, idle: {out['idle']}, program: {out['program']}, gcTime: {out['gcTime']}}},")
