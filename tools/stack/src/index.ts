export * from './fixture';
export * from './managed-process';
export * from './seed';
export * from './simulators';
export * from './smtp-sink';
export * from './stack';
