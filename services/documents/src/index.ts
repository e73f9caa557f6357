export { startDocuments, bucketOf } from './service';
export { loadDocumentsConfig, documentsVariables } from './config';
