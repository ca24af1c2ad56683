#!/usr/bin/env python3
"""Reproduce every number of profdiff's JSON report (version 3) for V8
.cpuprofile runs from the raw files, independently of profdiff's code:
each side's on-CPU time, every package and function row's self and total
time per run, their means, spreads, deltas and shares, and self <= total on
every row; and that every verdict agrees with its change and p-value (a
real verdict has p < 0.05, a change past the minimum effect and the
direction it names); and every p-value, redone from the runs by the
method the README's statistics section describes (diff/noise.go). The
headline: each side's log variance a prior worth 3·(2/n)³ runs from
three runs a side (3 below) pooled with the runs' own, plus half the
square of the sides' gap in load (the difference of their runs' mean log
of on-CPU time over on-CPU samples times the gaps' lower quartile); Welch's t. A row
(a .cpuprofile takes one sample per tick, so rows are judged on their
counts of samples): its share of each run's on-CPU samples (of the rest
of the run for a row holding most of it), each side's log variance the
binomial noise of its count plus the runs' variance above that pooled
with the prior, Satterthwaite's degrees of freedom of the estimated part,
counting only when it moved the time's way; when the headline changed,
its time instead (its count share times the run's on-CPU time, Welch's t
as the headline's, never below binomial noise), doubled from two runs a
side; from three runs a side, each side's variance of a count is its
runs' own (at least binomial) pooled with binomial noise plus the table's
overdispersion at the row's size, worth limma's prior degrees of freedom
estimated from the table's rows (at most twice the runs less one), and
Student's t; Mann-Whitney's too from 8 runs a side; Holm's weighted
correction over each table's rows that changed at all (not only those
past the minimum effect: a family chosen by the changes it tests is no
correction; those below it show no p, and under 1% of on-CPU time take
p = 1 untested; a total whose runs are its self's is the self's one test),
self times two thirds of it and totals one third, each row weighted half
equally, half by its share (functions by share alone).

usage: python3 bench/verify_json.py PROFDIFF before.cpuprofile[,more...] after.cpuprofile[,more...]

It runs `PROFDIFF --format json --no-sourcemaps --before F ... --after F ...`
and compares. It knows the package rules only as far as unbundled Node
workloads need them (node: URLs, node_modules, the folder above src/).
Exit status 0 when every number agrees (within 1e-6 relative, 1 ns; a
p-value within 1e-5 relative: Student's t tail is computed here by its
own continued fraction).
"""
import json, math, os, re, statistics, subprocess, sys

if len(sys.argv) != 4:
    sys.exit(__doc__)
binp, before, after = sys.argv[1], sys.argv[2].split(','), sys.argv[3].split(',')
for f in before + after:
    if not os.path.exists(f):
        sys.exit(f'{f}: no such file (the corpus lives in ../shared/corpus; see the usage above)')

RUN_NOISE, PRIOR_RUNS, DISPERSION, ATTRIBUTION = 0.15, 3, 4, 0.4
SHARE_NOISE, RANK_RUNS, MIN_WEIGHT, UNIFORM = 0.2, 8, 0.01, 0.5
ALPHA, MIN_PP, MIN_PCT = 0.05, 0.1, 5
SELF_BLOCK = 2  # the self times' weight in a table's correction, the totals' 1


def package(url):
    u = url[len('file://'):] if url.startswith('file://') else url
    if u.startswith('node:'):
        return 'node'
    if '/node_modules/' in u:
        rest = u[u.rindex('/node_modules/') + len('/node_modules/'):].split('/')
        return '/'.join(rest[:2]) if rest[0].startswith('@') else rest[0]
    parts = u.split('/')
    for i in range(len(parts) - 2, 0, -1):
        if parts[i] in ('src', 'lib', 'dist', 'build', 'out'):
            return parts[i - 1]
    return parts[-2] if len(parts) > 1 else u


