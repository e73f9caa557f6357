/**
 * Where a CPU profile's time went: `node bench/dist/profile-summary.js <file.cpuprofile> [top]`
 * prints self time by function and by package (node_modules package, node internals, or the
 * repository's own code), so a profile can be read without DevTools. Given the `rows` directory
 * of a profiled benchmark run (CPU_PROFILE_DIR/rows, see row-profiles.ts) it prints one table per
 * row: each process's busy time with its top packages and functions.
 */
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

function packageOf(url: string): string {
  if (!url) return '(native: GC, system calls, program)';
  // node:internal/http2/core → node: http2 (gRPC's transport), node:internal/modules/… → node: modules (loading code).
  if (url.startsWith('node:')) return `node: ${url.replace(/^node:(internal\/)?/, '').split('/')[0]}`;
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  const own = /\/work\/[^/]+\/(.+?)\/dist\//.exec(url) ?? /\/(gateway|services\/[^/]+|libs\/[^/]+|proto|tools\/[^/]+)\//.exec(url);
  return own ? `repo: ${own[1]}` : url;
}

/** The inspector session's own native work (writing and restarting the profile at a cut) is not the process's. */
function isProfilerItself(frame: ProfileNode['callFrame']): boolean {
  return frame.functionName === 'dispatch' && frame.url === '';
}

interface Costs {
  totalMs: number;
  busyMs: number;
  byFunction: [string, number][];
  byPackage: [string, number][];
  /** Native and Node-internal time charged to the nearest package up the stack that asked for it (a socket write to pg's connection is pg's). */
  byCaller: [string, number][];
}

const LOADING_CODE = '(loading code at start-up)';

/** Node internals and native frames do work for someone else; packages and the repository's code are the ones who asked. */
const isCaller = (url: string) => url !== '' && !url.startsWith('node:');

/** Self time of a profile by function and by package, largest first, in microseconds. */
function costsOf(file: string): Costs {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, index) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const total = profile.endTime - profile.startTime;
  const idle = [...selfMicros]
    .filter(([id]) => {
      const frame = byId.get(id)?.callFrame;
      return frame && (frame.functionName === '(idle)' || isProfilerItself(frame));
    })
    .reduce((sum, [, micros]) => sum + micros, 0);
  const add = (map: Map<string, number>, key: string, micros: number) => map.set(key, (map.get(key) ?? 0) + micros);
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  const byCaller = new Map<string, number>();
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const callerOf = (id: number): string => {
    let caller: string | undefined;
    for (let current: number | undefined = id; current !== undefined; current = parentOf.get(current)) {
      const frame = byId.get(current)?.callFrame;
      // A whole-life profile holds the start: compiling and loading modules is its own cost, whoever required them.
      if (frame?.url.startsWith('node:internal/modules/')) return LOADING_CODE;
      if (caller === undefined && frame && isCaller(frame.url)) caller = packageOf(frame.url);
    }
    return caller ?? packageOf(byId.get(id)?.callFrame.url ?? '');
  };
  for (const [id, micros] of selfMicros) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)' || isProfilerItself(frame)) continue;
    add(
      byFunction,
      `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/\/work\/[^/]+\//, '')}:${frame.lineNumber + 1}`,
      micros,
    );
    add(byPackage, packageOf(frame.url), micros);
    add(byCaller, callerOf(id), micros);
  }
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return { totalMs: total / 1000, busyMs: (total - idle) / 1000, byFunction: sorted(byFunction), byPackage: sorted(byPackage), byCaller: sorted(byCaller) };
}

const percentOf = (micros: number, costs: Costs) => `${((micros / 1000 / costs.busyMs) * 100).toFixed(1)} %`;

function printOne(file: string, top: number): void {
  const costs = costsOf(file);
  const print = (title: string, entries: [string, number][]) => {
    process.stdout.write(`\n${title}\n`);
    for (const [key, micros] of entries.slice(0, top))
      process.stdout.write(`${(micros / 1000).toFixed(0).padStart(8)} ms ${percentOf(micros, costs).padStart(7)}  ${key}\n`);
  };
  process.stdout.write(`${file}: ${costs.totalMs.toFixed(0)} ms profiled, ${costs.busyMs.toFixed(0)} ms busy\n`);
  print('self time by package', costs.byPackage);
  print('by the package that asked (native and Node work charged to its caller)', costs.byCaller);
  print('self time by function', costs.byFunction);
}

/** A directory of per-row cuts (bench/src/row-profiles.ts): per row, each process's busy time and its top packages and functions. */
function printRows(directory: string, top: number): void {
  for (const row of fs.readdirSync(directory).sort()) {
    process.stdout.write(
      `\n## ${row}\n\n| process | busy ms | top costs (by the package that asked) | top functions (self time) |\n| --- | ---: | --- | --- |\n`,
    );
    const files = fs.readdirSync(path.join(directory, row)).filter((file) => file.endsWith('.cpuprofile'));
    const costs = files
      .map((file) => ({ name: file.replace('.cpuprofile', ''), costs: costsOf(path.join(directory, row, file)) }))
      .sort((a, b) => b.costs.busyMs - a.costs.busyMs);
    for (const { name, costs: own } of costs) {
      const list = (entries: [string, number][]) =>
        entries
          .slice(0, top)
          .map(([key, micros]) => `${key} ${percentOf(micros, own)}`)
          .join('; ');
      process.stdout.write(`| ${name} | ${own.busyMs.toFixed(0)} | ${list(own.byCaller)} | ${list(own.byFunction)} |\n`);
    }
  }
}

function main(): void {
  const [target, topArgument] = process.argv.slice(2);
  if (!target) throw new Error('usage: profile-summary <file.cpuprofile | rows directory> [top]');
  if (fs.statSync(target).isDirectory()) printRows(target, Number(topArgument ?? 3));
  else printOne(target, Number(topArgument ?? 25));
}

main();
