// Records small DevTools Performance-panel style traces (Tracing domain with the
// disabled-by-default-v8.cpu_profiler category -> Profile / ProfileChunk events)
// of the pages in ./pages, in headless Debian chromium, served from 127.0.0.1 only.
//   multi-thread.json  : main thread + dedicated worker, both busy, one renderer
//   multi-process.json : 127.0.0.1 top frame + cross-site localhost iframe (OOPIF,
//                        second renderer process), both busy
// usage: node record.mjs [outdir=..] [multi-thread|multi-process|all]
// needs: playwright-core (npm install playwright-core in this dir or a parent), /usr/bin/chromium
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.resolve(process.argv[2] || path.join(here, '..'));
const which = process.argv[3] || 'all';
fs.mkdirSync(outdir, { recursive: true });
const root = path.join(here, 'pages');
const types = { '.html': 'text/html', '.js': 'text/javascript' };

const server = http.createServer((req, res) => {
  const p = path.join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname));
  if (!p.startsWith(root) || !fs.existsSync(p) || fs.statSync(p).isDirectory()) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'Content-Type': types[path.extname(p)] || 'application/octet-stream', 'Cache-Control': 'no-store' });
  fs.createReadStream(p).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;
const base = `http://127.0.0.1:${port}/`;

// Chromium 156's headless mode preloads the WebUI omnibox popup
// (chrome://omnibox-popup.top-chrome) in a "WebUI Top Renderer" process; with tracing
// on, that process contributed ~1 s of lit/composebox JS samples plus ~2 MB of
// resource/compile events. Disable those features. A second --disable-features
// replaces Playwright's own (last switch wins), so Playwright's list is repeated here
// (copied from the trace metadata command_line of playwright-core 1.65.1).
const PLAYWRIGHT_DISABLED = 'AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,' +
  'HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,ThirdPartyStoragePartitioning,' +
  'AvoidCorsURLLoaderRestartOnRedirect,TcpPortRandomizationWin,OptimizationHints,NetworkTimeServiceQuerying,' +
  'AimEnabled,PreconnectToSearch,msForceBrowserSignIn,msEdgeUpdateLaunchServicesPreferredVersion';
const EXTRA_DISABLED = 'PreloadTopChromeWebUI,WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup';
const launch = () => chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--site-per-process',
    `--disable-features=${PLAYWRIGHT_DISABLED},${EXTRA_DISABLED}`],
});

// The corpus chrome-trace list (Performance panel categories minus screenshots,
// 'loading', 'latencyInfo') further minus 'disabled-by-default-devtools.timeline.frame'
// (compositor frame pipeline events) and 'v8' (compile/parse detail), to keep the
// files small. No '...cpu_profiler.hires', so V8's default trace sampling interval.
const CATEGORIES = [
  '-*', 'devtools.timeline', 'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.stack', 'v8.execute', 'disabled-by-default-v8.cpu_profiler',
  'blink.user_timing', 'blink.console', '__metadata',
];

async function record(name, url) {
  const browser = await launch();
  const page = await browser.newPage();
  await page.goto('about:blank');
  const file = path.join(outdir, name);
  // page-target Tracing (what the Performance panel does); it still covers the
  // page's OOPIF renderer processes and workers.
  await browser.startTracing(page, { path: file, categories: [...CATEGORIES] });
  await page.goto(url);
  await page.waitForFunction(() => window.__done, null, { timeout: 60000, polling: 250 });
  const done = await page.evaluate(() => window.__done);
  await page.waitForTimeout(200);
  await browser.stopTracing();
  console.log(JSON.stringify({ trace: name, browser: browser.version(), url, ...done }));
  await browser.close();
}

if (which === 'all' || which === 'multi-thread')
  await record('multi-thread.json', base + 'multi-thread.html?ms=1200&wms=800');
if (which === 'all' || which === 'multi-process')
  await record('multi-process.json', base + `multi-process.html?ms=900&fms=1200&other=${encodeURIComponent(`http://localhost:${port}`)}`);
server.close();
