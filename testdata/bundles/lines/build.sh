#!/bin/sh
# A bundle built without --minify: each of its lines maps to one line of
# src/, so profdiff maps V8's per-line ticks to the original lines.
cd "$(dirname "$0")" && npx esbuild src/main.js --bundle --platform=node --format=esm --sourcemap --outfile=dist/app.js &&
	node --cpu-prof --cpu-prof-interval 500 --cpu-prof-dir=prof dist/app.js && mv prof/*.cpuprofile lines.cpuprofile && rmdir prof
