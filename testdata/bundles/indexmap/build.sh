#!/bin/sh
# Rebuilds dist/app.js + dist/app.js.map (index map) and indexmap.cpuprofile.
set -eu
cd "$(dirname "$0")"
npm ci
rm -rf dist prof
node build.mjs
node --cpu-prof --cpu-prof-interval=500 --cpu-prof-dir=prof dist/app.js
mv prof/*.cpuprofile indexmap.cpuprofile
rmdir prof
