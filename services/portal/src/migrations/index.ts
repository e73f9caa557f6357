import type { Migration } from '@rental/db';

/** The portal keeps no data of its own: the gateway owns keys and the audit, notifications the webhooks. */
export const migrations: Record<string, Migration> = {};
