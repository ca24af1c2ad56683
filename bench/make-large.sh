#!/usr/bin/env bash
# Makes large REAL profiles for profdiff's performance benchmarks, on demand.
# Nothing it makes is meant to be committed: everything goes to OUT_DIR.
#
#   bench/make-large.sh [--force] [OUT_DIR]     (default ${TMPDIR:-/tmp}/profdiff-large)
#
# It makes, with stable names:
#   tsc-large.cpuprofile      300-450 MB V8 profile: `node --cpu-prof` of
#                             TypeScript 5.9.3's tsc type-checking all of
#                             effect 4.1.0's sources (572 .ts files, ~520k lines)
#   bundled-large.cpuprofile  V8 profile of a minified esbuild bundle (~8 MB) of
#   bundled-large/bundle.min.mjs(.map)   typescript + prettier + babel + terser,
#                             with a ~25 MB linked source map (sourcesContent
#                             kept); the bundle type-checks rxjs 7.8.2's sources,
#                             then formats/transpiles/downlevels/minifies each file
#   go-large.pprof            Go CPU profile (pprof, 1.3-1.6 MB) of go/parser +
#                             go/types checking the Go standard library and cmd
#                             (~920 packages) from source, round after round
# plus *.log files with each program's own output, and work/ (npm packages,
# the Go driver; reused by later runs, delete it freely).
#
# A step whose output exists is skipped unless --force is given.
#
# Needs: bash, node >= 20.19 with npm, go >= 1.22, network access to the npm
# registry (about 80 MB of packages, installed into OUT_DIR/work), ~1.5 GB
# of disk and ~8 GB of free RAM (tsc with the profiler peaked at 5.3-7 GB RSS).
#
# Time on a 2-core, 24 GiB machine (Node 20.20, Go 1.26): about 7-8 minutes in
# all: npm install ~25 s, tsc ~2-2.5 min, bundle build+run ~30 s, Go ~4 min.
#
# Settings can be overridden from the environment:
#   TSC_INTERVAL (µs, default 25), BUNDLE_INTERVAL (µs, default 50),
#   GO_HZ (default 250), GO_DURATION (default 240s: each worker starts new
#   rounds over std+cmd until then; a round takes ~10-15 s here).
# Notes on the choices (measured here):
#   * .cpuprofile size follows the number of call-tree nodes, which grows with
#     the samples V8 really takes. On this 2-vCPU VM that is far below the asked
#     rate and varies between runs: all of effect/src gave 282 MB at 100 µs,
#     319 MB at 50 µs, 143 MB at 40 µs (146k samples, 0.6M nodes) and 347, 380
#     and 438 MB at 25 µs (up to 473k samples, 1.8M nodes). Hence the retry in
#     make_tsc. effect/src/Effect.ts alone at 200 µs gives ~60 MB.
#   * Go's CPU profiler is driven by per-thread CPU-time timers, which the
#     kernel fires at most once per tick (HZ=250 here, in a VM). Asking for
#     1000 Hz gave about as many samples per second as 250 Hz (~400/s on 2
#     cores) but then counts each as 1 ms: the total is undercounted (~45% of
#     the real CPU time against ~80% at 250 Hz). pprof aggregates identical
#     stacks and is gzipped, so the file grows by ~7 KB per second of running
#     here, less as rounds repeat: tens of MB would take hours. (The go/importer
#     "source" importer was tried first: mostly file-system syscalls and GC.)
#   * go/types reports a few thousand errors per round (most in low-level
#     packages such as internal/abi, on unsafe.Pointer conversions, which the gc
#     compiler accepts); they are counted in go-large.log and checking goes on.
set -euo pipefail

TSC_INTERVAL=${TSC_INTERVAL:-25}
BUNDLE_INTERVAL=${BUNDLE_INTERVAL:-50}
GO_HZ=${GO_HZ:-250}
GO_DURATION=${GO_DURATION:-240s}

force=0
out=""
for arg in "$@"; do
  case "$arg" in
    --force) force=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "make-large.sh: unknown option $arg" >&2; exit 2 ;;
    *) [ -z "$out" ] || { echo "make-large.sh: one OUT_DIR only" >&2; exit 2; }; out=$arg ;;
  esac
