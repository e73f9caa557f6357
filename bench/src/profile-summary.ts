/**
 * Where a CPU profile's time went: `node bench/dist/profile-summary.js <file.cpuprofile> [top]`
 * prints self time by function and by package (node_modules package, node internals, or the
 * repository's own code), so a profile can be read without DevTools.
 */
import fs from 'node:fs';

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

function main(): void {
  const [file, topArgument] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [top]');
  const top = Number(topArgument ?? 25);
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, index) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const total = profile.endTime - profile.startTime;
  const idle = [...selfMicros].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((sum, [, micros]) => sum + micros, 0);
  const add = (map: Map<string, number>, key: string, micros: number) => map.set(key, (map.get(key) ?? 0) + micros);
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)') continue;
    add(byFunction, `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/\/work\/[^/]+\//, '')}:${frame.lineNumber + 1}`, micros);
    add(byPackage, packageOf(frame.url), micros);
  }
  const busy = total - idle;
  const ms = (micros: number) => (micros / 1000).toFixed(0);
  const print = (title: string, map: Map<string, number>) => {
    process.stdout.write(`\n${title}\n`);
    for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${ms(micros).padStart(8)} ms ${((100 * micros) / busy).toFixed(1).padStart(5)} %  ${key}\n`);
  };
  process.stdout.write(`${file}: ${ms(total)} ms profiled, ${ms(busy)} ms busy\n`);
  print('self time by package', byPackage);
  print('self time by function', byFunction);
}

main();
