#!/usr/bin/env python3
"""Build a synthetic history store from real records, with varied noise.

usage: history-store.py [--seed S] [--runs R] BEFORE.json AFTER.json OUT N

BEFORE.json and AFTER.json are real records of the two builds of the corpus's
node-router-ab workload, written by `profdiff history add` with a floor low
enough to hold every row (--floor 0.0001%). OUT receives N records (version 3,
each cut at the default floor, 0.1% of on-CPU and 10 samples) and truth.json,
the commits where the code changed and what changed:

- the first 30% of the commits run BEFORE, the rest AFTER (the router change);
- from 70%, marked (every marked row) takes 35% longer.

Each run of a commit starts from one of the real runs of its build (in turn),
scaled by a machine factor (lognormal: a drift shared by the commit's runs,
whose spread changes every 100 commits between 1% and 4%, times 2% per run)
and then drawn again with the sampling noise of its interval: a time T at
interval dt becomes T + sqrt(T*dt)*z. So rows near the floor fall in and out
of records as they do on real commits.
"""
import datetime, json, math, os, random, sys

START = datetime.datetime(2024, 1, 1)

def main():
    args = sys.argv[1:]
    seed, runs = 1, 5
    while args and args[0].startswith("--"):
        flag, val = args[0], args[1]
        args = args[2:]
        if flag == "--seed": seed = int(val)
        elif flag == "--runs": runs = int(val)
        else: sys.exit(f"unknown flag {flag}")
    if len(args) != 4: sys.exit(__doc__)
    before, after = (json.load(open(p)) for p in args[:2])
    out, n = args[2], int(args[3])
    os.makedirs(out, exist_ok=True)
    rng = random.Random(seed)
    router_at, marked_at = int(0.3 * n), int(0.7 * n)
    truth = {"commits": n, "changes": [
        {"commit": name(router_at), "what": "router (path-to-regexp) from the before build to the after build"},
        {"commit": name(marked_at), "what": "marked 35% slower", "package": "marked"}]}
    json.dump(truth, open(os.path.join(out, "..", os.path.basename(out) + "-truth.json"), "w"), indent=1)
    sigma = 0.02
    for c in range(n):
        if c % 100 == 0:
            sigma = rng.uniform(0.01, 0.04)
        src = before if c < router_at else after
        slower = 1.35 if c >= marked_at else 1.0
        drift = math.exp(rng.gauss(0, sigma))
        rec = {"profdiff_history": 3, "commit": name(c),
               "date": (START + datetime.timedelta(hours=c)).strftime("%Y-%m-%dT%H:%M:%SZ"),
               "branch": "main", "message": f"commit {c}", "format": src["format"], "work_unit": src.get("work_unit", ""),
               "top": 1000}
        srcruns = src["runs"]
        picks = [(c + r) % len(srcruns) for r in range(runs)]
        factors = [drift * math.exp(rng.gauss(0, 0.02)) for _ in range(runs)]
        rows = []
        extra = [0.0] * runs  # on-CPU added by the marked slowdown
        for row in src["rows"]:
            if row["name"] == "(other)":
                continue
            k = slower if (row["kind"] == "package" and row["name"] == "marked") or row.get("package") == "marked" else 1.0
            self_, total = [], []
            for r, (p, f) in enumerate(zip(picks, factors)):
                iv = srcruns[p]["interval_us"]
                z = rng.gauss(0, 1)
                s = row["self_us"][p] * f * k
                t = row["total_us"][p] * f * k if row.get("total_us") else s
                s2 = max(0, round(s + math.sqrt(s * iv) * z))
                t2 = max(s2, round(t + math.sqrt(t * iv) * z))
                self_.append(s2); total.append(t2)
                if row["kind"] == "package":
                    extra[r] += row["self_us"][p] * f * (k - 1)
            out_row = {kk: row[kk] for kk in ("kind", "name", "package", "file", "line") if kk in row}
            out_row["self_us"], out_row["total_us"] = self_, total
            rows.append(out_row)
        rec_runs, floor = [], []
        for r, (p, f) in enumerate(zip(picks, factors)):
            s = srcruns[p]
            on = round(s["on_cpu_us"] * f + extra[r])
            run = {"file": f"r{r+1}.cpuprofile", "wall_us": round(s["wall_us"] * f), "on_cpu_us": on, "gc_us": round(s["gc_us"] * f),
                   "sampled_us": round(s.get("sampled_us", s["wall_us"]) * f), "samples": round(on / s["interval_us"]), "interval_us": s["interval_us"]}
            if s.get("process_cpu_us"):
                run["process_cpu_us"] = round(s["process_cpu_us"] * f + extra[r])
            rec_runs.append(run)
            floor.append(math.ceil(max(0.001 * on, 10 * s["interval_us"] / runs)))
        rec["floor"] = {"share": 0.001, "samples": 10, "us": floor}
        fsum = sum(floor)
        kept = []
        for kind in ("package", "function", "file"):
            of = [x for x in rows if x["kind"] == kind]
            of.sort(key=lambda x: (-sum(x["total_us"]), x["kind"], x.get("package", ""), x["name"], x.get("file", "")))
            other = [0] * runs
            cut = False
            for x in of:
                if sum(x["total_us"]) >= fsum:
                    kept.append(x)
                else:
                    cut = True
                    other = [a + b for a, b in zip(other, x["self_us"])]
            if cut:
                kept.append({"kind": kind, "name": "(other)", "self_us": other})
        rec["runs"], rec["rows"] = rec_runs, kept
        write(os.path.join(out, rec["date"].replace("-", "").replace(":", "")[:15] + "Z-" + rec["commit"] + ".json"), rec)

def name(c):
    return "c%06x" % (0x5a0000 + c)

def write(path, rec):
    lines = ["{"]
    for k in ("profdiff_history", "commit", "date", "branch", "message", "format", "work_unit", "top", "floor"):
        lines.append(json.dumps(k) + ": " + json.dumps(rec[k], separators=(",", ":"), ensure_ascii=False) + ",")
    for key, last in (("runs", False), ("rows", True)):
        items = [json.dumps(x, separators=(",", ":"), ensure_ascii=False) for x in rec[key]]
        lines.append(json.dumps(key) + ": [\n" + ",\n".join(items) + "\n]" + ("" if last else ","))
    lines.append("}")
    open(path, "w").write("\n".join(lines) + "\n")

main()
