import { runUntilSignal } from '@rental/http';
import { loadPortalConfig } from './config';
import { startPortal } from './service';

runUntilSignal('portal', () => startPortal(loadPortalConfig()));
