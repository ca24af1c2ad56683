#!/usr/bin/env bash
# Times profdiff against the tools people would use instead, on the same
# files in the same run: Node's JSON.parse of a .cpuprofile (the floor of
# any JavaScript tool), go tool pprof -top of a pprof, and dd of the file
# (reading it from the page cache). Prints each time and the ratios.
#
#   bench/compare.sh FILE...      (each a .cpuprofile or a pprof)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/profdiff
go build -o "$bin" ./cmd/profdiff
tf=$(mktemp)
best() { # best wall time of 3 runs of a command, in seconds
  local b=999
  for _ in 1 2 3; do
    /usr/bin/time -f "%e" -o "$tf" "$@" >/dev/null 2>&1 || true
    b=$(python3 -c "print(min($b, $(tail -1 "$tf")))")
  done
  echo "$b"
}
for f in "$@"; do
  "$bin" --format json "$f" >/dev/null   # warm the page cache
  size=$(stat -c %s "$f")
  t_dd=$(best dd if="$f" of=/dev/null bs=1M)
  t_pd=$(best "$bin" --format json "$f")
  /usr/bin/time -f "%M" -o "$tf" "$bin" --format json "$f" >/dev/null
  rss=$(tail -1 "$tf")
  line="$(basename "$f") ($((size >> 20)) MiB): profdiff ${t_pd}s, ${rss} KB peak RSS; dd ${t_dd}s"
  case "$f" in
    *.cpuprofile|*.json)
      t_node=$(node -e "const s=require('fs').readFileSync(process.argv[1],'utf8');const t=process.hrtime.bigint();JSON.parse(s);console.log(Number(process.hrtime.bigint()-t)/1e9)" "$f")
      line="$line; Node JSON.parse alone ${t_node}s: profdiff/JSON.parse = $(python3 -c "print(round($t_pd/$t_node, 2))")" ;;
    *)
      t_pp=$(best go tool pprof -top "$f")
      line="$line; go tool pprof -top ${t_pp}s: profdiff/pprof = $(python3 -c "print(round($t_pd/$t_pp, 2))")" ;;
  esac
  echo "$line; profdiff/dd = $(python3 -c "print(round($t_pd/max($t_dd, 0.001), 1))")"
done
