#!/usr/bin/env bash
# Builds profdiff and the action's helper from the action's own source (or
# profdiff at INPUT_VERSION through the Go module proxy) into $RUNNER_TEMP,
# and writes their paths to $GITHUB_OUTPUT. Inputs come only from the
# environment.
set -euo pipefail
bin="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/profdiff-bin"
mkdir -p "$bin"
cd "$GITHUB_ACTION_PATH"
if [ -n "${INPUT_VERSION:-}" ]; then
  if ! [[ "$INPUT_VERSION" =~ ^v[0-9A-Za-z.+-]+$|^latest$ ]]; then
    echo "::error title=profdiff::version '$INPUT_VERSION': give a module version such as v1.2.0" >&2
    exit 2
  fi
  GOBIN="$bin" GOFLAGS=-mod=mod go install "github.com/profdiff/profdiff/cmd/profdiff@$INPUT_VERSION"
else
  stamp=()
  # A checkout (uses: ./) stamps its revision itself; a downloaded action
  # has no .git, so name the ref it was used at.
  if [ ! -e .git ] && [[ "${ACTION_REF:-}" =~ ^[0-9A-Za-z._/+-]+$ ]]; then
    stamp=(-ldflags "-X main.buildVersion=${GITHUB_ACTION_REPOSITORY:-profdiff}@$ACTION_REF")
  fi
  go build -buildvcs=auto "${stamp[@]}" -o "$bin/profdiff" ./cmd/profdiff
fi
go build -buildvcs=auto -o "$bin/profdiff-action" ./cmd/profdiff-action
{
  echo "profdiff=$bin/profdiff"
  echo "action=$bin/profdiff-action"
} >> "$GITHUB_OUTPUT"
"$bin/profdiff" --version
