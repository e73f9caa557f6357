import { runUntilSignal } from '@rental/http';
import { loadDocumentsConfig } from './config';
import { startDocuments } from './service';

runUntilSignal('documents', () => startDocuments(loadDocumentsConfig()));
