import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort, waitFor } from '@rental/testkit';

/** One entry of Prism's `sl-violations` header. */
export interface PrismViolation {
  /** `request`, or `response` followed by the path inside it (`body`, `headers`, …). */
  location: string[];
  /** Error, Warning, Information or Hint. An undocumented 4xx/5xx status is only a Warning. */
  severity: string;
  code?: string | number;
  message: string;
}

/**
 * Prism's verdict on one exchange. Prism (without --errors) forwards every request and lists
 * what it found in `sl-violations`: request problems under `request`, response problems under
 * `response`. The header is read rather than using --errors because --errors turns only
 * Error-severity response findings into a failure, and an undocumented non-2xx status is a
 * Warning there; it would also refuse the invalid requests the error cases send on purpose.
 */
export function violationsOf(headers: Headers): PrismViolation[] {
  const raw = headers.get('sl-violations');
  if (!raw) return [];
  // Prism truncates a header over 8 KB and prefixes it; keep it readable as one violation.
  if (!raw.startsWith('[')) return [{ location: ['response'], severity: 'Error', message: raw.slice(0, 500) }];
  return JSON.parse(raw) as PrismViolation[];
}

export interface Launch {
  /** Names the process in failure messages. */
  name: string;
  /** Arguments of `node` and extra variables, for the port chosen. */
  command: (port: number) => { args: string[]; env: NodeJS.ProcessEnv };
  /** Polled until it answers (with `readyStatus` when given). */
  readyPath: string;
  readyStatus?: number;
}

/** A Node process listening on a free loopback port; keeps the tail of its output for failure messages. */
export class ListeningProcess {
  private output = '';

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString('utf8')).slice(-20_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  static async start(launch: Launch): Promise<ListeningProcess> {
    const port = await freePort();
    const { args, env } = launch.command(port);
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    const started = new ListeningProcess(child, `http://127.0.0.1:${port}`);
    try {
      await waitFor(
        async () => {
          if (child.exitCode !== null) throw new Error(`${launch.name} exited with ${child.exitCode}`);
          const response = await fetch(started.url + launch.readyPath).catch(() => undefined);
          return response && (launch.readyStatus === undefined || response.status === launch.readyStatus) ? true : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 100, what: `${launch.name} on port ${port}` },
      );
    } catch (error) {
      await started.stop();
      throw new Error(`${String(error)}\n${started.output}`);
    }
    return started;
  }

  /** The last output of the process. */
  get log(): string {
    return this.output;
  }

  stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill('SIGTERM');
    });
  }
}

/** Prism in validation-proxy mode in front of a running gateway (no internet needed). */
export function startPrismProxy(specFile: string, upstream: string): Promise<ListeningProcess> {
  const cli = path.join(path.dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');
  return ListeningProcess.start({
    name: 'prism',
    command: (port) => ({
      args: [cli, 'proxy', specFile, upstream, '--host', '127.0.0.1', '--port', String(port), '--errors', 'false', '--verboseLevel', 'warn'],
      env: { NO_COLOR: '1', FORCE_COLOR: '0' },
    }),
    // Any answer means the document is loaded and the proxy listens.
    readyPath: '/api/docs.json',
  });
}

/**
 * One more gateway process in front of a running stack's services and database, with variables
 * of its own (rate limits, body limit, service addresses), for the answers the gateway gives by
 * itself.
 */
export function startExtraGateway(
  stack: { databaseUrl: string; environment: string; portBase: number; identitySecret: string },
  env: NodeJS.ProcessEnv,
): Promise<ListeningProcess> {
  const entry = path.join(path.dirname(require.resolve('@rental/gateway/package.json')), 'dist', 'start.js');
  return ListeningProcess.start({
    name: 'gateway',
    command: (port) => ({
      args: [entry],
      // Its admin and gRPC ports are any free ones (0): this process is reached only on its public port.
      env: {
        API_ENVIRONMENT: stack.environment,
        DATABASE_URL: stack.databaseUrl,
        SERVICE_PORT_BASE: String(stack.portBase),
        PORT: String(port),
        ADMIN_PORT: '0',
        GRPC_PORT: '0',
        INTERNAL_IDENTITY_SECRET: stack.identitySecret,
        LOG_LEVEL: 'warn',
        ...env,
      },
    }),
    // The public port opens after the database (and migrations), so the description answering means ready.
    readyPath: '/api/docs.json',
    readyStatus: 200,
  });
}

export interface DescribedOperation {
  method: string;
  path: string;
  /** `METHOD /path/{template}` */
  key: string;
  pattern: RegExp;
  responses: Record<string, unknown>;
}

const escape = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** Every operation of an API description, with a pattern matching its concrete paths. */
export function describedOperations(description: { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }): DescribedOperation[] {
  return Object.entries(description.paths).flatMap(([template, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'put', 'post', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path: template,
        key: `${method.toUpperCase()} ${template}`,
        pattern: new RegExp(
          `^${template
            .split(/(\{[^}]+\})/)
            .map((part) => (part.startsWith('{') ? '[^/]+' : escape(part)))
            .join('')}$`,
        ),
        responses: operation.responses,
      })),
  );
}

/** The operation a concrete request hits; a literal segment wins over a template one. */
export function operationOf(operations: DescribedOperation[], method: string, concretePath: string): DescribedOperation | undefined {
  const pathOnly = concretePath.split('?')[0] as string;
  const candidates = operations.filter((operation) => operation.method === method && operation.pattern.test(pathOnly));
  return candidates.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0))[0];
}
