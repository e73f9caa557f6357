import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
import { gatewayVariables } from '@rental/gateway';

// The deploy files as kubectl and Prometheus see them: every object valid against the Kubernetes
// schemas (kubernetes-models), images pinned, the Ingress in step with the gateway's limits.

const run = promisify(execFile);
const root = path.resolve(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const PROCESSES = ['gateway', 'pricing', 'cart-checkout', 'case-workflow', 'documents', 'notifications', 'backoffice', 'portal'];
// The seed Job runs the stack tools' image; it is released with the processes.
const IMAGES = [...PROCESSES, 'stack'];
const RELEASE_TAG = /^\d{4}\.\d{2}\.\d{2}(\.\d+)?$/;
const ENVIRONMENTS = { sandbox: 'sandbox.api.partner-rental.example', production: 'api.partner-rental.example' } as const;

type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
};

/** The problems kubernetes-models finds in the objects (none when all are valid). */
async function schemaProblems(objects: K8sObject[]): Promise<string[]> {
  const script = path.join(__dirname, 'support', 'validate-kubernetes-objects.mjs');
  const child = run(process.execPath, [script], { cwd: __dirname });
  child.child.stdin?.end(JSON.stringify(objects));
  return JSON.parse((await child).stdout) as string[];
}

function kustomizeBinary(): string | undefined {
  for (const binary of ['kubectl', 'kustomize']) {
    try {
      execFileSync(binary, binary === 'kubectl' ? ['version', '--client'] : ['version'], { stdio: 'ignore' });
      return binary;
    } catch {
      // not installed: try the next one
    }
  }
  return undefined;
}

const baseDirectory = path.join('deploy', 'k8s', 'base');
const baseKustomization = parse(read(path.join(baseDirectory, 'kustomization.yaml'))) as { resources: string[]; images: { name: string; newTag: string }[] };
const baseObjects = baseKustomization.resources.flatMap((file) =>
  parseAllDocuments(read(path.join(baseDirectory, file))).map((doc) => doc.toJS() as K8sObject),
);
const configMap = baseObjects.find((object) => object.kind === 'ConfigMap')!;

/** A gateway setting as deployed: the ConfigMap's value, else the code's default. */
function gatewaySetting(name: keyof typeof gatewayVariables): number {
  return Number(configMap.data?.[name] ?? gatewayVariables[name].parse(undefined));
}

function expectIngressInStepWithGateway(ingress: K8sObject | undefined, host: string) {
  const bodyMegabytes = gatewaySetting('MAX_BODY_BYTES') / (1024 * 1024);
  const timeoutSeconds = gatewaySetting('UPSTREAM_TIMEOUT_MS') / 1000 + 5;
  expect(ingress?.metadata.annotations).toEqual({
    'nginx.ingress.kubernetes.io/proxy-body-size': `${bodyMegabytes}m`,
    'nginx.ingress.kubernetes.io/proxy-read-timeout': String(timeoutSeconds),
    'nginx.ingress.kubernetes.io/proxy-send-timeout': String(timeoutSeconds),
    'nginx.ingress.kubernetes.io/ssl-redirect': 'true',
  });
  expect(ingress?.spec.tls).toEqual([{ hosts: [host], secretName: expect.stringMatching(/^rental-api-tls/) }]);
  expect(ingress?.spec.rules).toEqual([
    { host, http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'gateway', port: { name: 'http' } } } }] } },
  ]);
}

describe('the kustomize base as written', () => {
  it('when every object of the base is checked against the Kubernetes schemas, then none has a problem', async () => {
    expect(baseObjects.map((object) => object.kind)).toEqual(expect.arrayContaining(['Ingress', 'ServiceMonitor', 'ConfigMap', 'Deployment']));
    expect(await schemaProblems(baseObjects)).toEqual([]);
  });

  it('when a schema is broken on purpose, then the check names the object and the field', async () => {
    const deployment = structuredClone(baseObjects.find((object) => object.kind === 'Deployment')!);
    deployment.spec.template.spec.containers[0].ports[0].containerPort = 'eighty';

    expect(await schemaProblems([deployment])).toEqual([expect.stringMatching(/^Deployment gateway: .*containerPort must be integer/)]);
  });

  it('when images are named, then every process is pinned through images: to one release tag', () => {
    expect(baseKustomization.images.map((image) => image.name)).toEqual(IMAGES.map((name) => `rental/${name}`));
    const tags = new Set(baseKustomization.images.map((image) => image.newTag));
    expect(tags.size).toBe(1);
    expect([...tags][0]).toMatch(RELEASE_TAG);
  });

  it('when pricing reads its configuration, then HUB_URL is set', () => {
    expect(configMap.data?.HUB_URL).toMatch(/^https?:\/\/[^/]+/);
  });

  it("when the Ingress is read, then it terminates TLS and its body size and timeouts follow the gateway's settings", () => {
    expectIngressInStepWithGateway(
      baseObjects.find((object) => object.kind === 'Ingress'),
      'api.partner-rental.example',
    );
  });

  it("when the ServiceMonitor is read, then it selects every process's Service on the admin port each of them exposes, at /metrics", () => {
    const monitor = baseObjects.find((object) => object.kind === 'ServiceMonitor')!;
    expect(monitor.spec.selector).toEqual({ matchLabels: { 'app.kubernetes.io/part-of': 'partner-rental-api' } });
    expect(baseKustomization).toEqual(expect.objectContaining({ labels: [{ pairs: { 'app.kubernetes.io/part-of': 'partner-rental-api' } }] }));
    expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: 'admin', path: '/metrics' })]);
    for (const name of PROCESSES) {
      const service = baseObjects.find((object) => object.kind === 'Service' && object.metadata.name === name);
      expect([name, service?.spec.ports.map((port: { name: string }) => port.name)]).toEqual([name, expect.arrayContaining(['admin'])]);
    }
  });
});

