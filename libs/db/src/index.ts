export * from './database';
export * from './unavailable';
export * from './notifications';
export * from './trace-columns';
export * from './rate-limits';
export * from './json-sql';
