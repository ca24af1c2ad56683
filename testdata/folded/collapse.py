#!/usr/bin/env python3
"""Collapse `perf script` output into folded stacks, as Brendan Gregg's
stackcollapse-perf.pl does: `comm;root;...;leaf count` lines. With --ns the
value is the samples' period summed (cpu-clock: nanoseconds) instead of a
count."""
import re, sys
ns = '--ns' in sys.argv
acc, comm, frames, period = {}, None, [], 0
def flush():
    global frames
    if comm is not None and frames:
        key = ';'.join([comm] + frames[::-1])
        acc[key] = acc.get(key, 0) + (period if ns else 1)
    frames = []
for line in sys.stdin:
    line = line.rstrip('\n')
    if not line.strip():
        flush(); comm = None; continue
    if not line.startswith((' ', '\t')):
        m = re.match(r'(\S+)\s+\d+\s+[\d.]+:\s+(\d+)\s', line)
        comm, period = (m.group(1), int(m.group(2))) if m else (line.split()[0], 0)
        continue
    m = re.match(r'\s*[0-9a-f]+\s+(.+?)\s+\((.*)\)$', line)
    if m:
        sym = re.sub(r'\+0x[0-9a-f]+$', '', m.group(1))
        if m.group(2).endswith('kallsyms]'):
            sym += '_[k]'
        frames.append(sym)
flush()
for k in sorted(acc):
    print(k, acc[k])
