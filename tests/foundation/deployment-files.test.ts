import fs from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import type { z } from 'zod';
import { SERVICE_NAMES, platformVariables, variablePrefix } from '@rental/config';
import { gatewayVariables } from '@rental/gateway';
import { pricingVariables } from '@rental/pricing';
import { cartCheckoutVariables } from '@rental/cart-checkout';
import { caseWorkflowVariables } from '@rental/case-workflow';
import { documentsVariables } from '@rental/documents';
import { notificationsVariables } from '@rental/notifications';
import { backofficeVariables } from '@rental/backoffice';
import { portalVariables } from '@rental/portal';
import { simulatorProcessVariables } from '@rental/stack';

const root = path.resolve(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

type Shape = Record<string, z.ZodType>;
const PROCESSES: Record<string, Shape> = {
  gateway: gatewayVariables,
  pricing: pricingVariables,
  'cart-checkout': cartCheckoutVariables,
  'case-workflow': caseWorkflowVariables,
  documents: documentsVariables,
  notifications: notificationsVariables,
  backoffice: backofficeVariables,
  portal: portalVariables,
};
// Peer addresses are read through the service directory, not a config shape.
// The gateway's partner access service (gRPC) is a peer address too.
const PEER_ADDRESSES = [...SERVICE_NAMES.flatMap((name) => [`${variablePrefix(name)}_HTTP_URL`, `${variablePrefix(name)}_GRPC_ADDR`]), 'GATEWAY_GRPC_ADDR'];
const STACK_TOOL_VARIABLES = ['DATABASE_URL', 'API_ENVIRONMENT', 'HUB_STUB_PORT', 'HOST', 'PRODUCTION_SIMULATORS'];

function knownVariables(process: string): Set<string> {
  return new Set([...Object.keys(PROCESSES[process] ?? {}), ...PEER_ADDRESSES]);
}

function requiredVariables(shape: Shape): string[] {
  return Object.entries(shape)
    .filter(([, schema]) => !schema.safeParse(undefined).success)
    .map(([name]) => name);
}

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, any> };

  it('when parsed, then every process has a service built from the Dockerfile with its name', () => {
    for (const name of Object.keys(PROCESSES)) {
      expect(compose.services[name]?.build).toEqual({ context: '.', dockerfile: 'Dockerfile', args: { SERVICE: name } });
    }
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['postgres', 'nats', 'minio', 'hub-stub', 'seed']));
    expect(compose.services.nats.command).toEqual(expect.arrayContaining(['-js']));
  });

  it('when a process is configured, then every variable exists in its code and every required one is given', () => {
    for (const [name, shape] of Object.entries(PROCESSES)) {
      const environment = Object.keys(compose.services[name].environment);
      expect(environment.filter((variable) => !knownVariables(name).has(variable))).toEqual([]);
      expect(requiredVariables(shape).filter((variable) => !environment.includes(variable))).toEqual([]);
    }
    for (const tool of ['hub-stub', 'seed']) {
      expect(Object.keys(compose.services[tool].environment).filter((variable) => !STACK_TOOL_VARIABLES.includes(variable))).toEqual([]);
    }
    expect(Object.keys(compose.services.simulators.environment).filter((variable) => !(variable in simulatorProcessVariables))).toEqual([]);
  });

  it('when the dev profile runs the simulators, then case-workflow points at them and both share the signing secret', () => {
    const simulators = compose.services.simulators;
    const caseWorkflow = compose.services['case-workflow'].environment as Record<string, string>;
    expect(simulators.profiles).toEqual(['dev']);
    expect(simulators.command).toEqual(['node', 'tools/stack/dist/cli/simulators.js']);
    expect(caseWorkflow.LENDER_SIMULATOR_URL).toBe(`http://simulators:${simulators.environment.LENDER_SIMULATOR_PORT}`);
    expect(caseWorkflow.SIGNING_PROVIDER_URL).toBe(`http://simulators:${simulators.environment.SIGNING_SIMULATOR_PORT}`);
    expect(caseWorkflow.CREDIT_BUREAU_URL).toBe(`http://simulators:${simulators.environment.CREDIT_BUREAU_SIMULATOR_PORT}`);
    expect(caseWorkflow.SIGNING_WEBHOOK_SECRET).toBe(simulators.environment.SIGNING_WEBHOOK_SECRET);
    expect([caseWorkflow.PRODUCTION_SIMULATORS, compose.services.seed.environment.PRODUCTION_SIMULATORS]).toEqual(['true', 'true']);
    expect(caseWorkflow.PUBLIC_BASE_URL).toBe(`http://gateway:${compose.services.gateway.environment.PORT}`);
  });

  it('when peers are addressed, then they point at compose services on the ports the processes listen on', () => {
    const environment = compose.services.gateway.environment as Record<string, string>;
    for (const name of SERVICE_NAMES) {
      expect(environment[`${variablePrefix(name)}_HTTP_URL`]).toBe(`http://${name}:${compose.services[name].environment.HTTP_PORT}`);
      expect(environment[`${variablePrefix(name)}_GRPC_ADDR`] ?? `${name}:50051`).toBe(`${name}:${compose.services[name].environment.GRPC_PORT}`);
    }
    expect(compose.services.gateway.ports).toEqual([`8080:${environment.PORT}`]);
    expect(compose.services.pricing.environment.HUB_URL).toBe(`http://hub-stub:${compose.services['hub-stub'].environment.HUB_STUB_PORT}`);
  });
});

