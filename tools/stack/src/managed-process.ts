import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';

export interface ManagedProcessOptions {
  name: string;
  entry: string;
  env: NodeJS.ProcessEnv;
  logFile: string;
  readyUrl: string;
  /** Start again when the process dies on its own (the local stack); tests control it instead. */
  restartOnCrash: boolean;
  onCrash?: (name: string, code: number | null, signal: NodeJS.Signals | null) => void;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One service process of the stack: started, stopped, killed and restarted by name. */
export class ManagedProcess {
  private child?: ChildProcess;
  private expectingExit = false;

  constructor(readonly options: ManagedProcessOptions) {}

  get name(): string {
    return this.options.name;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  isRunning(): boolean {
    return Boolean(this.child && this.child.exitCode === null && this.child.signalCode === null);
  }

  start(): void {
    if (this.isRunning()) return;
    const log = fs.openSync(this.options.logFile, 'a');
    this.expectingExit = false;
    const child = spawn(process.execPath, ['--enable-source-maps', this.options.entry], {
      env: this.options.env,
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    this.child = child;
    child.on('exit', (code, signal) => {
      if (this.expectingExit || this.child !== child) return;
      this.options.onCrash?.(this.name, code, signal);
      if (this.options.restartOnCrash) setTimeout(() => this.start(), 1000);
    });
  }

  async waitReady(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.isRunning()) throw new Error(`${this.name} exited during start; see ${this.options.logFile}`);
      try {
        const response = await fetch(this.options.readyUrl, { signal: AbortSignal.timeout(1000) });
        if (response.status === 200) return;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    throw new Error(`${this.name} not ready after ${timeoutMs} ms; see ${this.options.logFile}`);
  }

  /** SIGKILL (a crash) or SIGTERM (a graceful stop); resolves when the process is gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || !this.isRunning()) return;
    this.expectingExit = true;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }

  stop(): Promise<void> {
    return this.kill('SIGTERM');
  }

  async restart(): Promise<void> {
    await this.stop();
    this.start();
    await this.waitReady();
  }
}
