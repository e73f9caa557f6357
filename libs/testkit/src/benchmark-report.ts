import fs from 'node:fs';
import path from 'node:path';

const BENCHMARKS_FILE = path.resolve(__dirname, '..', '..', '..', 'docs', 'benchmarks.md');

/** Replaces (or appends) the section `## <title>` of docs/benchmarks.md with fresh figures. */
export function writeBenchmarkSection(title: string, body: string): void {
  const current = fs.existsSync(BENCHMARKS_FILE) ? fs.readFileSync(BENCHMARKS_FILE, 'utf8') : '# Benchmarks\n';
  const heading = `## ${title}`;
  const section = `${heading}\n\n${body.trim()}\n`;
  const start = current.indexOf(`${heading}\n`);
  if (start === -1) {
    fs.writeFileSync(BENCHMARKS_FILE, `${current.trimEnd()}\n\n${section}`);
    return;
  }
  const next = current.indexOf('\n## ', start + heading.length);
  // A blank line before the next heading, as the file is written by hand.
  fs.writeFileSync(BENCHMARKS_FILE, current.slice(0, start) + section + (next === -1 ? '' : `\n${current.slice(next + 1)}`));
}

export function runDate(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The body of the section `## <title>` of docs/benchmarks.md, or undefined when there is none. */
export function readBenchmarkSection(title: string): string | undefined {
  if (!fs.existsSync(BENCHMARKS_FILE)) return undefined;
  const current = fs.readFileSync(BENCHMARKS_FILE, 'utf8');
  const heading = `## ${title}\n`;
  const start = current.indexOf(heading);
  if (start === -1) return undefined;
  const next = current.indexOf('\n## ', start + heading.length);
  return current.slice(start + heading.length, next === -1 ? undefined : next).trim();
}