done
out=$(realpath -m "${out:-${TMPDIR:-/tmp}/profdiff-large}")
repo=$(cd "$(dirname "$0")/.." && pwd -P)
case "$out/" in
  "$repo"/*) echo "make-large.sh: $out is inside the repository; use a directory outside it" >&2; exit 2 ;;
esac
mkdir -p "$out"
work=$out/work
mkdir -p "$work"

for tool in node npm go; do
  command -v "$tool" >/dev/null || { echo "make-large.sh: $tool not found" >&2; exit 1; }
done

summary=()
note() { summary+=("$1"); }
# wanted NAME: true if the step making NAME has to run.
wanted() {
  if [ "$force" = 0 ] && [ -e "$out/$1" ]; then
    echo "== $1 exists, skipped (use --force to remake it)"
    return 1
  fi
  return 0
}
# check_size FILE MIN_MB MAX_MB: warn when a file is outside its range.
check_size() {
  local mb=$(( $(stat -c %s "$1") / 1000000 ))
  if [ "$mb" -lt "$2" ] || [ "$mb" -gt "$3" ]; then
    echo "WARNING: $(basename "$1") is $mb MB, outside the intended $2-$3 MB" >&2
    note "WARNING: $(basename "$1") is $mb MB, outside $2-$3 MB"
  fi
}
# run_tolerating_type_errors LOG CMD...: runs CMD with its output in LOG.
# tsc exits 2 when the checked sources have type errors (effect's do, under
# these settings); the profile is still complete. Any other failure stops the
# script.
run_tolerating_type_errors() {
  local log=$1; shift
  local rc=0
  "$@" > "$log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then
    echo "make-large.sh: '$*' failed with status $rc; last lines of $log:" >&2
    tail -n 20 "$log" | cut -c1-300 >&2
    exit 1
  fi
  [ "$rc" -eq 0 ] || echo "(exit status $rc: type errors in the checked sources, expected)" >> "$log"
}
elapsed() { echo "$(( $(date +%s) - $1 )) s"; }

# ---------------------------------------------------------------- npm packages
# One npm project for both Node steps; exact versions of the direct dependencies.
node_pkgs() {
  local pkg=$work/node/package.json
  mkdir -p "$work/node"
  cat > "$pkg.new" <<'EOF'
{
  "name": "profdiff-large-inputs",
  "version": "1.0.0",
  "private": true,
  "description": "Packages for bench/make-large.sh (profdiff); not part of profdiff",
  "license": "MIT",
  "dependencies": {
    "typescript": "5.9.3",
    "effect": "4.1.0",
    "rxjs": "7.8.2",
    "esbuild": "0.28.2",
    "prettier": "3.10.1",
    "terser": "5.51.2",
    "@babel/core": "8.1.2",
    "@babel/preset-env": "8.0.7"
  }
}
EOF
  if [ -d "$work/node/node_modules" ] && cmp -s "$pkg.new" "$pkg"; then
    rm "$pkg.new"
    return
  fi
  mv "$pkg.new" "$pkg"
  local t=$(date +%s)
  echo "== npm install into $work/node"
  (cd "$work/node" && npm install --no-audit --no-fund --loglevel=error)
  note "npm install: $(elapsed "$t")"
}

# ------------------------------------------------- 1. tsc-large.cpuprofile
make_tsc() {
  wanted tsc-large.cpuprofile || return 0
  node_pkgs
  local d=$work/node
  cat > "$d/tsconfig.effect-all.json" <<'EOF'
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "exactOptionalPropertyTypes": true,
    "noEmit": true,
    "allowImportingTsExtensions": true,
    "rewriteRelativeImportExtensions": false,
    "skipLibCheck": true,
    "lib": ["ES2023", "DOM", "DOM.Iterable"],
    "types": []
  },
  "include": ["node_modules/effect/src/**/*.ts"],
  "exclude": []
}
EOF
  # The sampling rate V8 really reaches varies from run to run here (the same
  # setting gave 143-438 MB), so a run that lands outside 300-450 MB is redone
  # with a finer or coarser interval, at most twice.
  local interval=$TSC_INTERVAL attempt mb t=$(date +%s)
  for attempt in 1 2 3; do
    echo "== tsc-large.cpuprofile: tsc on all of effect/src, --cpu-prof-interval=$interval" \
      "(about 2-2.5 min, node $(node --version))"
    rm -f "$out/tsc-large.cpuprofile.part"
    (cd "$d" && run_tolerating_type_errors "$out/tsc-large.log" \
      node --cpu-prof --cpu-prof-dir="$out" --cpu-prof-name=tsc-large.cpuprofile.part \
        --cpu-prof-interval="$interval" node_modules/typescript/lib/tsc.js -p tsconfig.effect-all.json)
    mb=$(( $(stat -c %s "$out/tsc-large.cpuprofile.part") / 1000000 ))
    note "tsc-large attempt $attempt: interval $interval µs, $mb MB"
    if [ "$attempt" -lt 3 ] && [ "$mb" -lt 300 ]; then
      interval=$(( interval * 2 / 3 > 5 ? interval * 2 / 3 : 5 ))
    elif [ "$attempt" -lt 3 ] && [ "$mb" -gt 450 ]; then
      interval=$(( interval * 3 / 2 ))
    else
      break
    fi
    echo "   $mb MB is outside 300-450 MB; again with --cpu-prof-interval=$interval"
  done
  mv "$out/tsc-large.cpuprofile.part" "$out/tsc-large.cpuprofile"
  note "tsc-large: $(elapsed "$t") in all"
  check_size "$out/tsc-large.cpuprofile" 300 450
}

