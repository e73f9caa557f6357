import fs from 'node:fs';
import path from 'node:path';

/** One JSON log line of a stack process (pino: `level`, `time`, `msg` and the entry's fields). */
export type LogLine = Record<string, unknown> & { msg?: string };

/** Every JSON line a process of a stack has written so far to `<logDirectory>/<process>.log`. */
export function logLines(logDirectory: string, processName: string): LogLine[] {
  const file = path.join(logDirectory, `${processName}.log`);
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      if (!line.startsWith('{')) return [];
      try {
        return [JSON.parse(line) as LogLine];
      } catch {
        return [];
      }
    });
}
