import type { CartItem } from './cart-item';
/**
 * What checkout needs from pricing (served over gRPC); amounts are decimal strings. Checkout never
 * computes a rate: baseRate and monthlyRateAllIn mean what pricing's rule (its domain/rates.ts) says.
 */
export interface FinancingOption {
  financingType: string;
  duration: number;
  commission: number;
  monthlyRateAllIn: string;
  rentalFactor: string;
}

export interface CartPricing {
  purchasePrice: string;
  financingOptions: FinancingOption[];
  items: { position: number; total: string; financingOptions: FinancingOption[] }[];
  recurringServiceFee: string | null;
}

export type CartStatus = 'active' | 'checking_out' | 'checked_out';

export interface Cart {
  id: string;
  partnerId: string;
  status: CartStatus;
  items: CartItem[];
  pricing: CartPricing;
  financingCaseId: string | null;
  quoteId: string | null;
  createdAt: string;
  updatedAt: string;
}
