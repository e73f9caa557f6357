export { startDocuments, bucketOf } from './service';
export { loadDocumentsConfig, documentsVariables } from './config';
/** For tests that migrate its schema step by step. */
export { migrations as documentsMigrations } from './migrations';
