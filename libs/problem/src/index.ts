export * from './domain-error';
export * from './problem';
export * from './zod-violations';
export * from './violations';
export * from './text-integrity';