# --------------------------------- 2. bundled-large.cpuprofile + bundled-large/
make_bundled() {
  wanted bundled-large.cpuprofile || return 0
  node_pkgs
  local d=$work/node
  cat > "$d/driver.mjs" <<'EOF'
// Real work for bundled-large.cpuprofile (bench/make-large.sh): type-check
// rxjs's TypeScript sources with the TypeScript compiler API, then send every
// file through prettier (format), typescript (transpile), babel (preset-env),
// terser (minify) and prettier again.
//   node bundle.min.mjs RXJS_SRC_DIR TYPESCRIPT_LIB_DIR [ROUNDS]
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import * as prettier from 'prettier/standalone';
import * as prettierEstree from 'prettier/plugins/estree';
import * as prettierTs from 'prettier/plugins/typescript';
import * as prettierBabel from 'prettier/plugins/babel';
import * as babel from '@babel/core';
import presetEnv from '@babel/preset-env';
import { minify } from 'terser';

const [srcDir, libDir, rounds = '1'] = process.argv.slice(2);
const files = fs.readdirSync(srcDir, { recursive: true })
  .filter((f) => f.endsWith('.ts')).map((f) => path.join(srcDir, f)).sort();

const options = {
  target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler, strict: false,
  noEmit: true, skipLibCheck: true, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [],
};
const host = ts.createCompilerHost(options);
host.getDefaultLibLocation = () => libDir; // the .d.ts libs are not in the bundle
host.getDefaultLibFileName = (o) => path.join(libDir, ts.getDefaultLibFileName(o));

let t = Date.now();
const program = ts.createProgram(files, options, host);
const diagnostics = ts.getPreEmitDiagnostics(program);
console.log(`type-check: ${files.length} files, ${diagnostics.length} diagnostics, ${Date.now() - t} ms`);

let bytes = 0;
for (let r = 0; r < Number(rounds); r++) {
  t = Date.now();
  for (const file of files) {
    const source = fs.readFileSync(file, 'utf8');
    const pretty = await prettier.format(source, { parser: 'typescript', plugins: [prettierEstree, prettierTs] });
    const js = ts.transpileModule(pretty, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText;
    const down = await babel.transformAsync(js, {
      babelrc: false, configFile: false, sourceType: 'module', filename: file.replace(/\.ts$/, '.js'),
      presets: [[presetEnv, {
        targets: { chrome: '49', firefox: '45', safari: '10' }, ignoreBrowserslistConfig: true, modules: false,
      }]],
    });
    const min = await minify(down.code, { module: true, compress: { passes: 2 }, mangle: true });
    const again = await prettier.format(min.code, { parser: 'babel', plugins: [prettierEstree, prettierBabel] });
    bytes += again.length;
  }
  console.log(`round ${r + 1}: format+transpile+babel+terser+format of ${files.length} files, ${Date.now() - t} ms`);
}
console.log(`output: ${bytes} bytes`);
EOF
  local b=$out/bundled-large
  local t=$(date +%s)
  echo "== bundled-large: esbuild bundle of typescript+prettier+babel+terser, then profile it"
  rm -rf "$b" && mkdir -p "$b"
  # ESM output (Babel 8 is ESM only); the banner gives the CommonJS parts of
  # the bundle the require/__filename/__dirname they expect.
  "$d/node_modules/.bin/esbuild" "$d/driver.mjs" --bundle --minify --platform=node --target=node20 \
    --format=esm --sourcemap=linked --outfile="$b/bundle.min.mjs" --log-level=warning \
    --banner:js="import { createRequire as __cr } from 'node:module'; import { fileURLToPath as __fu } from 'node:url'; const require = __cr(import.meta.url), __filename = __fu(import.meta.url), __dirname = __fu(new URL('.', import.meta.url));"
  tail -c 200 "$b/bundle.min.mjs" | grep -q '//# sourceMappingURL=bundle.min.mjs.map' || {
    echo "make-large.sh: bundle.min.mjs does not end with its sourceMappingURL comment" >&2; exit 1; }
  rm -f "$out/bundled-large.cpuprofile.part"
  run_tolerating_type_errors "$out/bundled-large.log" \
    node --cpu-prof --cpu-prof-dir="$out" --cpu-prof-name=bundled-large.cpuprofile.part \
      --cpu-prof-interval="$BUNDLE_INTERVAL" "$b/bundle.min.mjs" \
      "$d/node_modules/rxjs/src" "$d/node_modules/typescript/lib" 1
  mv "$out/bundled-large.cpuprofile.part" "$out/bundled-large.cpuprofile"
  note "bundled-large: $(elapsed "$t") (interval $BUNDLE_INTERVAL µs)"
  check_size "$b/bundle.min.mjs.map" 15 200
}

# ------------------------------------------------------------ 3. go-large.pprof
make_go() {
  wanted go-large.pprof || return 0
  local d=$work/go
  mkdir -p "$d"
  cat > "$d/go.mod" <<'EOF'
module profdiff.local/typecheckstd

go 1.22
EOF
  cat > "$d/main.go" <<'EOF'
// Command typecheckstd parses and type-checks the Go standard library and cmd
// (go/parser, go/types) in one worker per CPU, under a CPU profile. It asks
// `go list -deps -json std cmd` for the packages in dependency order, reads
// their files into memory once, then repeats whole rounds until -duration has
// passed. Each package's work carries the pprof label pkg=<import path>.
// Made by profdiff's bench/make-large.sh.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"
)

type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	ImportMap  map[string]string
	src        [][]byte
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func main() {
	out := flag.String("o", "go-large.pprof", "CPU profile to write")
	hz := flag.Int("hz", 100, "CPU profile sampling rate")
	duration := flag.Duration("duration", 0, "start new rounds until this much time has passed")
	workers := flag.Int("workers", runtime.GOMAXPROCS(0), "concurrent workers")
	flag.Parse()

	// CGO_ENABLED=0: the pure Go file set, which go/types checks without cgo.
	golist := exec.Command("go", "list", "-deps", "-json=ImportPath,Dir,GoFiles,ImportMap", "std", "cmd")
	golist.Env = append(os.Environ(), "CGO_ENABLED=0")
	list, err := golist.Output()
	if err != nil {
		log.Fatal(err)
	}
	var pkgs []*pkg
	for dec := json.NewDecoder(bytes.NewReader(list)); ; {
		p := new(pkg)
		if err := dec.Decode(p); err == io.EOF {
			break
		} else if err != nil {
			log.Fatal(err)
		}
		for _, name := range p.GoFiles {
			b, err := os.ReadFile(filepath.Join(p.Dir, name))
			if err != nil {
				log.Fatal(err)
			}
			p.src = append(p.src, b)
		}
		pkgs = append(pkgs, p)
	}

	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	// Setting the rate before StartCPUProfile makes it stick; StartCPUProfile's
	// own request for 100 Hz is then refused with a one-line notice on stderr.
	if *hz != 100 {
		runtime.SetCPUProfileRate(*hz)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err)
	}
	start := time.Now()
	var checked, typeErrors, rounds atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < *workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r == 0 || time.Since(start) < *duration; r++ {
				checkAll(pkgs, &checked, &typeErrors)
				rounds.Add(1)
			}
		}()
	}
	wg.Wait()
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d rounds: type-checked %d packages (%d type errors) in %v, %d workers, profile at %d Hz\n",
		rounds.Load(), checked.Load(), typeErrors.Load(), time.Since(start).Round(time.Millisecond), *workers, *hz)
}

