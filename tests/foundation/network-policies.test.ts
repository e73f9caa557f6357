import fs from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { GRPC_CALL_GRAPH } from '@rental/config';
import { grpcTlsVariables } from '@rental/grpc';

/**
 * The NetworkPolicies of deploy/k8s/base against the call graph written once in libs/config:
 * every Deployment is selected, the namespace denies by default, and the gRPC edges the
 * policies allow are exactly the calls the services make.
 */

const root = path.resolve(__dirname, '..', '..');
const base = path.join(root, 'deploy', 'k8s', 'base');
const kustomization = parse(fs.readFileSync(path.join(base, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
const documents = kustomization.resources.flatMap((file) => parseAllDocuments(fs.readFileSync(path.join(base, file), 'utf8')).map((doc) => doc.toJS()));
const policies = documents.filter((doc) => doc.kind === 'NetworkPolicy');
const deployments = documents.filter((doc) => doc.kind === 'Deployment').map((doc) => doc.metadata.name as string);

interface Selector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values: string[] }[];
}
interface Peer {
  podSelector?: Selector;
  namespaceSelector?: Selector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface Rule {
  from?: Peer[];
  to?: Peer[];
  ports?: { protocol: string; port: string | number }[];
}

/** The app labels a selector picks among the given ones ({} picks all). */
function appsOf(selector: Selector | undefined, candidates: string[]): string[] {
  if (!selector) return [];
  if (selector.matchLabels?.app) return candidates.filter((name) => name === selector.matchLabels!.app);
  const expression = selector.matchExpressions?.find((entry) => entry.key === 'app' && entry.operator === 'In');
  if (expression) return candidates.filter((name) => expression.values.includes(name));
  return Object.keys(selector.matchLabels ?? {}).length === 0 && !selector.matchExpressions ? candidates : [];
}

const PROCESSES = [...new Set([...deployments, ...Object.keys(GRPC_CALL_GRAPH)])];
const selectedApps = (policy: any) => appsOf(policy.spec.podSelector, PROCESSES);
const samePodPeers = (peers: Peer[] | undefined) => (peers ?? []).filter((peer) => !peer.namespaceSelector && !peer.ipBlock);
const opensPort = (rule: Rule, port: string | number) => (rule.ports ?? []).some((entry) => entry.port === port);
const callGraphEdges = Object.entries(GRPC_CALL_GRAPH)
  .flatMap(([caller, callees]) => callees.map((callee) => `${caller} -> ${callee}`))
  .sort();

describe('NetworkPolicies of deploy/k8s', () => {
  it('when read, then the namespace denies all ingress and egress by default', () => {
    const denyAll = policies.find((policy) => Object.keys(policy.spec.podSelector).length === 0 && !policy.spec.ingress && !policy.spec.egress);
    expect(denyAll?.spec.policyTypes).toEqual(['Ingress', 'Egress']);
  });

  it('when every Deployment is looked for, then a policy of its own selects it for ingress and egress', () => {
    for (const name of deployments) {
      const own = policies.find((policy) => policy.spec.podSelector.matchLabels?.app === name);
      expect({ name, policyTypes: own?.spec.policyTypes }).toEqual({ name, policyTypes: ['Ingress', 'Egress'] });
    }
  });

  it('when gRPC ingress and egress are read, then the edges they allow are exactly the call graph', () => {
    const ingressEdges = policies.flatMap((policy) =>
      selectedApps(policy).flatMap((callee) =>
        (policy.spec.ingress ?? [])
          .filter((rule: Rule) => opensPort(rule, 'grpc'))
          .flatMap((rule: Rule) => samePodPeers(rule.from).flatMap((peer) => appsOf(peer.podSelector, PROCESSES).map((caller) => `${caller} -> ${callee}`))),
      ),
    );
    const egressEdges = policies.flatMap((policy) =>
      selectedApps(policy).flatMap((caller) =>
        (policy.spec.egress ?? [])
          .filter((rule: Rule) => opensPort(rule, 'grpc'))
          .flatMap((rule: Rule) => samePodPeers(rule.to).flatMap((peer) => appsOf(peer.podSelector, PROCESSES).map((callee) => `${caller} -> ${callee}`))),
      ),
    );
    expect([...new Set(ingressEdges)].sort()).toEqual(callGraphEdges);
    expect([...new Set(egressEdges)].sort()).toEqual(callGraphEdges);
  });

  it("when the services' sources are read, then every gRPC peer a service opens is an edge of the call graph, and every edge is opened", () => {
    const entryPoints = [
      ...fs.readdirSync(path.join(root, 'services')).map((caller) => [caller, path.join(root, 'services', caller, 'src', 'service.ts')]),
      ['gateway', path.join(root, 'gateway', 'src', 'gateway.ts')],
    ];
    const opened = entryPoints.flatMap(([caller, file]) => {
      const source = fs.readFileSync(file!, 'utf8');
      return [
        ...[...source.matchAll(/grpcAddressOf\('([a-z-]+)'/g)].map(([, callee]) => `${caller} -> ${callee}`),
        ...(/gatewayGrpcAddressOf\(/.test(source) ? [`${caller} -> gateway`] : []),
      ];
    });
    expect([...new Set(opened)].sort()).toEqual(callGraphEdges);
  });

  it('when the public ports are read, then only the ingress controller reaches the gateway and only the gateway reaches a service', () => {
    const httpIngress = policies.flatMap((policy) =>
      selectedApps(policy).flatMap((app) =>
        (policy.spec.ingress ?? []).filter((rule: Rule) => opensPort(rule, 'http')).flatMap((rule: Rule) => (rule.from ?? []).map((peer) => ({ app, peer }))),
      ),
    );
    for (const { app, peer } of httpIngress) {
      if (app === 'gateway') expect(peer.namespaceSelector?.matchLabels).toEqual({ 'kubernetes.io/metadata.name': 'ingress-nginx' });
      else expect(peer).toEqual({ podSelector: { matchLabels: { app: 'gateway' } } });
    }
    expect(new Set(httpIngress.map(({ app }) => app))).toEqual(new Set(PROCESSES));
    const admin = policies.flatMap((policy) => (policy.spec.ingress ?? []).filter((rule: Rule) => opensPort(rule, 'admin')).flatMap((rule: Rule) => rule.from));
    expect(admin).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]);
  });

  it('when egress to the internet is allowed, then only on 443 and never to cluster or private ranges', () => {
    const PRIVATE = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '169.254.0.0/16', '127.0.0.0/8'];
    const internet = policies.flatMap((policy) =>
      (policy.spec.egress ?? [])
        .filter((rule: Rule) => (rule.to ?? []).some((peer) => peer.ipBlock))
        .map((rule: Rule) => ({ apps: selectedApps(policy), rule })),
    );
    expect(internet.flatMap(({ apps }) => apps).sort()).toEqual(['backoffice', 'case-workflow', 'notifications', 'portal', 'pricing']);
    for (const { rule } of internet) {
      expect(rule.ports).toEqual([{ protocol: 'TCP', port: 443 }]);
      for (const peer of rule.to ?? []) expect(peer.ipBlock).toEqual({ cidr: '0.0.0.0/0', except: PRIVATE });
    }
  });

  it('when services reach their data, then each may reach Postgres, NATS and object storage', () => {
    const reaches = (app: string, port: number) =>
      policies.some((policy) => selectedApps(policy).includes(app) && (policy.spec.egress ?? []).some((rule: Rule) => opensPort(rule, port)));
    for (const app of PROCESSES.filter((name) => name !== 'gateway')) {
      expect({ app, postgres: reaches(app, 5432), nats: reaches(app, 4222), objectStorage: reaches(app, 9000) }).toEqual({
        app,
        postgres: true,
        nats: true,
        objectStorage: true,
      });
    }
  });
});

describe('the optional gRPC mutual TLS component', () => {
  const component = path.join(root, 'deploy', 'k8s', 'components', 'grpc-mtls');
  const manifest = parse(fs.readFileSync(path.join(component, 'kustomization.yaml'), 'utf8')) as { kind: string; patches: { path: string }[] };
  const certificates = parseAllDocuments(fs.readFileSync(path.join(component, 'certificates.yaml'), 'utf8'))
    .map((doc) => doc.toJS())
    .filter((doc) => doc.kind === 'Certificate' && !doc.spec.isCA);

  it('when read, then every Deployment with a gRPC port mounts a certificate for its own Service name under the variables the code reads', () => {
    const withGrpc = documents
      .filter((doc) => doc.kind === 'Deployment' && doc.spec.template.spec.containers[0].ports.some((port: { name: string }) => port.name === 'grpc'))
      .map((doc) => doc.metadata.name)
      .sort();
    expect(manifest.kind).toBe('Component');
    expect(certificates.map((certificate) => certificate.spec.dnsNames).sort()).toEqual(withGrpc.map((name) => [name]));
    for (const { path: patchFile } of manifest.patches) {
      const patch = parse(fs.readFileSync(path.join(component, patchFile), 'utf8'));
      const name = patch.metadata.name as string;
      const container = patch.spec.template.spec.containers[0];
      expect(container.name).toBe(name);
      expect(container.env.map((entry: { name: string }) => entry.name).sort()).toEqual(Object.keys(grpcTlsVariables).sort());
      expect(patch.spec.template.spec.volumes).toEqual([
        { name: 'grpc-tls', secret: { secretName: certificates.find((c) => c.spec.dnsNames[0] === name).spec.secretName } },
      ]);
    }
    expect(manifest.patches.length).toBe(withGrpc.length);
  });
});
