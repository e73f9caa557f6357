import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

/** Must match the options the TypeScript types are generated with (proto/package.json). */
export const PROTO_LOADER_OPTIONS: protoLoader.Options = {
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

export function loadProtoPackage<T>(file: string, includeDirs: string[]): T {
  const definition = protoLoader.loadSync(file, { ...PROTO_LOADER_OPTIONS, includeDirs });
  return grpc.loadPackageDefinition(definition) as unknown as T;
}
