export * from './fixture';
export * from './managed-process';
export * from './seed';
export * from './sign-in-guard';
export { seedOperators } from './identity-provider';
export * from './simulators';
export * from './smtp-sink';
export * from './stack';
