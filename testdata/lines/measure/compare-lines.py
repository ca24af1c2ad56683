#!/usr/bin/env python3
"""Per-line shares of on-CPU time: the unbundled workload (no maps) against the
non-minified esbuild bundle (mapped through its map), run by run.
usage: compare-lines.py PROFDIFF PROFILES_DIR [TOP_FUNCTIONS]"""
import json, math, os, re, subprocess, sys

pd, root = sys.argv[1], sys.argv[2]
top = int(sys.argv[3]) if len(sys.argv) > 3 else 10
restrict = len(sys.argv) > 4 and sys.argv[4] == "mapped-runs"


def norm(f):
    # both builds' files as paths below the workload folder
    f = f.replace("file://", "")
    f = re.sub(r"^.*?/build/before/", "", f)
    f = re.sub(r"^.*?/node_modules/", "node_modules/", f)
    return f

def run(path, maps):
    args = [pd, "--format", "json", "--lines", path] + ([] if maps else ["--no-sourcemaps"])
    d = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
    on = d["headline"]["on_cpu"]["ns"][0]
    fns, lines, haslines = {}, {}, set()
    dropped = 0
    for f in d["functions"]:
        k = (f["function"], norm(f["file"]))
        fns[k] = fns.get(k, 0) + f["self"]["ns"][0] / on
        if f.get("lines"):
            haslines.add(k)
        elif f["self"]["ns"][0] > 0 and f.get("lines_in_bundle"):
            dropped += f["self"]["ns"][0] / on
        for l in f.get("lines") or []:
            if l.get("line"):
                lk = k + (l["line"],)
                lines[lk] = lines.get(lk, 0) + l["self"]["ns"][0] / on
    return fns, lines, d.get("symbolication"), haslines, dropped

sides = {}
for side, maps in (("unbundled", False), ("bundled", True)):
    runs = sorted(os.listdir(os.path.join(root, side)))
    sides[side] = [run(os.path.join(root, side, r), maps) for r in runs if r.endswith(".cpuprofile")]

def stats(xs):
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else float("nan")
    return m, sd

u, b = sides["unbundled"], sides["bundled"]
fu = {}
for fns, *_ in u:
    for k, v in fns.items():
        fu[k] = fu.get(k, 0) + v / len(u)
joined = [k for k in sorted(fu, key=lambda k: -fu[k]) if any(k in fns for fns, *_ in b)]
print(f"runs: {len(u)} unbundled, {len(b)} bundled; bundled symbolication: mapped {b[0][2]['on_cpu_mapped_ns'] / max(b[0][2]['on_cpu_js_ns'], 1):.1%} of JS time (run 1)")
print("bundled: share of on-CPU in functions whose lines were dropped as a minified bundle's, per run: " + ", ".join(f"{100*x[4]:.1f}%" for x in b))
print(f"top {top} functions by unbundled self share that the bundle's map joins:")
agree = total = 0
zs = []
for k in joined[:top]:
    su = stats([fns.get(k, 0) for fns, *_ in u]); sb = stats([fns.get(k, 0) for fns, *_ in b])
    bl = [x for x in b if k in x[3]]  # bundled runs where the function's lines were mapped
    bb = bl if restrict else b
    print(f"\n{k[0][:60]}  {k[1]}   function self: unbundled {100*su[0]:.2f}% ±{100*su[1]:.2f}  bundled {100*sb[0]:.2f}% ±{100*sb[1]:.2f}; bundled runs with its lines mapped: {len(bl)} of {len(b)}")
    keys = sorted({lk for _, ls, *_ in u + bb for lk in ls if lk[:2] == k})
    if len(bb) < 2:
        continue
    for lk in keys:
        xu = [ls.get(lk, 0) for _, ls, *_ in u]; xb = [ls.get(lk, 0) for _, ls, *_ in bb]
        mu, sdu = stats(xu); mb, sdb = stats(xb)
        if max(mu, mb) < 0.001:  # lines under 0.1% of on-CPU on both
            continue
        if lk[2] == 0:
            continue
        se = math.sqrt(sdu ** 2 / len(xu) + sdb ** 2 / len(xb))
        z = (mb - mu) / se if se > 0 else float("inf")
        ok = abs(z) <= 2
        agree += ok; total += 1; zs.append(z)
        print(f"  line {lk[2]:5d}  unbundled {100*mu:6.2f}% ±{100*sdu:5.2f}  bundled {100*mb:6.2f}% ±{100*sdb:5.2f}  diff {100*(mb-mu):+6.2f}pp  z {z:+6.2f} {'' if ok else '  <- beyond 2 SE'}")
print(f"\n{agree} of {total} lines (>=0.1% of on-CPU on either side) agree within 2 standard errors of the run-to-run spread")
