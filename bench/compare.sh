#!/usr/bin/env bash
# Times profdiff against the tools people would use instead, on the same
# files in the same run: Node's JSON.parse of a .cpuprofile (the floor of
# any JavaScript tool: cpupro, speedscope and DevTools all start with it),
# go tool pprof -top of a pprof, and dd of the file (reading it from the page
# cache, the floor of anything). Prints each time, peak RSS and the ratios;
# then a comparison of a file with itself (two sides read in parallel)
# against reading it once, and the cost of symbolication.
#
#   bench/compare.sh               the corpus's large inputs, and those of
#                                  bench/make-large.sh when they exist
#   bench/compare.sh FILE...       any .cpuprofile, trace or pprof files
#
# Times are the best of 3 runs (of 1 for files over 200 MB).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=../shared/corpus
large=${PROFDIFF_LARGE:-${TMPDIR:-/tmp}/profdiff-large}
bin=$(mktemp -d)/profdiff
go build -o "$bin" ./cmd/profdiff
tf=$(mktemp)
trap 'rm -f "$tf"' EXIT

runs=3
best() { # best wall time of $runs runs of a command, in seconds
  local b=999
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e" -o "$tf" "$@" >/dev/null 2>&1 || true
    b=$(python3 -c "print(min($b, $(tail -1 "$tf")))")
  done
  echo "$b"
}
rss() { # peak RSS of one run, in MB
  /usr/bin/time -f "%M" -o "$tf" "$@" >/dev/null 2>&1 || true
  python3 -c "print(round($(tail -1 "$tf") / 1024))"
}
ratio() { python3 -c "print(f'{$1 / max($2, 0.001):.2f}')"; }

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  for f in "$corpus/large/tsc-effect-unbundled.cpuprofile" "$corpus/large/tsc-rxjs-bundled.cpuprofile" \
    "$corpus/go-pprof/before-r1.pprof" "$large/tsc-large.cpuprofile" "$large/bundled-large.cpuprofile" \
    "$large/go-large.pprof"; do
    [ -f "$f" ] && files+=("$f")
  done
  if [ ${#files[@]} -eq 0 ]; then
    echo "bench/compare.sh: no input: it times the corpus's large profiles ($corpus/large, beside this repository as ../shared) and those bench/make-large.sh writes to $large; give files as arguments otherwise" >&2
    exit 2
  fi
fi

for f in "${files[@]}"; do
  "$bin" --format json "$f" >/dev/null 2>&1 || true # warm the page cache
  size=$(stat -c %s "$f")
  runs=3
  [ "$size" -gt $((200 << 20)) ] && runs=1
  t_dd=$(best dd if="$f" of=/dev/null bs=1M)
  t_pd=$(best "$bin" --format json "$f")
  m_pd=$(rss "$bin" --format json "$f")
  mib=$(python3 -c "print(f'{$size / 1048576:.1f}')")
  line="$(basename "$f") ($mib MiB): profdiff ${t_pd}s, ${m_pd} MB peak RSS ($(ratio "$m_pd" "$mib")x the size); dd ${t_dd}s"
  case "$f" in
    *.pprof | *.pb.gz | *.prof)
      t_pp=$(best go tool pprof -top "$f")
      line="$line; go tool pprof -top ${t_pp}s: profdiff/pprof = $(ratio "$t_pd" "$t_pp")" ;;
    *)
      t_node=$(node -e "const s=require('fs').readFileSync(process.argv[1],'utf8');const t=process.hrtime.bigint();JSON.parse(s);console.log(Number(process.hrtime.bigint()-t)/1e9)" "$f" 2>/dev/null || echo 0)
      if [ "$t_node" = 0 ]; then
        line="$line; Node JSON.parse failed (out of memory or string too long)"
      else
        line="$line; Node JSON.parse alone ${t_node}s: profdiff/JSON.parse = $(ratio "$t_pd" "$t_node")"
      fi ;;
  esac
  echo "$line; profdiff/dd = $(ratio "$t_pd" "$t_dd")"
  t_two=$(best "$bin" --format json "$f" "$f")
  m_two=$(rss "$bin" --format json "$f" "$f")
  echo "  the file compared with itself: ${t_two}s, ${m_two} MB peak RSS: $(ratio "$t_two" "$t_pd")x one"
done

# Symbolication: the same profile with and without its bundle's map.
sym() {
  local prof=$1 dir=$2
  [ -f "$prof" ] && [ -d "$dir" ] || return 0
  local t0 t1 map
  t0=$(best "$bin" --format json --no-sourcemaps "$prof")
  t1=$(best "$bin" --format json --sourcemaps "$dir" "$prof")
  map=$(find "$dir" -name '*.map' -printf '%s\n' | sort -n | tail -1)
  echo "$(basename "$prof") with its map ($((map >> 20)) MiB): ${t1}s, without ${t0}s: symbolication adds $(python3 -c "print(f'{$t1 - $t0:.2f}')")s"
}
runs=3
sym "$corpus/large/tsc-rxjs-bundled.cpuprofile" "$corpus/large/bundle-tsc"
sym "$large/bundled-large.cpuprofile" "$large/bundled-large"
