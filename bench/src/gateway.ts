import os from 'node:os';
import path from 'node:path';
import { IDENTITY_HEADER, IdentityKeys } from '@rental/identity';
import { ManagedProcess } from '@rental/stack';
import { fixturePartnerKey, runDate } from '@rental/testkit';
import { BenchContext, runAlone } from './harness';
import { LatencyProbe, Measurement, ROW_SECONDS, measure, probeLatency } from './load';
import { latencyTable, report, table } from './report';

const KEY = fixturePartnerKey('acme');
function benchProcess(name: string, entry: string, port: number, env: NodeJS.ProcessEnv, readyPort = port): ManagedProcess {
  return new ManagedProcess({
    name,
    entry,
    // BENCH_NODE_OPTIONS (a profiler, say) reaches these as it reaches the stack's processes.
    env: { ...process.env, ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}), ...env, PORT: String(port), LOG_LEVEL: 'warn' },
    logFile: path.join(os.tmpdir(), `${name}.log`),
    readyUrl: `http://127.0.0.1:${readyPort}/readyz`,
    restartOnCrash: false,
  });
}

function ratio(gateway: Measurement, direct: Measurement): string {
  return `${Math.round((100 * gateway.requestsPerSecond) / direct.requestsPerSecond)} % of direct throughput, p50 +${gateway.p50 - direct.p50} ms`;
}

