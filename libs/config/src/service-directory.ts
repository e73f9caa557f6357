/**
 * Where each process listens. Locally every port is derived from SERVICE_PORT_BASE so that two
 * stacks run side by side; in a cluster each address is given explicitly (<NAME>_HTTP_URL,
 * <NAME>_GRPC_ADDR), which wins over the derived one.
 */
export const SERVICE_NAMES = ['pricing', 'cart-checkout', 'case-workflow', 'documents', 'notifications', 'backoffice', 'portal'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

const offsets: Record<ServiceName, number> = {
  pricing: 1,
  'cart-checkout': 2,
  'case-workflow': 3,
  documents: 4,
  notifications: 5,
  backoffice: 6,
  portal: 7,
};

/** Ports of the local helpers the development stack starts beside the services. */
export const LOCAL_HELPER_OFFSETS = { hubStub: 21, smtpSink: 22, objectStorage: 23, stackControl: 24, identityProvider: 25 } as const;

/** Every service owns one Postgres schema, named after it: case-workflow's is case_workflow. */
export function schemaOf(name: ServiceName): string {
  return name.replace(/-/g, '_');
}

export function variablePrefix(name: ServiceName): string {
  return name.toUpperCase().replace(/-/g, '_');
}

export function defaultHttpPort(name: ServiceName, portBase: number): number {
  return portBase + offsets[name];
}

export function defaultGrpcPort(name: ServiceName, portBase: number): number {
  return portBase + 10 + offsets[name];
}

export function httpUrlOf(name: ServiceName, portBase: number, env: NodeJS.ProcessEnv = process.env): string {
  return env[`${variablePrefix(name)}_HTTP_URL`] ?? `http://127.0.0.1:${defaultHttpPort(name, portBase)}`;
}

export function grpcAddressOf(name: ServiceName, portBase: number, env: NodeJS.ProcessEnv = process.env): string {
  return env[`${variablePrefix(name)}_GRPC_ADDR`] ?? `127.0.0.1:${defaultGrpcPort(name, portBase)}`;
}

/**
 * The gateway serves the partner access service (partners, API keys, their audit) on gRPC at
 * base +10, for the back office and the partner portal; GATEWAY_GRPC_ADDR wins.
 */
export const GATEWAY_GRPC_OFFSET = 10;

export function gatewayGrpcAddressOf(portBase: number, env: NodeJS.ProcessEnv = process.env): string {
  return env.GATEWAY_GRPC_ADDR ?? `127.0.0.1:${portBase + GATEWAY_GRPC_OFFSET}`;
}

/** Ports of the simulated outside parties of the production path (lender, signing provider, credit bureau). */
export const SIMULATOR_OFFSETS = { lender: 26, signing: 27, creditBureau: 28 } as const;

export function simulatorUrl(name: keyof typeof SIMULATOR_OFFSETS, portBase: number): string {
  return `http://127.0.0.1:${portBase + SIMULATOR_OFFSETS[name]}`;
}

/**
 * Admin ports (health, readiness, metrics): base +40 for the gateway, +40 + the service's offset
 * for a service (+41 … +47, backoffice and portal included). ADMIN_PORT wins.
 */
export const GATEWAY_ADMIN_OFFSET = 40;

export function defaultAdminPort(name: ServiceName | 'gateway', portBase: number): number {
  return portBase + GATEWAY_ADMIN_OFFSET + (name === 'gateway' ? 0 : offsets[name]);
}
