#!/usr/bin/env python3
"""Measure profdiff's verdicts on the corpus: the false-positive rate on A/A
pairs (two sets of runs of the same build) and the power on the A/B pairs.

usage: go build -o /tmp/profdiff ./cmd/profdiff && python3 bench/noise.py /tmp/profdiff [../shared/corpus]
"""
import itertools, json, os, subprocess, sys

if len(sys.argv) < 2 or not os.access(sys.argv[1], os.X_OK):
    sys.exit(__doc__.strip() + '\n\nerror: give a built profdiff binary first')
binp = sys.argv[1]
corpus = sys.argv[2] if len(sys.argv) > 2 else '../shared/corpus'
if not os.path.isdir(f'{corpus}/node-router-ab') or not os.path.isdir(f'{corpus}/go-pprof'):
    sys.exit(f'{corpus}: not the corpus (it needs node-router-ab/ and go-pprof/, in ../shared/corpus beside this repository): give its folder as the second argument')
R = f'{corpus}/node-router-ab'
G = f'{corpus}/go-pprof'

def run(before, after, maps_b=None, maps_a=None, extra=()):
    args = [binp, '--format', 'json', *extra]
    if maps_b:
        args += ['--sourcemaps-before', maps_b, '--sourcemaps-after', maps_a]
    for f in before:
        args += ['--before', f]
    for f in after:
        args += ['--after', f]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f'profdiff failed: {p.stderr}')
    return json.loads(p.stdout)

REAL = ('better', 'worse', 'new', 'gone')

def flagged(d, kind, metric):
    rows = d[kind]
    return sum(r[metric]['verdict'] in REAL for r in rows), len(rows)

def aa(label, files, maps, extra=()):
    tot = {(k, m): [0, 0] for k in ('packages', 'functions') for m in ('self', 'total')}
    paths = 0
    pairs = []
    n = len(files)
    for a, b in itertools.combinations(range(n), 2):
        pairs.append(([files[a]], [files[b]]))
    if n >= 4:
        idx = list(range(n))
        for left in itertools.combinations(idx, 2):
            rest = [i for i in idx if i not in left]
            for right in itertools.combinations(rest, 2):
                if left < right:
                    pairs.append(([files[i] for i in left], [files[i] for i in right]))
    pair_flags = 0
    for b, a in pairs:
        d = run(b, a, maps, maps, extra)
        for k, m in tot:
            f, t = flagged(d, k, m)
            tot[k, m][0] += f
            tot[k, m][1] += t
        pair_flags += flagged(d, 'packages', 'self')[0] + flagged(d, 'packages', 'total')[0] > 0
        paths += len(d['paths'])
    for (k, m), (f, t) in tot.items():
        print(f'A/A {label}: {len(pairs)} pairs; {k} by {m}: {f} of {t} rows flagged ({100*f/max(t,1):.3f}%)')
    print(f'A/A {label}: pairs with any package flagged: {pair_flags} of {len(pairs)}; paths found: {paths}')

def ab(label, before, after, maps_b, maps_a, want, extra=()):
    d = run(before, after, maps_b, maps_a, extra)
    rows = {r['package']: r for r in d['packages']}
    r = rows[want]['self']
    others = [p for p, x in rows.items() if (x['self']['verdict'] in REAL or x['total']['verdict'] in REAL) and p != want]
    first = d['paths'][0]['text'] if d['paths'] else '(no path)'
    print(f'A/B {label}: {want} self {r["verdict"]} {r["delta_pct"]:+.1f}% p={r["p"]}; on-CPU {d["headline"]["on_cpu"]["verdict"]}; other packages flagged: {others}; first path: {first}')

rb = [f'{R}/before-r{i}.cpuprofile' for i in range(1, 6)]
ra = [f'{R}/after-r{i}.cpuprofile' for i in range(1, 6)]
gb = [f'{G}/before-r{i}.pprof' for i in range(1, 4)]
ga = [f'{G}/after-r{i}.pprof' for i in range(1, 4)]
aa('router before runs', rb, f'{R}/bundle-before')
aa('router after runs', ra, f'{R}/bundle-after')
aa('go before runs', gb, None, ('--work', '60'))
aa('go after runs', ga, None, ('--work', '60'))
for i in range(5):
    ab(f'router r{i+1} vs r{i+1}', [rb[i]], [ra[i]], f'{R}/bundle-before', f'{R}/bundle-after', 'path-to-regexp')
ab('router 5 vs 5', rb, ra, f'{R}/bundle-before', f'{R}/bundle-after', 'path-to-regexp')
for i in range(3):
    ab(f'go r{i+1} vs r{i+1}', [gb[i]], [ga[i]], None, None, 'regexp', ('--work', '60'))
ab('go 3 vs 3', gb, ga, None, None, 'regexp', ('--work', '60'))
