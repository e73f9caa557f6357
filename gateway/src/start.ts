import { runUntilSignal } from '@rental/http';
import { loadGatewayConfig } from './config';
import { startGateway } from './gateway';

runUntilSignal('gateway', () => startGateway(loadGatewayConfig()));
