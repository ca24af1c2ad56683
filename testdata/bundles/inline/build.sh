#!/bin/sh
# Rebuilds dist/app.min.js (esbuild, inline source map) and inline.cpuprofile.
set -eu
cd "$(dirname "$0")"
npm ci
rm -rf dist prof
npx esbuild src/main.js --bundle --minify --platform=node --sourcemap=inline --outfile=dist/app.min.js
node --cpu-prof --cpu-prof-interval=500 --cpu-prof-dir=prof dist/app.min.js
mv prof/*.cpuprofile inline.cpuprofile
rmdir prof
