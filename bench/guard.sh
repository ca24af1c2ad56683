#!/usr/bin/env bash
# Fails when a stage of profdiff's pipeline (read, aggregate, compare,
# render) got more than 15% slower than the code of the commit that
# bench/stages/baseline.txt names: that commit's test binary is built and
# timed beside this code's, alternately, each stage as a ratio to a fixed
# reference workload timed beside it in the same process (see TestGuard in
# bench/stages/guard_test.go for how it keeps the noise out). A checkout
# without that commit (a shallow clone, which cannot fetch it) prints its
# ratios beside baseline.txt's but judges nothing: those hold only on a
# machine like the one they were measured on. Takes about 3 min on 2 cores, 6 min when a stage is over
# the limit and is timed again; nothing when the code is the base's.
#
#   bash bench/guard.sh            check against the base commit
#   bash bench/guard.sh -update    make HEAD the base commit and measure
#                                  its ratios (about 100 s; commit first)
#
# PROFDIFF_STAGES_SLOW=Aggregate/plain=1.3 makes a stage of this code (not
# the base's) take 1.3x the CPU time (comma-separate several), to see the
# guard fail; PROFDIFF_GUARD_DEBUG=1 prints every round's ratios.
# GODEBUG=madvdontneed=0: memory the Go runtime gives back to the kernel is
# then reclaimed only under memory pressure, instead of being faulted in
# again and zeroed at random moments, which made single runs 3x slower.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=check
case "${1:-}" in
  "") ;;
  -update|--update) mode=update ;;
  *) echo "usage: bash bench/guard.sh [-update]" >&2; exit 2 ;;
esac
export GODEBUG=${GODEBUG:+$GODEBUG,}madvdontneed=0
guard() {
  PROFDIFF_GUARD=$1 go test ./bench/stages -run '^TestGuard$' -count 1 -v -timeout 20m | grep -v -e '^=== RUN' -e '^--- PASS' -e '^PASS$'
}
if [ "$mode" = update ]; then
  if ! git diff --quiet HEAD -- . ':!bench/stages/baseline.txt' || [ -n "$(git ls-files --others --exclude-standard -- '*.go')" ]; then
    echo "guard -update: commit the code first: the baseline names the commit it measured" >&2
    exit 2
  fi
  PROFDIFF_GUARD_COMMIT=$(git rev-parse HEAD) guard update
  exit
fi
base=$(awk '$1 == "commit" { print $2 }' bench/stages/baseline.txt)
if [ -n "$base" ] && ! git cat-file -e "$base^{commit}" 2>/dev/null; then
  # A shallow clone: ask its remote for the base commit alone.
  GIT_TERMINAL_PROMPT=0 timeout 60 git fetch -q --depth 1 origin "$base" 2>/dev/null || echo "guard: this checkout has no commit $base, and could not fetch it"
fi
if [ -n "$base" ] && git cat-file -e "$base^{commit}" 2>/dev/null; then
  if git diff --quiet "$base" -- . ':!bench/stages/baseline.txt' && [ -z "$(git ls-files --others --exclude-standard -- '*.go')" ]; then
    echo "guard: this code is the base commit's ($base): nothing to compare"
    exit 0
  fi
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir "$tmp/src"
  git archive "$base" | tar -x -C "$tmp/src"
  (cd "$tmp/src" && go test -c -o "$tmp/base.test" ./bench/stages)
  PROFDIFF_GUARD_BASE="$tmp/base.test" guard check
else
  guard check
fi
