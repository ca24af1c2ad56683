// Records an @datadog/pprof wall-time profile of a script run in this
// process and writes it as a gzipped pprof protobuf.
// usage: node record.cjs SCRIPT OUT.pb.gz LINENUMBERS(0|1)
// lineNumbers=1: the time profiler's line-number mode (wall time only:
// the library refuses line numbers with contexts, which CPU time needs).
const fs = require('node:fs');
const path = require('node:path');
const pprof = require('@datadog/pprof');

const [script, out, lines = '1'] = process.argv.slice(2);
pprof.time.start({ intervalMicros: 1000, durationMillis: 600000, lineNumbers: lines === '1' });
let stopped = false;
process.on('beforeExit', async () => {
  if (stopped) return;
  stopped = true;
  const buf = await pprof.encode(pprof.time.stop());
  fs.writeFileSync(out, buf);
  process.stderr.write(`wrote ${out} (${buf.length} bytes)\n`);
});
require(path.resolve(script));
