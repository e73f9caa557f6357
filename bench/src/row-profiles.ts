import fs from 'node:fs';
import path from 'node:path';
import type { ProcessPids } from './processes';

// Per-row CPU profiles: with the profiler preloaded into the stack (and the gateway benchmark's own gateway) (BENCH_NODE_OPTIONS="--require
// <repo>/bench/dist/cpu-profile.js", CPU_PROFILE_DIR=<dir>), every measured row cuts the profile
// of each stack process to that row and keeps it as <dir>/rows/<row>/<process>.cpuprofile, so a
// path's costs are read without the boot and the other rows in them.

const directory = process.env.CPU_PROFILE_DIR;
const profiled = Boolean(directory && process.env.BENCH_NODE_OPTIONS?.includes('cpu-profile'));

/** Only processes started with the profiler preloaded are signalled: SIGUSR2 ends any other Node process. */
function carriesProfiler(pid: number): boolean {
  try {
    return fs
      .readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .some((variable) => variable.startsWith('NODE_OPTIONS=') && variable.includes('cpu-profile'));
  } catch {
    return false;
  }
}

function profiledPids(pids: ProcessPids): [string, number][] {
  return Object.entries(pids).filter((entry): entry is [string, number] => entry[1] !== undefined && entry[1] !== process.pid && carriesProfiler(entry[1]));
}

/** The profiler names its files <entry package>-<pid>-<n>.cpuprofile. */
function newestProfileOf(pid: number): string | undefined {
  const pattern = new RegExp(`^[\\w.-]+-${pid}-(\\d+)\\.cpuprofile$`);
  const numbered = fs
    .readdirSync(directory!)
    .map((file) => ({ file, n: Number(pattern.exec(file)?.[1] ?? -1) }))
    .filter((entry) => entry.n >= 0)
    .sort((a, b) => b.n - a.n);
  return numbered[0]?.file;
}

const slug = (label: string) =>
  label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);

/**
 * Signals every process to write its profile so far and start the next, and waits until each
 * has written it (a busy process handles the signal late); the files written, by process.
 */
async function cut(pids: [string, number][]): Promise<Map<string, string>> {
  const before = new Map(pids.map(([name, pid]) => [name, newestProfileOf(pid)]));
  for (const [, pid] of pids) {
    try {
      process.kill(pid, 'SIGUSR2');
    } catch {
      // Gone: nothing to cut.
    }
  }
  const written = new Map<string, string>();
  const deadline = Date.now() + 15_000;
  while (written.size < pids.length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const [name, pid] of pids) {
      const newest = newestProfileOf(pid);
      if (newest && newest !== before.get(name)) written.set(name, newest);
    }
  }
  // Let the last writes finish before the files are moved or removed.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return written;
}

/** Runs `run` between two cuts of every stack process's profile and files the cut under the row's label. */
export async function profileRow<T>(label: string, pids: ProcessPids, run: () => Promise<T>): Promise<T> {
  if (!profiled) return run();
  const stackPids = profiledPids(pids);
  // The profiler makes the directory when it first writes, which may not have happened yet.
  fs.mkdirSync(directory!, { recursive: true });
  // What ran before the row (boot, earlier rows) is not the row's.
  for (const file of (await cut(stackPids)).values()) fs.rmSync(path.join(directory!, file), { force: true });
  try {
    return await run();
  } finally {
    const rowDirectory = path.join(directory!, 'rows', slug(label));
    fs.mkdirSync(rowDirectory, { recursive: true });
    for (const [name, file] of await cut(stackPids))
      fs.renameSync(path.join(directory!, file), path.join(rowDirectory, `${name.replace(/\s+/g, '-')}.cpuprofile`));
  }
}
