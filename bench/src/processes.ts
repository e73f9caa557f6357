import fs from 'node:fs';

// Measuring processes: memory and CPU time of the stack's processes from /proc during a run.

/** Processes a run watches, by name; a name without a pid (not running) is skipped. */
export type ProcessPids = Record<string, number | undefined>;

interface ProcessStatus {
  rssKb: number;
  /** Peak resident set since the process started or since its peak was last reset. */
  hwmKb: number;
  /** User and system CPU time of all its threads, in clock ticks. */
  cpuTicks: number;
}

/** Linux reports CPU time in ticks of 1/100 s (USER_HZ; `getconf CLK_TCK`). */
const TICK_MS = 10;

/** The fields of /proc/<pid>/stat after the command, which may hold spaces and parentheses. */
function statFields(pid: number | string): string[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Memory (VmRSS, VmHWM) and CPU time of a process from /proc, or undefined when it is gone. */
export function readProcess(pid: number): ProcessStatus | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    // utime and stime are fields 14 and 15 of stat, 12th and 13th after the command.
    const stat = statFields(pid);
    return { rssKb: field('VmRSS'), hwmKb: field('VmHWM'), cpuTicks: Number(stat[11]) + Number(stat[12]) };
  } catch {
    return undefined;
  }
}

/** Starts the peak (VmHWM) of a process of ours afresh, so it covers one run only. */
function resetPeak(pid: number): void {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not ours or not Linux: the peak then counts from the process start.
  }
}

const mb = (kb: number) => Math.round(kb / 1024);

export interface MemorySample {
  /** Milliseconds since the watch started. */
  atMs: number;
  rssMb: Record<string, number>;
}

export interface WatchedFigures {
  /** Peak RSS per process during the run, MB. */
  peakRssMb: Record<string, number>;
  /** CPU time per process during the run, ms. */
  cpuMs: Record<string, number>;
}

/**
 * Each process during a run: its peak resident memory (VmHWM, reset when the watch starts, so
 * it covers the run and not the boot; processes that appear later count from their start), a
 * VmRSS sample every `intervalMs`, and the CPU time it used (all threads).
 */
export class ProcessWatch {
  readonly samples: MemorySample[] = [];
  private readonly peaksKb = new Map<string, number>();
  private readonly cpu = new Map<string, { pid: number; firstTicks: number; lastTicks: number; earlierTicks: number }>();
  private timer?: NodeJS.Timeout;
  private startedAt = 0;

  constructor(
    private readonly processes: () => ProcessPids,
    private readonly intervalMs = 500,
  ) {}

  start(): this {
    for (const pid of Object.values(this.processes())) if (pid) resetPeak(pid);
    this.startedAt = Date.now();
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    return this;
  }

  stop(): WatchedFigures {
    clearInterval(this.timer);
    this.sample();
    return {
      peakRssMb: Object.fromEntries([...this.peaksKb].map(([name, kb]) => [name, mb(kb)])),
      cpuMs: Object.fromEntries([...this.cpu].map(([name, seen]) => [name, (seen.earlierTicks + seen.lastTicks - seen.firstTicks) * TICK_MS])),
    };
  }

  private sample(): void {
    const rssMb: Record<string, number> = {};
    for (const [name, pid] of Object.entries(this.processes())) {
      const status = pid ? readProcess(pid) : undefined;
      if (!pid || !status) continue;
      rssMb[name] = mb(status.rssKb);
      this.peaksKb.set(name, Math.max(this.peaksKb.get(name) ?? 0, status.hwmKb, status.rssKb));
      // CPU time counts from the first sample of a process; a restart (new pid) starts a new count.
      const seen = this.cpu.get(name);
      if (!seen) this.cpu.set(name, { pid, firstTicks: status.cpuTicks, lastTicks: status.cpuTicks, earlierTicks: 0 });
      else if (seen.pid !== pid)
        this.cpu.set(name, {
          pid,
          firstTicks: status.cpuTicks,
          lastTicks: status.cpuTicks,
          earlierTicks: seen.earlierTicks + seen.lastTicks - seen.firstTicks,
        });
      else seen.lastTicks = status.cpuTicks;
    }
    this.samples.push({ atMs: Date.now() - this.startedAt, rssMb });
  }
}

/**
 * The stack's processes of a run started by another program (the jest webhook benchmark): the
 * root process as `bench` and each descendant started from `<name>/dist/start.js` under its name.
 */
export function processTree(rootPid: number, names: readonly string[]): ProcessPids {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parents.set(Number(entry), Number(statFields(entry)[1]));
    } catch {
      // exited meanwhile
    }
  }
  const descends = (pid: number): boolean => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) if (at === rootPid) return true;
    return false;
  };
  const found: ProcessPids = { bench: rootPid };
  for (const pid of parents.keys()) {
    if (!descends(pid)) continue;
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const name = names.find((candidate) => argv.some((arg) => arg.endsWith(`/${candidate}/dist/start.js`)));
    if (name) found[name] = pid;
  }
  return found;
}

/** The CPU the serving processes (every one but `bench`, the load generator) spent per request. */
export function cpuPerRequest(cpuMs: Record<string, number>, requests: number): number | undefined {
  if (requests === 0) return undefined;
  const serving = Object.entries(cpuMs)
    .filter(([name]) => name !== 'bench')
    .reduce((sum, [, ms]) => sum + ms, 0);
  return Math.round((10 * serving) / requests) / 10;
}
