export * from './database';
export * from './unavailable';
export * from './trace-columns';
