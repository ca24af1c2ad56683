#!/usr/bin/env python3
"""Measure profdiff's false verdicts with three sides of one build: every
split of a build's repeated runs into a base and two variants (all three
non-empty), each variant judged against the base. Every verdict other than
"~" is false: there is nothing to find.

usage: go build -o /tmp/profdiff ./cmd/profdiff && python3 bench/several.py /tmp/profdiff [../shared/corpus]
"""
import itertools, json, os, subprocess, sys, tempfile

if len(sys.argv) < 2 or not os.access(sys.argv[1], os.X_OK):
    sys.exit(__doc__.strip() + '\n\nerror: give a built profdiff binary first')
BIN = sys.argv[1]
C = sys.argv[2] if len(sys.argv) > 2 else '../shared/corpus'
if not os.path.isdir(f'{C}/node-router-ab') or not os.path.isdir(f'{C}/go-pprof'):
    sys.exit(f'{C}: not the corpus (it needs node-router-ab/ and go-pprof/): give its folder as the second argument')
C = os.path.abspath(C)
sets = [
    ('router before', [f'{C}/node-router-ab/before-r{i}.cpuprofile' for i in range(1, 6)], f'{C}/node-router-ab/bundle-before'),
    ('router after', [f'{C}/node-router-ab/after-r{i}.cpuprofile' for i in range(1, 6)], f'{C}/node-router-ab/bundle-after'),
    ('go before', [f'{C}/go-pprof/before-r{i}.pprof' for i in range(1, 4)], None),
    ('go after', [f'{C}/go-pprof/after-r{i}.pprof' for i in range(1, 4)], None),
]
total = {'package': [0, 0], 'function': [0, 0], 'headline': [0, 0]}
for name, runs, maps in sets:
    counts = {k: [0, 0] for k in total}
    splits, examples = 0, []
    for assign in itertools.product(range(3), repeat=len(runs)):
        if len(set(assign)) < 3:
            continue
        splits += 1
        with tempfile.TemporaryDirectory() as t:
            args = [BIN, '--format', 'json']
            for s in range(3):
                os.mkdir(f'{t}/s{s}')
                for i, a in enumerate(assign):
                    if a == s:
                        os.symlink(runs[i], f'{t}/s{s}/{os.path.basename(runs[i])}')
                if maps:
                    args += ['--sourcemaps', f's{s}={maps}']
            p = subprocess.run(args + [f'{t}/s0', f'{t}/s1', f'{t}/s2'], capture_output=True, text=True)
            if p.returncode not in (0, 1):
                sys.exit(f'{name} {assign}: {p.stderr.strip()}')
            d = json.loads(p.stdout)
        for kind, rows in (('package', d['packages']), ('function', d['functions'])):
            for r in rows:
                for m in ('self', 'total'):
                    for c in r[m].get('vs_base', []):
                        counts[kind][1] += 1
                        if c['verdict'] != '~':
                            counts[kind][0] += 1
                            if len(examples) < 3:
                                examples.append(f"{kind} {r.get('function') or r.get('package')} {m} in {c['side']}: {c['verdict']}, {c['delta_pct']}%, p={c['p']}")
        for c in d['headline']['on_cpu'].get('vs_base', []):
            counts['headline'][1] += 1
            counts['headline'][0] += c['verdict'] != '~'
    print(f"{name}: {splits} splits of {len(runs)} runs into 3 sides; false verdicts: " +
          ', '.join(f'{k} {v[0]} of {v[1]}' for k, v in counts.items()))
    for e in examples:
        print('   ', e)
    for k, v in counts.items():
        total[k][0] += v[0]
        total[k][1] += v[1]
print('all: ' + ', '.join(f'{k} {v[0]} of {v[1]} ({v[0] / max(v[1], 1):.2g})' for k, v in total.items()))
