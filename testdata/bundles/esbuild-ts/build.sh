#!/bin/sh
cd "$(dirname "$0")" && npx esbuild src/micro.ts --bundle --minify --keep-names=false --platform=node --format=esm --sourcemap --outfile=dist/bundle.js
