import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Lines are buffered in the process: these tests run a real process (the built logger, as the
// services load it) with standard output in a file, as the stack and a container runtime keep it.

const builtLogger = path.join(__dirname, '..', 'dist', 'index.js');

interface LoggingProcess {
  child: ChildProcess;
  output: string;
  exited: Promise<number | null>;
}

function runLogging(script: string): LoggingProcess {
  const output = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'logger-test-')), 'stdout.log');
  const file = fs.openSync(output, 'a');
  const child = spawn(process.execPath, ['-e', `const { createLogger } = require(${JSON.stringify(builtLogger)});\n${script}`], {
    stdio: ['ignore', file, 'pipe'],
  });
  fs.closeSync(file);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output, exited };
}

function messagesIn(output: string): string[] {
  return fs
    .readFileSync(output, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
}

async function waitForMessages(output: string, count: number, timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = messagesIn(output);
    if (messages.length >= count || Date.now() > deadline) return messages;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the buffered standard output of the loggers', () => {
  it('when a quiet process logs a line, then the line reaches the output while the process keeps running', async () => {
    const running = runLogging("createLogger('quiet').info('one line'); setTimeout(() => {}, 30_000);");
    try {
      expect(await waitForMessages(running.output, 1, 10_000)).toEqual(['one line']);
      expect(running.child.exitCode).toBeNull();
    } finally {
      running.child.kill('SIGKILL');
      await running.exited;
    }
  });

  it('when two loggers of a process log and the process exits at once, then every line is written in the order logged', async () => {
    const running = runLogging(
      "const a = createLogger('a'); const b = createLogger('b'); for (let i = 0; i < 3; i++) { a.info(`a${i}`); b.info(`b${i}`); } process.exit(0);",
    );
    expect(await running.exited).toBe(0);
    expect(messagesIn(running.output)).toEqual(['a0', 'b0', 'a1', 'b1', 'a2', 'b2']);
  });

  it('when a process crashes with an uncaught exception, then the lines logged before it are written', async () => {
    const running = runLogging("createLogger('crashing').error('about to fail'); setImmediate(() => { throw new Error('boom'); });");
    expect(await running.exited).toBe(1);
    expect(messagesIn(running.output)).toEqual(['about to fail']);
  });

  it('when a process logs more than a buffer holds, then every line is written once, in order', async () => {
    const running = runLogging("const log = createLogger('busy'); for (let i = 0; i < 2000; i++) log.info(`line ${i}`); process.exit(0);");
    expect(await running.exited).toBe(0);
    expect(messagesIn(running.output)).toEqual(Array.from({ length: 2000 }, (_, i) => `line ${i}`));
  });
});
