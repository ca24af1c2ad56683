#!/usr/bin/env bash
# N interleaved runs of the same workload, unbundled (src/main.js) and as the
# non-minified bundle (dist/app.js), node --cpu-prof at 250 µs.
set -euo pipefail
cd "$(dirname "$0")"
N=${N:-4}
out=$(pwd)/profiles; rm -rf "$out"; mkdir -p "$out/unbundled" "$out/bundled"
for r in $(seq 1 "$N"); do
  (cd build/before/src && node --cpu-prof --cpu-prof-dir="$out/unbundled" --cpu-prof-name=r$r.cpuprofile --cpu-prof-interval=250 main.js) > "$out/unbundled/r$r.log"
  (cd build/before/dist && node --cpu-prof --cpu-prof-dir="$out/bundled" --cpu-prof-name=r$r.cpuprofile --cpu-prof-interval=250 app.js) > "$out/bundled/r$r.log"
done
ls -l "$out"/*
