export * from './fixture';
export * from './managed-process';
export * from './seed';
export * from './smtp-sink';
export * from './stack';
