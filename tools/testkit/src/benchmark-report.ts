import fs from 'node:fs';
import path from 'node:path';

const BENCHMARKS_FILE = path.resolve(__dirname, '..', '..', '..', 'docs', 'benchmarks.md');

function readBenchmarks(): string | undefined {
  return fs.existsSync(BENCHMARKS_FILE) ? fs.readFileSync(BENCHMARKS_FILE, 'utf8') : undefined;
}

/** Where the section `## <title>` starts, where its body starts, and where the next section starts (or -1). */
function findSection(text: string, title: string): { start: number; bodyStart: number; next: number } | undefined {
  const heading = `## ${title}\n`;
  const start = text.indexOf(heading);
  if (start === -1) return undefined;
  const bodyStart = start + heading.length;
  return { start, bodyStart, next: text.indexOf('\n## ', bodyStart) };
}

/** Replaces (or appends) the section `## <title>` of docs/benchmarks.md with fresh figures. */
export function writeBenchmarkSection(title: string, body: string): void {
  const current = readBenchmarks() ?? '# Benchmarks\n';
  const section = `## ${title}\n\n${body.trim()}\n`;
  const found = findSection(current, title);
  if (!found) {
    fs.writeFileSync(BENCHMARKS_FILE, `${current.trimEnd()}\n\n${section}`);
    return;
  }
  // A blank line before the next heading, as the file is written by hand.
  fs.writeFileSync(BENCHMARKS_FILE, current.slice(0, found.start) + section + (found.next === -1 ? '' : `\n${current.slice(found.next + 1)}`));
}

export function runDate(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The body of the section `## <title>` of docs/benchmarks.md, or undefined when there is none. */
export function readBenchmarkSection(title: string): string | undefined {
  const current = readBenchmarks();
  const found = current === undefined ? undefined : findSection(current, title);
  if (!current || !found) return undefined;
  return current.slice(found.bodyStart, found.next === -1 ? undefined : found.next).trim();
}

/** The p-th percentile of samples sorted ascending (the sample at that rank, no interpolation). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