export async function gatewayBench({ stack, recorder: stackRecorder }: BenchContext): Promise<void> {
  const trivialPort = stack.portBase + 28;
  const trivialUrl = `http://127.0.0.1:${trivialPort}`;
  const trivial = benchProcess('bench-trivial-upstream', path.join(__dirname, 'trivial-upstream.js'), trivialPort, {});
  // A second gateway on the same database, whose pricing paths go to the trivial upstream.
  const gatewayPort = stack.portBase + 29;
  const gatewayAdminPort = stack.portBase + 48;
  const gateway = benchProcess('bench-gateway', require.resolve('@rental/gateway/package.json').replace('package.json', 'dist/start.js'), gatewayPort, {
    DATABASE_URL: stack.databaseUrl,
    API_ENVIRONMENT: 'sandbox',
    PRICING_HTTP_URL: trivialUrl,
    // As on the stack the test kit boots: one key from one address at full speed is the load here, not abuse.
    RATE_LIMIT_KEY_PER_SECOND: '0',
    RATE_LIMIT_ADDRESS_PER_SECOND: '0',
    INTERNAL_IDENTITY_SECRET: stack.identitySecret,
    ADMIN_PORT: String(gatewayAdminPort),
  }, gatewayAdminPort);
  // Reaching pricing directly takes what the gateway would sign (valid for a minute: signed per run).
  const identity = new IdentityKeys(stack.identitySecret);
  const signedAsGateway = async () => ({ [IDENTITY_HEADER]: await identity.sign({ caller: 'gateway', partnerId: 'acme', roles: ['api_user'] }) });
  const barePort = stack.portBase + 27;
  const bare = benchProcess('bench-bare-proxy', path.join(__dirname, 'bare-proxy.js'), barePort, { TARGET_URL: trivialUrl });
  const helpers = [trivial, gateway, bare];
  helpers.forEach((process) => process.start());
  await Promise.all(helpers.map((process) => process.waitReady()));
  // The trivial-route runs are served by these; the summary names their peaks under the table.
  const recorder = stackRecorder.including(() => ({ 'second gateway': gateway.pid, 'trivial upstream': trivial.pid, 'bare proxy': bare.pid }));
  const measureTrivial = (options: Parameters<typeof measure>[0]) => recorder.measure('gateway overhead', options);
  const measureService = (options: Parameters<typeof measure>[0]) => stackRecorder.measure('gateway overhead', options);
  try {
    const pricingDirect = `http://127.0.0.1:${stack.portBase + 1}/api/product-sectors`;
    // Warm up connections and caches before measuring.
    await measure({ label: 'warm-up', url: `http://127.0.0.1:${gatewayPort}/api/product-sectors`, headers: { 'X-Api-Key': KEY }, durationSeconds: 2 });
    const viaGateway = { 'X-Api-Key': KEY };
    const trivialDirect = await measureTrivial({ label: 'trivial route, direct (saturated)', url: `${trivialUrl}/api/product-sectors` });
    const trivialGateway = await measureTrivial({ label: 'trivial route, through the gateway (saturated)', url: `http://127.0.0.1:${gatewayPort}/api/product-sectors`, headers: viaGateway });
    const trivialBare = await measureTrivial({ label: 'trivial route, bare node:http proxy for reference (saturated)', url: `http://127.0.0.1:${barePort}/api/product-sectors` });
    const trivialDirectPaced = await measureTrivial({ label: 'trivial route, direct (500 req/s)', url: `${trivialUrl}/api/product-sectors`, overallRate: 500 });
    const trivialGatewayPaced = await measureTrivial({ label: 'trivial route, through the gateway (500 req/s)', url: `http://127.0.0.1:${gatewayPort}/api/product-sectors`, headers: viaGateway, overallRate: 500 });
    const latencies = [
      await probeLatency('trivial route, direct', `${trivialUrl}/api/product-sectors`, {}),
      await probeLatency('trivial route, bare proxy', `http://127.0.0.1:${barePort}/api/product-sectors`, {}),
      await probeLatency('trivial route, gateway', `http://127.0.0.1:${gatewayPort}/api/product-sectors`, viaGateway),
    ];
    const [latencyDirect, latencyBare, latencyGateway] = latencies as [LatencyProbe, LatencyProbe, LatencyProbe];
    const serviceDirect = await measureService({ label: 'GET /api/product-sectors, pricing direct (saturated)', url: pricingDirect, headers: await signedAsGateway() });
    const serviceGateway = await measureService({ label: 'GET /api/product-sectors, through the gateway (saturated)', url: `${stack.gatewayUrl}/api/product-sectors`, headers: viaGateway });
    const body = [
      `Command: \`npm run bench:gateway\` (${runDate()}; saturated runs: 20 connections for ${ROW_SECONDS} s; paced runs: 500 req/s evenly paced over 100 connections). The trivial route is an express handler in its own process that only answers JSON, behind a second gateway process on the same database; the service route is pricing's real handler. Autocannon, the gateway and the upstream share the machine's 2 cores, so saturated figures include that contention.`,
      '',
      table([trivialDirect, trivialBare, trivialGateway, trivialDirectPaced, trivialGatewayPaced, serviceDirect, serviceGateway]),
      '',
      'Unloaded latency, 3000 sequential requests over one keep-alive connection:',
      '',
      latencyTable(latencies),
      '',
      `- Trivial route, saturated: the gateway keeps ${ratio(trivialGateway, trivialDirect)}; the bare proxy keeps ${ratio(trivialBare, trivialDirect)}.`,
      `- Added latency at p50: gateway +${latencyGateway.p50Micros - latencyDirect.p50Micros} µs, bare proxy +${latencyBare.p50Micros - latencyDirect.p50Micros} µs.`,
      `- Service route, saturated: the gateway keeps ${ratio(serviceGateway, serviceDirect)}.`,
      '',
      'Where the cost was (CPU profile of the gateway under this load, before the change): with express in front of http-proxy-middleware out of the box the gateway kept about 35 % of direct throughput on the trivial route (p50 +5 ms). Swapping the proxy for a hand-written `http.request` changed nothing while express stayed in front; serving `/api` from plain node:http with the same proxy doubled throughput, and ejecting http-proxy-middleware\'s default plugins (logger, event hooks, error page) brought the rest. Express now only serves health, readiness, metrics and the API description. What is left is mostly socket writes (`writev`) and the two cores shared with autocannon and the upstream, the same floor the bare proxy hits.',
      '',
      'Against the targets (under 1 ms added at p50, at least 70 % of direct throughput): the added latency holds with room. The throughput ratio sits at the bare node:http proxy\'s in every run, the ceiling of a node:http proxy on these 2 cores shared with autocannon, and moves between 64 % and 72 % from run to run (2026-11-22 and 23). Outside the stack, a proxy whose upstream calls go through undici kept 88–90 % against 79–81 % for the bare node:http proxy (same trivial upstream, 2026-11-23, a scratch experiment); the gateway does not use it, because its fixed shape names http-proxy-middleware, which drives node:http agents only.',
    ].join('\n');
    report('Gateway overhead', body);
  } finally {
    await Promise.all(helpers.map((process) => process.stop()));
  }
}

if (require.main === module) runAlone('bench:gateway', gatewayBench);
