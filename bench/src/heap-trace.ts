/**
 * A memory trace to preload into the stack's processes, to tell a leak from V8's heap sawtooth:
 * `BENCH_NODE_OPTIONS="--require <repo>/bench/dist/heap-trace.js"` and HEAP_TRACE_DIR=<dir>.
 * Every 2 s it appends process.memoryUsage() in MB to `<dir>/<process>-<pid>.jsonl`; a leak
 * shows as a rising floor of heapUsed (its lows, after collections), not as RSS that swings.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const directory = process.env.HEAP_TRACE_DIR ?? os.tmpdir();
const name = path.basename(path.dirname(path.dirname(process.argv[1] ?? 'node')));
const file = path.join(directory, `${name}-${process.pid}.jsonl`);
const startedAt = Date.now();
fs.mkdirSync(directory, { recursive: true });
setInterval(() => {
  const usage = process.memoryUsage();
  const mb = (bytes: number) => Math.round(bytes / 1048576);
  const line = {
    s: Math.round((Date.now() - startedAt) / 1000),
    rss: mb(usage.rss),
    heapTotal: mb(usage.heapTotal),
    heapUsed: mb(usage.heapUsed),
    external: mb(usage.external),
  };
  fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
}, 2000).unref();
