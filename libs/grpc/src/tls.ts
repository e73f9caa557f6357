import fs from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { z } from 'zod';

/**
 * Optional mutual TLS between pods: when the three files are mounted (a cert-manager Secret, see
 * deploy/k8s/components/grpc-mtls), every gRPC server requires a client certificate of the same
 * CA and every client presents its own. Unset (the local stack), gRPC is plaintext and the signed
 * identity alone authenticates callers.
 */
export const grpcTlsVariables = {
  GRPC_TLS_CA_FILE: z.string().min(1).optional(),
  GRPC_TLS_CERT_FILE: z.string().min(1).optional(),
  GRPC_TLS_KEY_FILE: z.string().min(1).optional(),
};

interface TlsMaterial {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

let material: TlsMaterial | undefined;

/** Reads the files once at start; a partial set is a configuration error, never a silent plaintext. */
export function useGrpcTls(files: { GRPC_TLS_CA_FILE?: string; GRPC_TLS_CERT_FILE?: string; GRPC_TLS_KEY_FILE?: string }): void {
  const paths = [files.GRPC_TLS_CA_FILE, files.GRPC_TLS_CERT_FILE, files.GRPC_TLS_KEY_FILE];
  if (paths.every((file) => !file)) {
    material = undefined;
    return;
  }
  if (!paths.every(Boolean)) throw new Error('GRPC_TLS_CA_FILE, GRPC_TLS_CERT_FILE and GRPC_TLS_KEY_FILE are set together or not at all');
  material = { ca: fs.readFileSync(paths[0]!), cert: fs.readFileSync(paths[1]!), key: fs.readFileSync(paths[2]!) };
}

export function channelCredentials(): grpc.ChannelCredentials {
  return material ? grpc.credentials.createSsl(material.ca, material.key, material.cert) : grpc.credentials.createInsecure();
}

export function serverCredentials(): grpc.ServerCredentials {
  return material
    ? grpc.ServerCredentials.createSsl(material.ca, [{ cert_chain: material.cert, private_key: material.key }], true)
    : grpc.ServerCredentials.createInsecure();
}
