import * as grpc from '@grpc/grpc-js';
import { CALLER_HEADER, IDENTITY_HEADER, type Identity, IdentityKeys, IdentityRefused } from '@rental/identity';
import { firstValue } from './metadata';

interface InternalIdentity {
  service: string;
  keys: IdentityKeys;
}

let configured: InternalIdentity | undefined;

/**
 * Set once per process, before the first call or handler: the service host does it, and a test
 * that calls a service's gRPC port directly does it as the service it plays. Every outgoing call
 * then carries a signed identity naming this service, and every handler verifies the identity
 * of its caller; an unconfigured process can neither call nor be called.
 */
export function useInternalIdentity(service: string, keys: IdentityKeys): void {
  configured = { service, keys };
}

/** The metadata of one outgoing call: the signed identity and, in the clear, the calling service. */
export async function signedCallMetadata(partnerId: string | undefined): Promise<grpc.Metadata> {
  if (!configured) throw new Error('no internal identity: call useInternalIdentity(service, keys) before calling another service');
  const metadata = new grpc.Metadata();
  metadata.set(IDENTITY_HEADER, await configured.keys.sign({ caller: configured.service, partnerId, roles: [] }));
  metadata.set(CALLER_HEADER, configured.service);
  return metadata;
}

/** The caller's identity, or IdentityRefused when it is missing, forged, expired or names another caller. */
export async function verifyCallIdentity(metadata: grpc.Metadata): Promise<Identity> {
  if (!configured) throw new IdentityRefused('this process verifies no identities (useInternalIdentity was not called)');
  const identity = await configured.keys.verify(firstValue(metadata, IDENTITY_HEADER));
  if (identity.caller !== firstValue(metadata, CALLER_HEADER)) throw new IdentityRefused('the calling service does not match its signed identity');
  return identity;
}
