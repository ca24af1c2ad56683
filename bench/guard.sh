#!/usr/bin/env bash
# Fails when a stage of profdiff's pipeline (read, aggregate, compare,
# render) got more than 15% slower than bench/stages/baseline.txt says,
# measured as a ratio to a fixed reference workload timed beside it in the
# same process, so that machines of different speeds compare (see TestGuard
# in bench/stages/guard_test.go for how it keeps the noise out). Takes about
# 40 s on 2 cores, 75 s when a stage is over the limit and is timed again.
#
#   bash bench/guard.sh            check against the baseline
#   bash bench/guard.sh -update    measure bench/stages/baseline.txt anew
#                                  (about 75 s; on the 2-core CI machine)
#
# PROFDIFF_STAGES_SLOW=Aggregate/plain=1.3 makes a stage take 1.3x the CPU
# time (comma-separate several), to see the guard fail;
# PROFDIFF_GUARD_DEBUG=1 prints every round's ratios.
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
GODEBUG=${GODEBUG:+$GODEBUG,}madvdontneed=0 PROFDIFF_GUARD=$mode go test ./bench/stages -run '^TestGuard$' -count 1 -v -timeout 10m | grep -v -e '^=== RUN' -e '^--- PASS' -e '^PASS$'
