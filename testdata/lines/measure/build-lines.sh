#!/usr/bin/env bash
# As build.sh, the "before" variant only, and without --minify: one bundle
# line per original line, so V8's per-line ticks map to the original lines.
#   build/before/src/            unbundled sources
#   build/before/dist/app.js     esbuild bundle, not minified, linked map app.js.map
set -euo pipefail
cd "$(dirname "$0")"
rm -rf build
v=before
mkdir -p build/$v/src
cp src/*.js src/package.json build/$v/src/
./node_modules/.bin/esbuild build/$v/src/main.js --bundle --platform=node --target=node20 --format=cjs --log-level=warning \
  --sourcemap=linked --outfile=build/$v/dist/app.js
ls -l build/$v/dist/
