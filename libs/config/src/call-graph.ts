/**
 * Who calls whose gRPC port: written once, read by the NetworkPolicy check
 * (tests/foundation/network-policies.test.ts) and by the deployment manifests' reviewers.
 * A service that starts calling another adds its edge here and to the callee's policy.
 */
export const GRPC_CALL_GRAPH: Readonly<Record<string, readonly string[]>> = {
  'cart-checkout': ['pricing', 'case-workflow'],
  'case-workflow': ['documents', 'pricing'],
  documents: ['case-workflow'],
  notifications: ['pricing'],
  pricing: ['case-workflow'],
  backoffice: ['case-workflow', 'documents', 'gateway', 'pricing'],
  portal: ['gateway', 'notifications'],
  // The gateway serves partners, keys and their audit (partner access) and passes conditions on to pricing.
  gateway: ['pricing'],
};