def read(path):
    p = json.load(open(path))
    nodes = {n['id']: n for n in p['nodes']}
    parent = {}
    for n in p['nodes']:
        for c in n.get('children', []):
            parent[c] = n['id']
        if 'parent' in n:
            parent[n['id']] = n['parent']
    # Samples in the order of their timestamps (the running sum of the
    # deltas, which can go back): each weighs the step to the next one.
    times, t = [], 0
    for d in p['timeDeltas']:
        t += d
        times.append(t)
    order = sorted(range(len(times)), key=lambda i: times[i])  # stable
    samples = [p['samples'][i] for i in order]
    deltas = [max(times[order[0]], 0)] + [times[order[i]] - times[order[i - 1]] for i in range(1, len(order))]
    srt = sorted(deltas)
    n = len(srt)
    med = srt[n // 2] * 1000 if n % 2 else (srt[n // 2 - 1] + srt[n // 2]) * 500
    weights = [deltas[i + 1] * 1000 for i in range(n - 1)] + [med]

    def key(nid):
        """(function key, package key) of a node; None for the root."""
        cf = nodes[nid]['callFrame']
        name, url = cf['functionName'], cf.get('url', '')
        if name == '(root)':
            return None
        if name == '(garbage collector)':
            pkg = '(gc)'
        elif url:
            pkg = package(url)
        elif not (name.startswith('RegExp: ') or str(cf.get('scriptId', '0')) not in ('0', '')):
            pkg = '(native)'  # a builtin
        else:  # a regular expression or eval code: the nearest caller's script's
            pkg, a = '(native)', parent.get(nid)
            while a is not None:
                u = nodes[a]['callFrame'].get('url', '')
                if u:
                    pkg = package(u)
                    break
                a = parent.get(a)
        f = url[len('file://'):] if url.startswith('file://') else url
        line = cf.get('lineNumber', -1) + 1 if url else max(cf.get('lineNumber', -1) + 1, 0)
        col = cf.get('columnNumber', -1) + 1 if url else max(cf.get('columnNumber', -1) + 1, 0)
        return (pkg, name, f, max(line, 0), max(col, 0)), pkg

    # Time, then count of samples (each sample one tick: what the
    # verdicts are judged on), by function ('f') and package ('p').
    selfs = {'f': {}, 'p': {}, 'fn': {}, 'pn': {}}
    totals = {'f': {}, 'p': {}, 'fn': {}, 'pn': {}}
    on = on_n = 0
    for nid, w in zip(samples, weights):
        if nodes[nid]['callFrame']['functionName'] in ('(idle)', '(program)'):
            continue
        on += w
        on_n += 1
        kk = key(nid)
        if kk:
            for d, k in (('f', kk[0]), ('p', kk[1])):
                selfs[d][k] = selfs[d].get(k, 0) + w
                selfs[d + 'n'][k] = selfs[d + 'n'].get(k, 0) + 1
        seen = {'f': set(), 'p': set()}
        a = nid
        while a is not None:
            kk = key(a)
            if kk:
                for d, k in (('f', kk[0]), ('p', kk[1])):
                    if k not in seen[d]:
                        seen[d].add(k)
                        totals[d][k] = totals[d].get(k, 0) + w
                        totals[d + 'n'][k] = totals[d + 'n'].get(k, 0) + 1
            a = parent.get(a)
    return on, selfs, totals, on_n, srt[n // 4] * 1000  # the tick: the gaps' lower quartile


def spread(runs):
    """The standard deviation over runs (σ), as spread_ns holds it."""
    if len(runs) < 2:
        return None
    return statistics.stdev(runs)


def stats(runs, interval, prior):
    n, s = len(runs), sum(runs)
    mean, samples = s / n, s / interval
    half = 0.5 * interval
    if mean < half:
        mean, samples = half, 0.5 * n
    disp = DISPERSION if s > 0 else 1
    # expected variance of one run: run-to-run prior + one run's sampling
    # noise; pooled with the runs' observed variance (worth PRIOR_RUNS runs)
    per_run = prior * prior + disp * n / max(samples, 0.5)
    cv2 = per_run
    if n >= 2 and s > 0:
        ss = sum((x / mean - 1) ** 2 for x in runs)
        cv2 = (PRIOR_RUNS * per_run + ss) / (PRIOR_RUNS + n - 1)
    return mean, cv2 / n


def holm(ps):
    idx = sorted(range(len(ps)), key=lambda i: ps[i])
    m, run, out = len(ps), 0.0, list(ps)
    for rank, i in enumerate(idx):
        run = max(run, min(1, (m - rank) * ps[i]))
        out[i] = run
    return out


# ---- the p-values (README, "Comparing"; diff/noise.go), written anew ----

def betai(a, b, x):
    """The regularized incomplete beta function I_x(a, b) (Lentz's
    continued fraction, Numerical Recipes 6.4)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)
    if x > (a + 1) / (a + b + 2):
        return 1 - betai(b, a, 1 - x)
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)), -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(lbt) * h / a


def t_two_sided(t, df):
    return betai(df / 2, 0.5, df / (df + t * t))


def prior_weight(n):
    return PRIOR_RUNS if n <= 2 else PRIOR_RUNS * (2 / n) ** 3


def side(runs, interval, prior, frac=None):
    """(mean, variance of the log mean, degrees of freedom) of a side."""
    n, s = len(runs), sum(runs)
    mean, samples = s / n, s / interval
    if mean < 0.5 * interval:
        mean, samples = 0.5 * interval, 0.5 * n
    disp = DISPERSION if s > 0 else 1
    cv2, df = prior * prior + disp * n / max(samples, 0.5), math.inf
    if n >= 2 and s > 0:
        s2 = sum((x / mean - 1) ** 2 for x in runs) / (n - 1)
        w = prior_weight(n)
        cv2, df = (w * cv2 + (n - 1) * s2) / (w + n - 1), w + n - 1
    if frac is not None:  # the binomial floor of a row's runs
        floor = max(1 - frac, 0.01) * n / max(s / interval, 0.5 * n)
        cv2 = max(cv2, floor)
    return mean, cv2 / n, df


def mann_whitney(a, b):
    n, m = len(a), len(b)
    allv = sorted([(x, 0) for x in a] + [(x, 1) for x in b], key=lambda o: o[0])
    ra, ties, i = 0.0, 0.0, 0
    while i < len(allv):
        j = i
        while j < len(allv) and allv[j][0] == allv[i][0]:
            j += 1
        if j - i > 1:
            ties += (j - i) ** 3 - (j - i)
        ra += (i + j + 1) / 2 * sum(1 for o in allv[i:j] if o[1] == 0)
        i = j
    u = ra - n * (n + 1) / 2
    if ties == 0 and n * m <= 2500:
        # the number of splits of ranks giving each U, by adding values
        f = {(0, 0): [1]}
        def ways(i, j):
            if (i, j) not in f:
                out = [0] * (i * j + 1)
                if i > 0:
                    for k, c in enumerate(ways(i - 1, j)):
                        out[k + j] += c
                if j > 0:
                    for k, c in enumerate(ways(i, j - 1)):
                        out[k] += c
                f[(i, j)] = out
            return f[(i, j)]
        dist = ways(n, m)
        lo = sum(c for k, c in enumerate(dist) if k <= u)
        hi = sum(c for k, c in enumerate(dist) if k >= u)
        return min(1.0, 2 * min(lo, hi) / sum(dist))
    N = n + m
    var = n * m / 12 * ((N + 1) - ties / (N * (N - 1)))
    z = (abs(u - n * m / 2) - 0.5) / math.sqrt(var) if var > 0 else -1
    return 1.0 if z < 0 else min(1.0, math.erfc(z / math.sqrt(2)))


def welch(ra, rb, interval, prior, frac=None):
    """The p-value of two sides' runs (see side), and the sides' means."""
    return log_t_test(side(ra, interval[0], prior, frac), side(rb, interval[1], prior, frac), ra, rb)


def log_t_test(sa, sb, ra, rb):
    """The p-value of two sides' (mean, variance of the log mean, degrees
    of freedom), no lower than the rank test's with enough runs, and the
    sides' means."""
    (ma, va, da), (mb, vb, db) = sa, sb
    t = (math.log(mb) - math.log(ma)) / math.sqrt(va + vb)
    if math.isinf(da) and math.isinf(db):
        p = math.erfc(abs(t) / math.sqrt(2))
    else:
        df = (va + vb) ** 2 / (va * va / da + vb * vb / db)
        p = math.erfc(abs(t) / math.sqrt(2)) if df > 1e6 else t_two_sided(t, df)
    if len(ra) >= RANK_RUNS and len(rb) >= RANK_RUNS:
        p = max(p, mann_whitney(ra, rb))
    return p, ma, mb


def row_p(runs, counts, function_level, whole_moved, pooled=None):
    """A row's p-value before the correction, judged on its counts of
    samples: its time as its share of each run's on-CPU samples times the
    run's on-CPU time, and its share of the run's samples."""
    means = [sum(r) / len(r) for r in runs]
    cmeans = [sum(r) / len(r) for r in counts]
    share = max(100 * means[s] / on_mean[s] for s in range(2))
    prior, share_prior = RUN_NOISE, SHARE_NOISE
    if function_level:
        a = ATTRIBUTION ** 2 / (share if share > 1 else 1)
        prior, share_prior = math.sqrt(RUN_NOISE ** 2 + a), math.sqrt(SHARE_NOISE ** 2 + a)
    frac = min(max(cmeans[s] / on_n_mean[s] for s in range(2)), 1)
    times = [[c / n * o if n > 0 else 0 for c, n, o in zip(counts[s], on_n[s], on[s])] for s in range(2)]
    units = [sum(on[s]) / max(sum(on_n[s]), 1) for s in range(2)]
    p, ta, tb = welch(times[0], times[1], units, prior, frac)
    if (tb > ta) != (means[1] > means[0]):  # the counted time moved the other way
        p = 1.0
    if whole_moved:  # the share says nothing: the time, at two tests' level
        return p if len(runs[0]) == 1 or len(runs[1]) == 1 else min(1.0, 2 * p)
    k = (on_n_mean[0] + on_n_mean[1]) / 2
    rest = cmeans[0] + cmeans[1] > k
    shares = [[(max(o - v, 0) if rest else v) / o * k if o > 0 else 0 for v, o in zip(counts[s], on_n[s])] for s in range(2)]
    ps, sa, sb = count_test(shares[0], shares[1], share_prior, 1 - frac if rest else frac, pooled)
    if ((sb > sa) != rest) != (means[1] > means[0]):
        ps = 1.0
    return ps  # counted, the share alone


def count_prior_weight(n):
    return PRIOR_RUNS if n <= 2 else PRIOR_RUNS * (2 / n) ** 4


def trigamma(x):
    # psi'(x) = sum over k >= 0 of 1/(x+k)^2: the first 12 terms, then the
    # Euler-Maclaurin tail at x+12
    head = sum(1 / (x + k) ** 2 for k in range(12))
    y = x + 12
    return head + 1 / y + 1 / (2 * y * y) + 1 / (6 * y ** 3) - 1 / (30 * y ** 5) + 1 / (42 * y ** 7)


def digamma(x):
    head = -sum(1 / (x + k) for k in range(12))
    y = x + 12
    return head + math.log(y) - 1 / (2 * y) - 1 / (12 * y * y) + 1 / (120 * y ** 4) - 1 / (252 * y ** 6)


def size_class(frac):
    return 0 if frac < 0.01 else 1 if frac < 0.05 else 2


def pooled_overdispersion(cs):
    """The table's counts' variance above binomial noise, per class of
    size (under 1%, 1-5%, 5% or more of the run's samples; a class of
    fewer than 3 rows takes the whole table's), over rows of at most half
    the run and sides of two runs or more and 20 samples a run or more;
    and the prior's weight, limma's prior degrees of freedom (None: too
    few rows)."""
    k = (on_n_mean[0] + on_n_mean[1]) / 2
    entries, rows = [], [0, 0, 0, 0]
    for counts in cs:
        frac = min(max(sum(counts[s]) / len(counts[s]) / on_n_mean[s] for s in range(2)), 1)
        if frac > 0.5:
            continue
        cl, counted = size_class(frac), False
        for s in range(2):
            if len(counts[s]) < 2:
                continue
            xs = [v / o * k if o > 0 else 0 for v, o in zip(counts[s], on_n[s])]
            m = sum(xs) / len(xs)
            if m < 20:
                continue
            r = len(xs) - 1
            entries.append((cl, sum((x / m - 1) ** 2 for x in xs) / r, max(1 - frac, 0.01) / m, r))
            counted = True
        if counted:
            rows[cl] += 1
            rows[3] += 1
    if rows[3] < 3:
        return None
    num, den = [0.0] * 4, [0.0] * 4
    for cl, s2, b, r in entries:
        for j in (cl, 3):
            num[j] += r * (s2 - b)
            den[j] += r
    extra = [max(num[j if rows[j] >= 3 else 3] / den[j if rows[j] >= 3 else 3], 0) for j in range(3)]
    ls = [math.log(s2 / (b + extra[cl])) - digamma(r / 2) + math.log(r / 2)
          for cl, s2, b, r in entries if s2 > 0 and b + extra[cl] > 0]
    weight = 50.0
    if len(ls) >= 3:
        tri = sum(trigamma(r / 2) for cl, s2, b, r in entries if s2 > 0 and b + extra[cl] > 0) / len(ls)
        excess = statistics.variance(ls) - tri
        if excess > 0:
            lo, hi = 1e-8, 1.0  # the y with trigamma(y) = excess
            while trigamma(hi) > excess:
                lo, hi = hi, 2 * hi
            for _ in range(200):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if trigamma(mid) > excess else (lo, mid)
            weight = min(2 * (lo + hi) / 2, 50.0)
    return extra, weight


def count_side(runs, prior, frac, pooled=None):
    """(mean, variance of the log mean, degrees of freedom) of a side's
    counts: from three runs a side, when the table has a pooled
    overdispersion, the runs' variance (at least the binomial noise)
    pooled with the binomial noise plus the table's figure for the row's
    size, worth the table's weight (at most twice the runs less one),
    Student's t with the runs' degrees of freedom plus the prior's; else
    binomial sampling noise, known, plus the runs' variance above it (at
    least 0) pooled with the prior; the degrees of freedom are the
    estimated part's (Satterthwaite)."""
    n, s = len(runs), sum(runs)
    mean = max(s / n, 0.5)
    binom = max(1 - frac, 0.01) / mean if s > 0 else 1 / mean
    if pooled is not None and n >= 3 and s > 0:
        extra, weight = pooled
        e = extra[size_class(frac)]
        w = min(weight, 2 * (n - 1))
        s2 = max(sum((x / mean - 1) ** 2 for x in runs) / (n - 1), binom)
        cv2 = (w * (binom + e) + (n - 1) * s2) / (w + n - 1)
        return mean, cv2 / n, w + n - 1
    extra, df = prior * prior + ((DISPERSION - 1) * binom if s > 0 else 0), math.inf
    if n >= 2 and s > 0:
        s2 = max(sum((x / mean - 1) ** 2 for x in runs) / (n - 1) - binom, 0)
        w = count_prior_weight(n)
        extra, df = (w * extra + (n - 1) * s2) / (w + n - 1), w + n - 1
        df = (binom + extra) ** 2 / (extra * extra / df) if extra > 0 else math.inf
    return mean, (binom + extra) / n, df


def count_test(ra, rb, prior, frac, pooled=None):
    return log_t_test(count_side(ra, prior, frac, pooled), count_side(rb, prior, frac, pooled), ra, rb)


def passes_minimum(means, pp):
    d = means[1] - means[0]
    if d == 0 or (pp is not None and abs(pp) < MIN_PP):
        return False
    return means[0] == 0 or abs(100 * d / means[0]) >= MIN_PCT


def table_ps(rows, function_level, whole_moved):
    """rows: [(self runs, total runs, self counts, total counts)]; the
    corrected p-values of the self and the total of each (None when
    untested), as judgeRows corrects them: one family per table, self and
    total sharing it."""
    ms = [r[0] for r in rows] + [r[1] for r in rows]
    cs = [r[2] for r in rows] + [r[3] for r in rows]
    ps, ws = [None] * len(ms), [0.0] * len(ms)
    pooled = pooled_overdispersion(cs)
    size = len(rows)
    same = [i >= size and ms[i] == ms[i - size] and cs[i] == cs[i - size] for i in range(len(ms))]
    below = [False] * len(ms)
    for i, runs in enumerate(ms):
        means = [sum(r) / len(r) for r in runs]
        if means[1] != means[0] and not same[i]:  # the family: every row that changed
            share = max(100 * means[s] / on_mean[s] for s in range(2))
            pp = 100 * (means[1] / on_mean[1] - means[0] / on_mean[0])
            below[i] = not passes_minimum(means, pp)
            # below the minimum and under 1% of on-CPU: in the family, p = 1
            ps[i] = 1.0 if below[i] and share < 1 else row_p(runs, cs[i], function_level, whole_moved, pooled)
            ws[i] = max(share, MIN_WEIGHT)
    for blk, weight in ((range(0, size), SELF_BLOCK), (range(size, 2 * size), 1)):
        tested = [i for i in blk if ps[i] is not None]
        tot = sum(ws[i] for i in tested)
        for i in tested:
            u = 0 if function_level else UNIFORM  # functions: by share alone
            ws[i] = weight * (u / len(tested) + (1 - u) * ws[i] / tot)
    idx = sorted((i for i in range(len(ms)) if ps[i] is not None), key=lambda i: ps[i] / ws[i])
    left, run, out = sum(ws[i] for i in idx), 0.0, list(ps)
    for i in idx:
        run = max(run, min(1.0, left * ps[i] / ws[i]))
        left -= ws[i]
        out[i] = run
    for i in range(len(ms)):
        if below[i]:  # no verdict possible: no p shown
            out[i] = None
    for i in range(size, 2 * size):
        if same[i]:  # a total that is its self: the self's test
            out[i] = out[i - size]
    return out[:size], out[size:]


def close_p(got_p, want, what):
    if (got_p is None) != (want is None) or (want is not None and abs(got_p - want) > max(1e-5 * want, 1e-12)):
        bad.append(f'{what}: p profdiff {got_p}, independent {want}')


sides = [[read(f) for f in before], [read(f) for f in after]]
on = [[r[0] for r in s] for s in sides]
on_mean = [sum(x) / len(x) for x in on]
on_n = [[r[3] for r in s] for s in sides]
on_n_mean = [sum(x) / len(x) for x in on_n]
interval = []
for fs in (before, after):
    # the side's mean interval: over all its samples
    tot = cnt = 0
    for f in fs:
        p = json.load(open(f))
        t, times = 0, []
        for d in p['timeDeltas']:
            t += d
            times.append(t)
        times.sort()
        tot += max(times[0], 0) * 1000 + (times[-1] - times[0]) * 1000  # the steps' sum
        cnt += len(p['timeDeltas'])
    interval.append(tot // cnt)

args = [binp, '--format', 'json', '--no-sourcemaps'] + sum([['--before', f] for f in before], []) + sum([['--after', f] for f in after], [])
got = json.loads(subprocess.run(args, capture_output=True, text=True, check=False).stdout)
bad = []


def close(a, b, what):
    if a is None or b is None:
        if a is not b:
            bad.append(f'{what}: profdiff {a}, independent {b}')
        return
    if abs(a - b) > max(1e-6 * abs(b), 1.0):
        bad.append(f'{what}: profdiff {a}, independent {b}')


def check_measure(m, runs, what, prior):
    means = [sum(r) / len(r) for r in runs]
    for s in range(2):
        close(m['ns'][s], means[s], f'{what} ns[{s}]')
        for i, v in enumerate(runs[s]):
            close(m['runs_ns'][s][i], v, f'{what} run {s}/{i}')
        close(m['spread_ns'][s], spread(runs[s]), f'{what} spread[{s}]')
    close(m['delta_ns'], means[1] - means[0], f'{what} delta')
    vb = m.get('vs_base') or [{}]
    if len(m.get('vs_base') or []) != 1 or any(vb[0].get(k) != m.get(k) for k in ('delta_ns', 'delta_pp', 'delta_pct', 'verdict', 'p')):
        bad.append(f'{what}: vs_base {vb} differs from the two-side change')
    close(m['delta_pct'], 100 * (means[1] - means[0]) / means[0] if means[0] else None, f'{what} delta_pct')
    if m['delta_pp'] is not None:
        close(m['delta_pp'] * 1e6, 1e6 * 100 * (means[1] / on_mean[1] - means[0] / on_mean[0]), f'{what} delta_pp')
    a, va = stats(runs[0], interval[0], prior)
    b, vb = stats(runs[1], interval[1], prior)
    z = (math.log(b) - math.log(a)) / math.sqrt(va + vb)
    return math.erfc(abs(z) / math.sqrt(2)), means


def verdict(p, means, pp, appeared, vanished, row=True):
    d = means[1] - means[0]
    pct = 100 * d / means[0] if means[0] else None
    if d == 0 or (row and pp is not None and abs(pp) < MIN_PP) or (pct is not None and abs(pct) < MIN_PCT) or p >= ALPHA:
        return '~'
    if appeared:
        return 'new'
    if vanished:
        return 'gone'
    return 'better' if d < 0 else 'worse'


def check_verdict(m, means, pp, appeared, vanished, what, row=True):
    """The verdict agrees with the change and its p-value: a real verdict
    needs p < ALPHA, a change past the minimum effect and the direction
    (or appearance) it names; an untested change (p null) or p >= ALPHA
    is ~. The p-value itself comes from the test and its correction in
    diff/noise.go (issue 40's method), which this script does not redo."""
    p, v = m['p'], m['verdict']
    if v == '~':
        return
    if p is None or p >= ALPHA:
        bad.append(f'{what}: verdict {v} with p {p}')
        return
    d = means[1] - means[0]
    pct = 100 * d / means[0] if means[0] else None
    if d == 0 or (row and pp is not None and abs(pp) < MIN_PP) or (pct is not None and abs(pct) < MIN_PCT):
        bad.append(f'{what}: verdict {v} for a change under the minimum effect ({pct}%, {pp} pp)')
    want = 'new' if appeared else 'gone' if vanished else 'better' if d < 0 else 'worse'
    if v != want:
        bad.append(f'{what}: verdict {v}, independent {want}')


p, means = check_measure(got['headline']['on_cpu'], on, 'on-CPU', RUN_NOISE)
check_verdict(got['headline']['on_cpu'], means, None, False, False, 'on-CPU', row=False)
# The sides' gap in load: the difference of their runs' mean log stretch
# (a run's on-CPU time over its on-CPU samples times its tick, the lower
# quartile of the gaps between its samples), half its square added to
# each side's variance.
stretch = [[math.log(r[0] / (r[3] * r[4])) for r in s] for s in sides]
load = sum(stretch[1]) / len(stretch[1]) - sum(stretch[0]) / len(stretch[0])
ha, hb = side(on[0], interval[0], RUN_NOISE), side(on[1], interval[1], RUN_NOISE)
ha, hb = (ha[0], ha[1] + load * load / 2, ha[2]), (hb[0], hb[1] + load * load / 2, hb[2])
hp, _, _ = log_t_test(ha, hb, on[0], on[1])
close_p(got['headline']['on_cpu']['p'], hp, 'on-CPU')
whole_moved = verdict(hp, means, None, False, False, row=False) != '~'

def join_functions(sides):
    """Functions join by package, name and file; by position too where a
    name has more than one position on one side (as the README says)."""
    ambiguous = set()
    for s in sides:
        pos = {}
        for r in s:
            for k in set(r[1]['f']) | set(r[2]['f']):
                pos.setdefault(k[:3], set()).add(k[3:])
        ambiguous |= {b for b, ps in pos.items() if len(ps) > 1}
    ident = lambda k: k if k[:3] in ambiguous else k[:3]
    for s in sides:
        for r in s:
            for m in (1, 2):
                for d in ('f', 'fn'):
                    merged = {}
                    for k, v in r[m][d].items():
                        merged[ident(k)] = merged.get(ident(k), 0) + v
                    r[m][d] = merged
    return ident


ident = join_functions(sides)
for kind, d in (('packages', 'p'), ('functions', 'f')):
    keys = set()
    for s in sides:
        for r in s:
            keys |= set(r[1][d]) | set(r[2][d])
    rows = {}
    for r in got[kind]:
        k = r['package'] if kind == 'packages' else ident((r['package'], r['function'] if r['function'] != '(anonymous)' else '', r['file'], r['line'], r['column']))
        rows[k] = r
    if set(rows) != keys:
        bad.append(f'{kind}: keys differ: only profdiff {sorted(set(rows) - keys)[:3]}, only independent {sorted(keys - set(rows))[:3]}')
        continue
    for metric, mi in (('self', 1), ('total', 2)):
        ks = sorted(keys)
        ps, info = [], []
        for k in ks:
            runs = [[r[mi][d].get(k, 0) for r in s] for s in sides]
            tot = [[r[2][d].get(k, 0) for r in s] for s in sides]
            share = max(100 * (sum(runs[s]) / len(runs[s])) / on_mean[s] for s in range(2))
            prior = RUN_NOISE
            if kind == 'functions':
                a = ATTRIBUTION ** 2 / (share if share > 1 else 1)
                prior = math.sqrt(RUN_NOISE ** 2 + a)
            p, means = check_measure(rows[k][metric], runs, f'{kind} {k} {metric}', prior)
            pp = 100 * (means[1] / on_mean[1] - means[0] / on_mean[0])
            ps.append(p)
            info.append((k, means, pp, sum(tot[0]) == 0, sum(tot[1]) == 0))
        for k, means, pp, appeared, vanished in info:
            check_verdict(rows[k][metric], means, pp, appeared, vanished, f'{kind} {k} {metric}')
    ks = [r['package'] if kind == 'packages' else ident((r['package'], r['function'] if r['function'] != '(anonymous)' else '', r['file'], r['line'], r['column'])) for r in got[kind]]
    table = [tuple([[r[mi][dd].get(k, 0) for r in s] for s in sides] for dd in (d, d + 'n') for mi in (1, 2)) for k in ks]
    for metric, want in zip(('self', 'total'), table_ps(table, kind == 'functions', whole_moved)):
        for k, r, w in zip(ks, got[kind], want):
            close_p(r[metric]['p'], w, f'{kind} {k} {metric}')
    for r in got[kind]:
        for s in range(2):
            if r['self']['ns'][s] > r['total']['ns'][s]:
                bad.append(f'{kind} {r}: self > total')

for b in bad[:20]:
    print('MISMATCH', b)
n = len(got['packages']) + len(got['functions'])
print(f'{len(bad)} mismatches over the headline and {n} rows x 2 metrics ({len(before)} + {len(after)} runs)')
sys.exit(1 if bad else 0)
