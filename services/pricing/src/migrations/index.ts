import type { Migration } from '@rental/db';
import * as catalogAndConditions from './0001_catalog_and_conditions';
import * as calculations from './0002_calculations';

export const migrations: Record<string, Migration> = {
  '0001_catalog_and_conditions': catalogAndConditions,
  '0002_calculations': calculations,
};