// checkAll parses and type-checks every package once, in dependency order.
func checkAll(pkgs []*pkg, checked, typeErrors *atomic.Int64) {
	fset := token.NewFileSet()
	done := map[string]*types.Package{"unsafe": types.Unsafe}
	for _, p := range pkgs {
		if p.ImportPath == "unsafe" {
			continue
		}
		pprof.Do(context.Background(), pprof.Labels("pkg", p.ImportPath), func(context.Context) {
			var files []*ast.File
			for i, name := range p.GoFiles {
				file, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), p.src[i], parser.ParseComments|parser.SkipObjectResolution)
				if err != nil {
					typeErrors.Add(1)
					continue
				}
				files = append(files, file)
			}
			conf := types.Config{
				Importer: importerFunc(func(path string) (*types.Package, error) {
					if m, ok := p.ImportMap[path]; ok {
						path = m
					}
					if tp := done[path]; tp != nil {
						return tp, nil
					}
					return nil, fmt.Errorf("%s not checked yet", path)
				}),
				FakeImportC: true,
				Sizes:       types.SizesFor("gc", runtime.GOARCH),
				Error: func(err error) {
					if typeErrors.Add(1) <= 8 && os.Getenv("TC_DEBUG") != "" {
						log.Print(err)
					}
				},
			}
			info := &types.Info{
				Types:      map[ast.Expr]types.TypeAndValue{},
				Defs:       map[*ast.Ident]types.Object{},
				Uses:       map[*ast.Ident]types.Object{},
				Selections: map[*ast.SelectorExpr]*types.Selection{},
			}
			tp, _ := conf.Check(p.ImportPath, fset, files, info)
			done[p.ImportPath] = tp
			checked.Add(1)
		})
	}
}
EOF
  local t=$(date +%s)
  echo "== go-large.pprof: go/types over std and cmd for ${GO_DURATION}, $GO_HZ Hz ($(go version))"
  (cd "$d" && GOFLAGS= go build -o typecheckstd .)
  rm -f "$out/go-large.pprof.part"
  { go version; "$d/typecheckstd" -o "$out/go-large.pprof.part" -hz "$GO_HZ" -duration "$GO_DURATION"; } \
    > "$out/go-large.log" 2>&1 || { tail -n 20 "$out/go-large.log" >&2; exit 1; }
  mv "$out/go-large.pprof.part" "$out/go-large.pprof"
  note "go-large: $(elapsed "$t") ($GO_HZ Hz, $GO_DURATION)"
}

start=$(date +%s)
make_tsc
make_bundled
make_go

echo
echo "Made in $out ($(elapsed "$start") in all):"
for f in tsc-large.cpuprofile bundled-large.cpuprofile bundled-large/bundle.min.mjs \
         bundled-large/bundle.min.mjs.map go-large.pprof; do
  if [ -e "$out/$f" ]; then
    size=$(stat -c %s "$out/$f")
    printf '  %-36s %8s MB  (%d bytes)\n' "$f" "$(awk -v b="$size" 'BEGIN { printf "%.1f", b / 1e6 }')" "$size"
  fi
done
for line in "${summary[@]+"${summary[@]}"}"; do echo "  $line"; done
