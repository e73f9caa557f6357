import type { Migration } from '@rental/db';
import * as documents from './0001_documents';

export const migrations: Record<string, Migration> = {
  '0001_documents': documents,
};
