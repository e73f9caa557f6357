import os from 'node:os';
import path from 'node:path';
import { ManagedProcess } from '@rental/stack';
import { fixturePartnerKey, runDate } from '@rental/testkit';
import { DirectAccess, againstDirect } from './direct';
import { BENCH_RATE_LIMITS, BenchContext, runAlone } from './harness';
import { LatencyProbe, ROW_SECONDS, measure, probeLatency } from './load';
import { type NginxProxy, nginxInstalled, startNginxProxy } from './nginx';
import { latencyTable, report, table } from './report';
import { FACTS, turnLabel } from './targets';

const KEY = fixturePartnerKey('acme');
function benchProcess(name: string, entry: string, port: number, env: NodeJS.ProcessEnv, readyPort = port): ManagedProcess {
  return new ManagedProcess({
    name,
    entry,
    // BENCH_NODE_OPTIONS (a profiler, say) reaches these as it reaches the stack's processes. The
    // gateways log as shipped (LOG_LEVEL info: an access line per request), the default the targets name.
    env: {
      ...process.env,
      ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
      ...env,
      PORT: String(port),
    },
    logFile: path.join(os.tmpdir(), `${name}.log`),
    readyUrl: `http://127.0.0.1:${readyPort}/readyz`,
    restartOnCrash: false,
  });
}

const LIMIT_TURNS = Number(process.env.BENCH_LIMIT_TURNS ?? 2);

async function limitTurns<T>(turn: (number: number) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for (let number = 1; number <= LIMIT_TURNS; number += 1) rows.push(...(await turn(number)));
  return rows;
}

