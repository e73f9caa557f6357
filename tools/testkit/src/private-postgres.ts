import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { restartablePort } from './ports';

const BIN = process.env.POSTGRES_BIN ?? `/usr/lib/postgresql/${fs.existsSync('/etc/postgresql') ? fs.readdirSync('/etc/postgresql')[0] : '15'}/bin`;

/** Runs a Postgres tool as the postgres user when we are root (initdb refuses to run as root). */
function run(tool: string, args: string[]): void {
  const command = path.join(BIN, tool);
  const asRoot = process.getuid?.() === 0;
  const result = asRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
    : spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${tool} failed: ${result.stderr || result.stdout}`);
}

/**
 * A PostgreSQL server owned by one test, so a fault test can stop and start it without
 * disturbing the machine's server that other stacks use. Trust auth on 127.0.0.1.
 */
export class PrivatePostgres {
  private readonly directory = path.join(os.tmpdir(), 'rental-postgres', randomBytes(4).toString('hex'));

  /** `maxConnections`: Postgres's max_connections (a stack with replicas needs more than the default). */
  constructor(
    readonly port: number,
    private readonly maxConnections = 60,
  ) {}

  /** A new server on a port of its own, created and running. */
  static async launch(maxConnections?: number): Promise<PrivatePostgres> {
    const server = new PrivatePostgres(await restartablePort(), maxConnections);
    await server.create();
    return server;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}`;
  }

  async create(): Promise<void> {
    fs.mkdirSync(this.directory, { recursive: true });
    if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', path.dirname(this.directory)]);
    run('initdb', ['-D', path.join(this.directory, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    await this.start();
  }

  async start(): Promise<void> {
    run('pg_ctl', [
      '-D',
      path.join(this.directory, 'data'),
      '-l',
      path.join(this.directory, 'server.log'),
      '-w',
      '-o',
      `-p ${this.port} -k ${this.directory} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=${this.maxConnections}`,
      'start',
    ]);
  }

  async stop(): Promise<void> {
    run('pg_ctl', ['-D', path.join(this.directory, 'data'), '-m', 'fast', '-w', 'stop']);
  }

  async dispose(): Promise<void> {
    try {
      await this.stop();
    } catch {
      // already stopped
    }
    fs.rmSync(this.directory, { recursive: true, force: true });
  }
}
