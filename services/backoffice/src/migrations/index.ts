import type { Migration } from '@rental/db';

/** The back office keeps no data of its own: case-workflow and documents own what it shows. */
export const migrations: Record<string, Migration> = {};
