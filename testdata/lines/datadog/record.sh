#!/usr/bin/env bash
# Records lines.pb.gz (@datadog/pprof's line-number mode) and func.pb.gz
# (its default, function-level mode) of app.js, one run each:
#   npm install --no-save @datadog/pprof@5.20.0 && bash record.sh
set -euo pipefail
cd "$(dirname "$0")"
node record.cjs app.js lines.pb.gz 1
node record.cjs app.js func.pb.gz 0
