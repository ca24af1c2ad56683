#!/usr/bin/env bash
# Makes the calibration bench's repeated runs of one build, outside git:
#   OUT/node: RUNS + RUNS interleaved runs of the router workload's
#             bundled "before" build (the shared corpus's bundle, source map
#             beside it), recorded by profdiff record;
#   OUT/go:   RUNS + RUNS runs of the corpus's Go benchmark ("before"),
#             one compiled test binary, recorded by profdiff record.
# Both sides of each recording are the same build in the same folder, so
# every run is a replicate of every other (record.json keeps each run's
# process CPU time). Usage: bench/calibrate/gen.sh [OUT] (default
# /tmp/profdiff-calibrate); RUNS=10 by default. Takes about 5 minutes on
# the project's 2-core machine; run nothing else meanwhile.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CORPUS=${CORPUS:-$ROOT/../shared/corpus}
OUT=${1:-/tmp/profdiff-calibrate}
RUNS=${RUNS:-10}
# INTERVAL: node's sampling interval (record --interval; default node's
# 1ms). BENCHTIME: the Go benchmark's -test.benchtime (default 60x). Go's
# profiler samples at 100 Hz whatever is asked, so more Go samples take
# longer runs.
INTERVAL=${INTERVAL:-}
BENCHTIME=${BENCHTIME:-60x}
WHICH=${WHICH:-node go}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
(cd "$ROOT" && go build -o "$OUT/profdiff" ./cmd/profdiff)

# Node: the corpus's before bundle, run where it is copied to.
if [[ " $WHICH " == *" node "* ]]; then
rm -rf "$OUT/node" "$OUT/node-app"
mkdir -p "$OUT/node-app"
cp "$CORPUS/node-router-ab/bundle-before/app.min.js" "$CORPUS/node-router-ab/bundle-before/app.min.js.map" "$OUT/node-app/"
chmod u+w "$OUT/node-app"/*
(cd "$OUT/node-app" && "$OUT/profdiff" record --runs "$RUNS" --warmup 1 --out "$OUT/node" ${INTERVAL:+--interval "$INTERVAL"} \
   --cmd "node app.min.js" --before-dir . --after-dir . --format json -o "$OUT/node.json") > "$OUT/node.log" 2>&1 || [ $? = 1 ]
fi

# Go: the corpus's benchmark, before version, compiled once.
if [[ " $WHICH " == *" go "* ]]; then
rm -rf "$OUT/go" "$OUT/go-app"
mkdir -p "$OUT/go-app"
cp "$CORPUS/gen/go-bench/src/"* "$OUT/go-app/"
chmod u+w "$OUT/go-app"/*
(cd "$OUT/go-app" && go test -c -o bench.test .)
(cd "$OUT/go-app" && "$OUT/profdiff" record --runs "$RUNS" --warmup 1 --out "$OUT/go" \
   --cmd "./bench.test -test.run ^\$ -test.bench BenchmarkServe\$ -test.benchtime=$BENCHTIME -test.count=1 -test.cpuprofile {profile}" \
   --before-dir . --after-dir . --format json -o "$OUT/go.json") > "$OUT/go.log" 2>&1 || [ $? = 1 ]
fi
for w in $WHICH; do ls "$OUT/$w/before" "$OUT/$w/after" | grep -c . >/dev/null; done
echo "runs in $OUT: $WHICH"
