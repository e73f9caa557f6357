import { runUntilSignal } from '@rental/http';
import { loadPricingConfig } from './config';
import { startPricing } from './service';

runUntilSignal('pricing', () => startPricing(loadPricingConfig()));
