import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { CALLER_HEADER, IDENTITY_HEADER, IdentityKeys } from '@rental/identity';
import { createLogger } from '@rental/logger';
import { callUnary, createGrpcClient } from './client';
import { useInternalIdentity } from './identity';
import { RunningGrpcServer, startGrpcServer, unaryHandlers } from './server';
import { useGrpcTls } from './tls';

const json = { serialize: (value: unknown) => Buffer.from(JSON.stringify(value)), deserialize: (bytes: Buffer) => JSON.parse(bytes.toString()) };
const WHO_AM_I: grpc.ServiceDefinition = {
  WhoAmI: {
    path: '/test.Trust/WhoAmI',
    requestStream: false,
    responseStream: false,
    originalName: 'WhoAmI',
    requestSerialize: json.serialize,
    requestDeserialize: json.deserialize,
    responseSerialize: json.serialize,
    responseDeserialize: json.deserialize,
  },
};
const Client = grpc.makeGenericClientConstructor(WHO_AM_I, 'Trust');
const log = createLogger('test', 'silent');
const keys = new IdentityKeys('a-grpc-unit-test-secret-of-32-characters');

async function serve(): Promise<RunningGrpcServer> {
  return startGrpcServer('127.0.0.1', 0, [
    {
      definition: WHO_AM_I,
      implementation: unaryHandlers<{ WhoAmI: grpc.handleUnaryCall<unknown, { caller: string; partnerId: string }> }>(log, [], {
        WhoAmI: async (_request, context) => ({ caller: context.caller, partnerId: context.partnerId }),
      }),
    },
  ]);
}

const rawCall = (address: string, metadata: grpc.Metadata, credentials = grpc.credentials.createInsecure()) =>
  new Promise<grpc.ServiceError | null>((resolve) => {
    const client = new Client(address, credentials);
    client.makeUnaryRequest('/test.Trust/WhoAmI', json.serialize, json.deserialize, {}, metadata, { deadline: Date.now() + 3000 }, (error) => {
      client.close();
      resolve(error);
    });
  });

describe('gRPC identity of the caller', () => {
  let server: RunningGrpcServer;
  beforeAll(async () => {
    useGrpcTls({});
    useInternalIdentity('cart-checkout', keys);
    server = await serve();
  });
  afterAll(() => server.stop(0));

  it('when a configured service calls, then the handler sees its name and the partner it acts for', async () => {
    const client = createGrpcClient(Client, `127.0.0.1:${server.port}`);
    await expect(callUnary(client, 'WhoAmI', {}, { partnerId: 'acme', requestId: 'r-1' }, 3000)).resolves.toEqual({
      caller: 'cart-checkout',
      partnerId: 'acme',
    });
    client.close();
  });

  it('when a call carries only a partner in its metadata, then UNAUTHENTICATED and the handler never runs', async () => {
    const metadata = new grpc.Metadata();
    metadata.set('x-rental-partner-id', 'acme');
    metadata.set(CALLER_HEADER, 'cart-checkout');
    expect((await rawCall(`127.0.0.1:${server.port}`, metadata))?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('when the caller named in the clear differs from the signed one, then UNAUTHENTICATED', async () => {
    const metadata = new grpc.Metadata();
    metadata.set(IDENTITY_HEADER, await keys.sign({ caller: 'notifications', partnerId: 'acme', roles: [] }));
    metadata.set(CALLER_HEADER, 'cart-checkout');
    expect((await rawCall(`127.0.0.1:${server.port}`, metadata))?.code).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('when the identity is signed with another secret, then UNAUTHENTICATED', async () => {
    const metadata = new grpc.Metadata();
    metadata.set(
      IDENTITY_HEADER,
      await new IdentityKeys('another-secret-that-is-32-characters-long').sign({ caller: 'cart-checkout', partnerId: 'acme', roles: [] }),
    );
    metadata.set(CALLER_HEADER, 'cart-checkout');
    expect((await rawCall(`127.0.0.1:${server.port}`, metadata))?.code).toBe(grpc.status.UNAUTHENTICATED);
  });
});

describe('optional mutual TLS', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grpc-mtls-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  /** A CA and a certificate it signs for `localhost`, usable as server and client certificate. */
  const issue = (prefix: string) => {
    openssl(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${prefix} CA`,
      '-keyout',
      file(`${prefix}-ca.key`),
      '-out',
      file(`${prefix}-ca.crt`),
    );
    openssl(
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-keyout',
      file(`${prefix}.key`),
      '-out',
      file(`${prefix}.csr`),
    );
    fs.writeFileSync(file(`${prefix}.ext`), 'subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n');
    openssl(
      'x509',
      '-req',
      '-in',
      file(`${prefix}.csr`),
      '-CA',
      file(`${prefix}-ca.crt`),
      '-CAkey',
      file(`${prefix}-ca.key`),
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      file(`${prefix}.ext`),
      '-out',
      file(`${prefix}.crt`),
    );
    return { GRPC_TLS_CA_FILE: file(`${prefix}-ca.crt`), GRPC_TLS_CERT_FILE: file(`${prefix}.crt`), GRPC_TLS_KEY_FILE: file(`${prefix}.key`) };
  };
  let pod: ReturnType<typeof issue>;
  let stranger: ReturnType<typeof issue>;
  let server: RunningGrpcServer;

  beforeAll(async () => {
    pod = issue('cluster');
    stranger = issue('stranger');
    useInternalIdentity('backoffice', keys);
    useGrpcTls(pod);
    server = await serve();
  });
  afterAll(async () => {
    await server.stop(0);
    useGrpcTls({});
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('when both pods hold certificates of the cluster CA, then the call is answered', async () => {
    const client = createGrpcClient(Client, `localhost:${server.port}`);
    await expect(callUnary(client, 'WhoAmI', {}, { partnerId: 'acme' }, 3000)).resolves.toEqual({ caller: 'backoffice', partnerId: 'acme' });
    client.close();
  });

  it("when a caller has no client certificate, another CA's or speaks plaintext, then the connection is refused even with a valid identity", async () => {
    const metadata = new grpc.Metadata();
    metadata.set(IDENTITY_HEADER, await keys.sign({ caller: 'backoffice', roles: [] }));
    metadata.set(CALLER_HEADER, 'backoffice');
    const ca = fs.readFileSync(pod.GRPC_TLS_CA_FILE);
    const address = `localhost:${server.port}`;
    expect((await rawCall(address, metadata, grpc.credentials.createSsl(ca)))?.code).toBe(grpc.status.UNAVAILABLE);
    expect(
      (
        await rawCall(
          address,
          metadata,
          grpc.credentials.createSsl(ca, fs.readFileSync(stranger.GRPC_TLS_KEY_FILE), fs.readFileSync(stranger.GRPC_TLS_CERT_FILE)),
        )
      )?.code,
    ).toBe(grpc.status.UNAVAILABLE);
    expect((await rawCall(address, metadata))?.code).toBe(grpc.status.UNAVAILABLE);
  });

  it('when only some of the three files are given, then the process refuses to start', () => {
    expect(() => useGrpcTls({ GRPC_TLS_CA_FILE: pod.GRPC_TLS_CA_FILE })).toThrow(
      'GRPC_TLS_CA_FILE, GRPC_TLS_CERT_FILE and GRPC_TLS_KEY_FILE are set together or not at all',
    );
  });
});
