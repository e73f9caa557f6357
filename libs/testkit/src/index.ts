export * from './api-client';
export * from './boot';
export * from './partners';
export * from './ports';
export * from './wait';
export * from './webhook-receiver';
export type { Stack, ProcessName, ReceivedMail } from '@rental/stack';
export * from './private-nats';
export * from './private-postgres';
