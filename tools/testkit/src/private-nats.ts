import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { restartablePort } from './ports';

const NATS_SERVER = process.env.NATS_SERVER_BINARY ?? '/usr/sbin/nats-server';

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A NATS server with JetStream owned by one test, so a fault test can stop and start it without
 * disturbing the machine's NATS that other stacks use. Its store survives stop/start.
 */
export class PrivateNats {
  private child?: ChildProcess;
  private readonly storeDirectory = path.join(os.tmpdir(), 'rental-nats', randomBytes(4).toString('hex'));

  constructor(readonly port: number) {}

  /** A new server on a port of its own, running. */
  static async launch(): Promise<PrivateNats> {
    const server = new PrivateNats(await restartablePort());
    await server.start();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    fs.mkdirSync(this.storeDirectory, { recursive: true });
    this.child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDirectory], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (!(await portOpen(this.port))) {
      if (Date.now() > deadline) throw new Error('private nats-server did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await exited;
  }

  /** Stops the server and deletes its store: it comes back without streams or consumers, as after losing its volume. */
  async wipe(): Promise<void> {
    await this.stop();
    fs.rmSync(this.storeDirectory, { recursive: true, force: true });
  }

  async dispose(): Promise<void> {
    await this.stop();
    fs.rmSync(this.storeDirectory, { recursive: true, force: true });
  }
}
