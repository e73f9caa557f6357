export { startDocuments, bucketOf, DOCUMENTS_SCHEMA } from './service';
export { loadDocumentsConfig, documentsVariables } from './config';