describe('docker-compose.yml', () => {
  it('when its images are read, then each has a fixed tag, never latest, and ours use the release of deploy/k8s by default', () => {
    const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, { image?: string; build?: unknown }> };
    const release = baseKustomization.images[0]?.newTag;
    for (const [name, service] of Object.entries(compose.services)) {
      expect([name, service.image]).toEqual([name, expect.stringMatching(/^[a-z0-9./-]+:\S+$/)]);
      expect([name, service.image]).not.toEqual([name, expect.stringMatching(/:latest$/)]);
      if (service.build)
        expect([name, service.image]).toEqual([
          name,
          expect.stringMatching(new RegExp(`^rental/[a-z-]+:\\$\\{RENTAL_IMAGE_TAG:-${release!.replace(/\./g, '\\.')}\\}$`)),
        ]);
    }
  });
});

const binary = kustomizeBinary();

// Rendering needs kubectl or kustomize (`.ci/run` installs kubectl when neither is there): a
// missing binary fails here instead of skipping the rendered checks unnoticed.
describe('the overlays as kustomize renders them', () => {
  it('has kubectl or kustomize to render with', () => {
    expect(binary).toBeDefined();
  });

  async function render(environment: string): Promise<K8sObject[]> {
    const overlay = path.join(root, 'deploy', 'k8s', 'overlays', environment);
    const { stdout } = await run(binary as string, binary === 'kubectl' ? ['kustomize', overlay] : ['build', overlay], { maxBuffer: 16 * 1024 * 1024 });
    return parseAllDocuments(stdout).map((doc) => doc.toJS() as K8sObject);
  }

  it.each(Object.entries(ENVIRONMENTS))(
    'when the %s overlay is rendered, then every object is valid, in its namespace, on pinned images, behind its own host',
    async (environment, host) => {
      const objects = await render(environment);

      expect(await schemaProblems(objects)).toEqual([]);
      expect(
        objects.filter((object) => object.metadata.namespace !== `rental-${environment}`).map((object) => `${object.kind} ${object.metadata.name}`),
      ).toEqual([]);
      const images = objects
        .filter((object) => object.kind === 'Deployment' || object.kind === 'Job')
        .map((object) => object.spec.template.spec.containers[0].image)
        .sort();
      expect(images).toEqual(IMAGES.map((name) => `rental/${name}:${baseKustomization.images[0]?.newTag}`).sort());
      expectIngressInStepWithGateway(
        objects.find((object) => object.kind === 'Ingress'),
        host,
      );
      expect(objects.find((object) => object.kind === 'ConfigMap')?.data).toEqual(
        expect.objectContaining({ API_ENVIRONMENT: environment, HUB_URL: configMap.data?.HUB_URL }),
      );
      expect(objects.filter((object) => object.kind === 'ServiceMonitor')).toHaveLength(1);
    },
  );

  it('when the seed Job is rendered, then the seed file Secret is required in production and optional in the sandbox, which then loads nothing', async () => {
    const seedJobOf = async (environment: string) =>
      (await render(environment)).find((object) => object.kind === 'Job' && object.metadata.name === 'rental-seed')!.spec.template.spec;

    const production = await seedJobOf('production');
    const sandbox = await seedJobOf('sandbox');

    expect(production.volumes).toEqual([{ name: 'seed-file', secret: { secretName: 'rental-lenders' } }]);
    expect(production.containers[0].command).toEqual(['node', 'tools/stack/dist/cli/seed.js', '/seed/seed.json']);
    expect(sandbox.volumes).toEqual([{ name: 'seed-file', secret: { secretName: 'rental-lenders', optional: true } }]);
    expect(sandbox.containers[0].command).toEqual(['node', 'tools/stack/dist/cli/seed.js', '--if-present', '/seed/seed.json']);
  });
});
