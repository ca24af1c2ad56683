#!/bin/sh
cd "$(dirname "$0")" && npx rollup -c rollup.config.mjs