export async function gatewayBench({ stack, recorder: stackRecorder }: BenchContext): Promise<void> {
  const trivialPort = stack.portBase + 28;
  const trivialUrl = `http://127.0.0.1:${trivialPort}`;
  const trivial = benchProcess('bench-trivial-upstream', path.join(__dirname, 'trivial-upstream.js'), trivialPort, {});
  // A second gateway on the same database, whose pricing paths go to the trivial upstream, with
  // the rate limits on as the stack's (BENCH_RATE_LIMITS), and a third one with them off: the
  // reference of what the limits cost.
  const gatewayEntry = require.resolve('@rental/gateway/package.json').replace('package.json', 'dist/start.js');
  const trivialGateway = (name: string, port: number, adminPort: number, limits: NodeJS.ProcessEnv) =>
    benchProcess(
      name,
      gatewayEntry,
      port,
      {
        DATABASE_URL: stack.databaseUrl,
        API_ENVIRONMENT: 'sandbox',
        PRICING_HTTP_URL: trivialUrl,
        ...limits,
        INTERNAL_IDENTITY_SECRET: stack.identitySecret,
        ADMIN_PORT: String(adminPort),
        // The stack's gateway holds the partner access port of this base; this one takes any free port.
        GRPC_PORT: '0',
      },
      adminPort,
    );
  const gatewayPort = stack.portBase + 29;
  const gateway = trivialGateway('bench-gateway', gatewayPort, stack.portBase + 48, BENCH_RATE_LIMITS);
  const unlimitedPort = stack.portBase + 30;
  const unlimited = trivialGateway('bench-gateway-unlimited', unlimitedPort, stack.portBase + 49, {
    RATE_LIMIT_KEY_PER_SECOND: '0',
    RATE_LIMIT_ADDRESS_PER_SECOND: '0',
  });
  const direct = new DirectAccess(stack);
  const barePort = stack.portBase + 27;
  const bare = benchProcess('bench-bare-proxy', path.join(__dirname, 'bare-proxy.js'), barePort, { TARGET_URL: trivialUrl });
  const helpers = [trivial, gateway, unlimited, bare];
  helpers.forEach((process) => process.start());
  await Promise.all(helpers.map((process) => process.waitReady()));
  const nginxPort = stack.portBase + 26;
  let nginx: NginxProxy | undefined;
  // The trivial-route runs are served by these; the summary names their peaks under the table.
  const recorder = stackRecorder.including(() => ({
    'second gateway': gateway.pid,
    'gateway, limits off': unlimited.pid,
    'trivial upstream': trivial.pid,
    'bare proxy': bare.pid,
    nginx: nginx?.pid,
  }));
  const measureTrivial = (options: Parameters<typeof measure>[0]) => recorder.measure('gateway overhead', options);
  const measureService = (options: Parameters<typeof measure>[0]) => recorder.measure('gateway overhead', options);
  /** nginx in front of `upstream` for one run: the reference a reverse proxy reaches on these cores. */
  const throughNginx = async <T>(upstream: string, headers: Record<string, string>, run: (url: string) => Promise<T>): Promise<T | undefined> => {
    if (!nginxInstalled()) return undefined;
    nginx = await startNginxProxy(nginxPort, upstream, headers);
    try {
      return await run(nginx.url);
    } finally {
      await nginx.stop();
      nginx = undefined;
    }
  };
  try {
    const pricingDirect = direct.url('pricing');
    // Warm up connections and caches before measuring.
    await measure({ label: 'warm-up', url: `http://127.0.0.1:${gatewayPort}/api/product-sectors`, headers: { 'X-Api-Key': KEY }, durationSeconds: 2 });
    const viaGateway = { 'X-Api-Key': KEY };
    const saturated = { tool: 'wrk' as const };
    const trivialDirect = await measureTrivial({ label: 'trivial route, direct (saturated)', url: `${trivialUrl}/api/product-sectors`, ...saturated });
    /** The trivial route through the gateway listening on `port`, saturated. */
    const saturatedThrough = (port: number, label: string) =>
      measureTrivial({ label, url: `http://127.0.0.1:${port}/api/product-sectors`, headers: viaGateway, ...saturated });
    const trivialRuns = [
      trivialDirect,
      // Limits on and off in turn (BENCH_LIMIT_TURNS times): the machine's load drifts, a ratio of neighbours holds.
      ...(await limitTurns(async (turn) => [
        againstDirect(await saturatedThrough(gatewayPort, `trivial route, through the gateway${turnLabel(turn)} (saturated)`), trivialDirect),
        againstDirect(
          await saturatedThrough(unlimitedPort, `trivial route, through the gateway with rate limits off${turnLabel(turn)} (saturated)`),
          trivialDirect,
        ),
      ])),
      againstDirect(
        await measureTrivial({
          label: 'trivial route, bare node:http proxy for reference (saturated)',
          url: `http://127.0.0.1:${barePort}/api/product-sectors`,
          ...saturated,
        }),
        trivialDirect,
      ),
    ];
    const trivialNginx = await throughNginx(trivialUrl, {}, (url) =>
      measureTrivial({ label: 'trivial route, nginx for reference (saturated)', url: `${url}/api/product-sectors`, ...saturated }),
    );
    if (trivialNginx) trivialRuns.push(againstDirect(trivialNginx, trivialDirect));
    const autocannonDirect = await measureTrivial({ label: 'trivial route, direct (saturated, autocannon)', url: `${trivialUrl}/api/product-sectors` });
    trivialRuns.push(
      autocannonDirect,
      againstDirect(
        await measureTrivial({
          label: 'trivial route, through the gateway (saturated, autocannon)',
          url: `http://127.0.0.1:${gatewayPort}/api/product-sectors`,
          headers: viaGateway,
        }),
        autocannonDirect,
      ),
    );
    trivialRuns.push(
      await measureTrivial({ label: 'trivial route, direct (500 req/s)', url: `${trivialUrl}/api/product-sectors`, overallRate: 500 }),
      await measureTrivial({
        label: 'trivial route, through the gateway (500 req/s)',
        url: `http://127.0.0.1:${gatewayPort}/api/product-sectors`,
        headers: viaGateway,
        overallRate: 500,
      }),
    );
    const latencies = [
      await probeLatency('trivial route, direct', `${trivialUrl}/api/product-sectors`, {}),
      await probeLatency('trivial route, bare proxy', `http://127.0.0.1:${barePort}/api/product-sectors`, {}),
      await probeLatency('trivial route, gateway', `http://127.0.0.1:${gatewayPort}/api/product-sectors`, viaGateway),
    ];
    const nginxLatency = await throughNginx(trivialUrl, {}, (url) => probeLatency('trivial route, nginx', `${url}/api/product-sectors`, {}));
    if (nginxLatency) latencies.push(nginxLatency);
    const [latencyDirect, , latencyGateway] = latencies as [LatencyProbe, LatencyProbe, LatencyProbe];
    recorder.facts[FACTS.gatewayAddedP50Micros] = latencyGateway.p50Micros - latencyDirect.p50Micros;
    if (nginxLatency) recorder.facts[FACTS.nginxAddedP50Micros] = nginxLatency.p50Micros - latencyDirect.p50Micros;
    const serviceDirect = await measureService({
      label: 'GET /api/product-sectors, pricing direct (saturated)',
      url: `${pricingDirect}/api/product-sectors`,
      headers: await direct.headers(),
      ...saturated,
    });
    const serviceRuns = [
      serviceDirect,
      againstDirect(
        await measureService({
          label: 'GET /api/product-sectors, through the gateway (saturated)',
          url: `${stack.gatewayUrl}/api/product-sectors`,
          headers: viaGateway,
          ...saturated,
        }),
        serviceDirect,
      ),
    ];
    // nginx cannot sign; it sends the identity the gateway would, signed for this run.
    const serviceNginx = await throughNginx(pricingDirect, await direct.headers(), (url) =>
      measureService({ label: 'GET /api/product-sectors, nginx for reference (saturated)', url: `${url}/api/product-sectors`, ...saturated }),
    );
    if (serviceNginx) serviceRuns.push(againstDirect(serviceNginx, serviceDirect));
    const body = [
      `Command: \`npm run bench:gateway\` (${runDate()}; saturated runs: 20 connections for ${ROW_SECONDS} s, with wrk (one thread) when it is installed, autocannon otherwise, and two autocannon rows to compare with earlier runs; paced runs: 500 req/s evenly paced over 100 connections with autocannon). The trivial route is an express handler in its own process that only answers JSON, behind a second gateway process on the same database; the service route is pricing's real handler. References in the same run: the direct service, a bare node:http proxy, and nginx (Debian nginx-light, one process, keep-alive to the upstream, no access log) when installed. The load generator, the proxy and the upstream share the machine's 2 cores, so saturated figures include that contention.`,
      '',
      table([...trivialRuns, ...serviceRuns]),
      '',
      'Unloaded latency, 3000 sequential requests over one keep-alive connection:',
      '',
      latencyTable(latencies),
      '',
      `- Added latency at p50: gateway +${latencyGateway.p50Micros - latencyDirect.p50Micros} µs${latencies
        .slice(1)
        .filter((probe) => probe !== latencyGateway)
        .map((probe) => `, ${probe.label.replace('trivial route, ', '')} +${probe.p50Micros - latencyDirect.p50Micros} µs`)
        .join('')}.`,
    ].join('\n');
    report('Gateway overhead', body);
  } finally {
    await Promise.all(helpers.map((process) => process.stop()));
  }
}

if (require.main === module) runAlone('bench:gateway', gatewayBench);
