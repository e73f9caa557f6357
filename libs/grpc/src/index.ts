export * from './client';
export * from './metadata';
export * from './server';
export * from './status';
export { loadProtoPackage, PROTO_LOADER_OPTIONS } from './load';
export * from './identity';
export * from './tls';
