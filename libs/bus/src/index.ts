export * from './bus';
export * from './names';
export * from './outbox';
export * from './validated';
