/**
 * A CPU profiler to preload into the stack's processes (Node refuses --cpu-prof in
 * NODE_OPTIONS): `BENCH_NODE_OPTIONS="--require <repo>/bench/dist/cpu-profile.js"` and
 * CPU_PROFILE_DIR=<dir>. It samples from the start; each SIGUSR2 writes the profile so far as
 * `<dir>/<process>-<pid>-<n>.cpuprofile` and starts the next one, so `kill -USR2` before and after
 * a load leaves that load's profile on its own; the last one is written when the process exits.
 * Read one with `node bench/dist/profile-summary.js <file>` or Chrome DevTools.
 */
import fs from 'node:fs';
import inspector from 'node:inspector';
import os from 'node:os';
import path from 'node:path';

const directory = process.env.CPU_PROFILE_DIR ?? os.tmpdir();
// The process name is the package folder of its entry: services/<name>/dist/start.js, gateway/dist/start.js.
const name = path.basename(path.dirname(path.dirname(process.argv[1] ?? 'node')));
const session = new inspector.Session();
let written = 0;

function start(): void {
  session.post('Profiler.start');
}

/** The in-process session answers synchronously, so this also works while the process exits. */
function write(): void {
  session.post('Profiler.stop', (error, result) => {
    if (error) return;
    written += 1;
    fs.mkdirSync(directory, { recursive: true });
    fs.writeFileSync(path.join(directory, `${name}-${process.pid}-${written}.cpuprofile`), JSON.stringify(result.profile));
  });
}

session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 500 });
start();
process.on('SIGUSR2', () => {
  write();
  start();
});
process.on('exit', write);