describe('deploy/k8s', () => {
  const base = path.join('deploy', 'k8s', 'base');
  const kustomization = parse(read(path.join(base, 'kustomization.yaml'))) as { resources: string[] };
  const documents = kustomization.resources.flatMap((file) => parseAllDocuments(read(path.join(base, file))).map((doc) => doc.toJS()));
  const configMap = documents.find((doc) => doc.kind === 'ConfigMap' && doc.metadata.name === 'rental-config');

  it('when the base is read, then every process has a Deployment, Service, ServiceAccount, PodDisruptionBudget and HPA named after it', () => {
    for (const name of Object.keys(PROCESSES)) {
      for (const kind of ['Deployment', 'Service', 'ServiceAccount', 'PodDisruptionBudget', 'HorizontalPodAutoscaler']) {
        const found = documents.find((doc) => doc.kind === kind && doc.metadata.name === name);
        expect({ name, kind, found: Boolean(found), app: found?.metadata.labels?.app }).toEqual({ name, kind, found: true, app: name });
      }
    }
  });

  it('when a Deployment runs, then it probes /readyz and /healthz on its admin port, runs as non-root with limits', () => {
    for (const name of Object.keys(PROCESSES)) {
      const deployment = documents.find((doc) => doc.kind === 'Deployment' && doc.metadata.name === name);
      const container = deployment.spec.template.spec.containers[0];
      expect(container.image).toBe(`rental/${name}`);
      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'admin' });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'admin' });
      expect(deployment.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
      expect(container.resources.limits).toEqual(expect.objectContaining({ cpu: expect.any(String), memory: expect.any(String) }));
      const env = Object.fromEntries(container.env.map((entry: { name: string; value?: string }) => [entry.name, entry.value]));
      const httpPort = name === 'gateway' ? env.PORT : env.HTTP_PORT;
      expect(container.ports.find((port: { name: string }) => port.name === 'http').containerPort).toBe(Number(httpPort));
      expect(container.ports.find((port: { name: string }) => port.name === 'admin').containerPort).toBe(Number(env.ADMIN_PORT));
      expect(Number(env.ADMIN_PORT)).not.toBe(Number(httpPort));
      if (name !== 'gateway') expect(container.ports.find((port: { name: string }) => port.name === 'grpc').containerPort).toBe(Number(env.GRPC_PORT));
      const service = documents.find((doc) => doc.kind === 'Service' && doc.metadata.name === name);
      for (const port of service.spec.ports) expect(container.ports.map((p: { name: string }) => p.name)).toContain(port.targetPort);
    }
  });

  it('when variables are named, then each exists in the code and every required one is provided', () => {
    for (const [name, shape] of Object.entries(PROCESSES)) {
      const deployment = documents.find((doc) => doc.kind === 'Deployment' && doc.metadata.name === name);
      const own = deployment.spec.template.spec.containers[0].env.map((entry: { name: string }) => entry.name);
      expect(own.filter((variable: string) => !knownVariables(name).has(variable))).toEqual([]);
      const provided = [...own, ...Object.keys(configMap.data)];
      expect(requiredVariables(shape).filter((variable) => !provided.includes(variable))).toEqual([]);
    }
    const everyKnown = new Set([...Object.values(PROCESSES).flatMap((shape) => Object.keys(shape)), ...PEER_ADDRESSES]);
    expect(Object.keys(configMap.data).filter((variable) => !everyKnown.has(variable))).toEqual([]);
    for (const name of SERVICE_NAMES) expect(configMap.data[`${variablePrefix(name)}_HTTP_URL`]).toBe(`http://${name}:8080`);
  });

  it('when the overlays are read, then they build on the base and set their environment', () => {
    for (const environment of ['sandbox', 'production']) {
      const overlay = path.join('deploy', 'k8s', 'overlays', environment);
      const kustomizationFile = parse(read(path.join(overlay, 'kustomization.yaml')));
      expect(kustomizationFile.resources).toEqual(['../../base']);
      expect(kustomizationFile.namespace).toBe(`rental-${environment}`);
      const patch = parse(read(path.join(overlay, 'configmap.yaml')));
      expect(patch.data.API_ENVIRONMENT).toBe(environment);
      expect(
        Object.keys(patch.data).filter(
          (variable) => !Object.keys(platformVariables).includes(variable) && !(variable in documentsVariables) && !(variable in caseWorkflowVariables),
        ),
      ).toEqual([]);
    }
  });

  it("when production runs, then the signing secret and the lenders' secrets come from Secrets, never from a ConfigMap", () => {
    const caseWorkflow = documents.find((doc) => doc.kind === 'Deployment' && doc.metadata.name === 'case-workflow');
    const env = caseWorkflow.spec.template.spec.containers[0].env as { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
    expect(env.find((entry) => entry.name === 'SIGNING_WEBHOOK_SECRET')?.valueFrom?.secretKeyRef).toEqual({
      name: 'rental-signing',
      key: 'webhook-secret',
      optional: true,
    });
    const seedJob = documents.find((doc) => doc.kind === 'Job' && doc.metadata.name === 'rental-seed');
    expect(seedJob.spec.template.spec.containers[0].command).toEqual(['node', 'tools/stack/dist/cli/seed.js', '/seed/seed.json']);
    expect(seedJob.spec.template.spec.volumes).toEqual([{ name: 'seed-file', secret: { secretName: 'rental-lenders' } }]);
    const production = parse(read(path.join('deploy', 'k8s', 'overlays', 'production', 'configmap.yaml')));
    expect(Object.keys(production.data)).toEqual(expect.arrayContaining(['PUBLIC_BASE_URL', 'SIGNING_PROVIDER_URL', 'CREDIT_BUREAU_URL']));
    expect(Object.keys({ ...configMap.data, ...production.data }).filter((variable) => /SECRET/.test(variable))).toEqual([]);
    // A real deployment never falls back to the simulators.
    expect(JSON.stringify([documents, production])).not.toContain('PRODUCTION_SIMULATORS');
  });
});

describe('Dockerfile', () => {
  it('when built per process, then its entry points exist for every SERVICE value', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toContain('ARG SERVICE');
    for (const name of Object.keys(PROCESSES)) {
      const entry = name === 'gateway' ? 'gateway/dist/start.js' : `services/${name}/dist/start.js`;
      expect(fs.existsSync(path.join(root, entry))).toBe(true);
    }
    expect(fs.existsSync(path.join(root, 'tools/stack/dist/cli/hub-stub.js'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'tools/stack/dist/cli/seed.js'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'tools/stack/dist/cli/simulators.js'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'tools/stack/dist/cli/identity-provider.js'))).toBe(true);
  });
});
