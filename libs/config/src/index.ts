export * from './load-config';
export * from './platform';
export * from './service-directory';
export * from './call-graph';
