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
    return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').some((variable) => variable.startsWith('NODE_OPTIONS=') && variable.includes('cpu-profile'));
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
  const numbered = fs.readdirSync(directory!).map((file) => ({ file, n: Number(pattern.exec(file)?.[1] ?? -1) }))
    .filter((entry) => entry.n >= 0)
    .sort((a, b) => b.n - a.n);
  return numbered[0]?.file;
}

const slug = (label: string) => label.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80);

async function cut(pids: [string, number][]): Promise<void> {
  for (const [, pid] of pids) {
    try {
      process.kill(pid, 'SIGUSR2');
    } catch {
      // Gone: nothing to cut.
    }
  }
  // The profiler writes synchronously on the signal; give the processes a moment to handle it.
  await new Promise((resolve) => setTimeout(resolve, 300));
}

/** Runs `run` between two cuts of every stack process's profile and files the cut under the row's label. */
export async function profileRow<T>(label: string, pids: ProcessPids, run: () => Promise<T>): Promise<T> {
  if (!profiled) return run();
  const stackPids = profiledPids(pids);
  await cut(stackPids);
  try {
    return await run();
  } finally {
    await cut(stackPids);
    const rowDirectory = path.join(directory!, 'rows', slug(label));
    fs.mkdirSync(rowDirectory, { recursive: true });
    for (const [name, pid] of stackPids) {
      const file = newestProfileOf(pid);
      if (file) fs.renameSync(path.join(directory!, file), path.join(rowDirectory, `${name.replace(/\s+/g, '-')}.cpuprofile`));
    }
  }
}
