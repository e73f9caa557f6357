import { runUntilSignal } from '@rental/http';
import { loadBackofficeConfig } from './config';
import { startBackoffice } from './service';

runUntilSignal('backoffice', () => startBackoffice(loadBackofficeConfig()));
