import type { Cart } from './model/cart';
import type { CartItem } from './model/cart-item';
import type { CheckoutOutcome, CheckoutStart, IdempotencyKeyRef, IdempotencyStart, PrintPlanContractTerms } from './model/checkout';
import type { CaseStatusChange, QuoteRequest } from './model/quote-request';
import type { CartPricing } from './model/cart';

export interface CheckoutTermsInput {
  financingType: string;
  duration: number;
  paymentInterval: string;
  commission?: number;
  serviceCost?: number | null;
  customSlaFileName?: string | null;
}

export interface FrozenTerms {
  financingType: string;
  duration: number;
  commission: number;
  paymentInterval: string;
  rentalFactor: string;
  residualValue: string;
  purchasePrice: string;
  baseRate: string;
  monthlyRateAllIn: string;
  serviceCost: string;
  recurringServiceFee: string;
  productSector: string;
  financingPartnerId: string;
  distributionHubId: string;
  customSlaFileName: string;
}

export interface StoredOffer {
  duration: number;
  calculationType: string;
  monthlyRateAllIn: string;
  baseRate: string;
  rentalFactor: string;
  commission: number;
  residualValue: string;
}

export interface StoredCalculation {
  id: string;
  productSector: string;
  categorySlug: string;
  paymentInterval: string;
  serviceCost: string;
  financedAmount: string;
  offers: StoredOffer[];
}

export interface CallContext {
  partnerId: string;
  requestId: string;
}

export interface PricingPort {
  /** Also refuses a cart that mixes article types (422, one MIXED_ARTICLE_TYPES violation per item), as freezeCheckoutTerms does. */
  priceCart(items: CartItem[], context: CallContext): Promise<CartPricing>;
  freezeCheckoutTerms(items: CartItem[], terms: CheckoutTermsInput, context: CallContext): Promise<FrozenTerms>;
  /** undefined when the partner has no such calculation */
  findCalculation(id: string, context: CallContext): Promise<StoredCalculation | undefined>;
  financingPartnerOf(context: CallContext): Promise<{ financingPartnerId: string; distributionHubId: string }>;
}

export interface Customer {
  firstName?: string;
  lastName?: string;
  email?: string;
  street?: string;
  houseNumber?: string;
  zipCode?: string;
  city?: string;
  country?: string;
  phone?: string;
  company: string;
  vatId?: string;
  customerType?: string;
}

export interface DeliveryAddress {
  recipientName: string;
  company?: string | null;
  street: string;
  houseNumber: string;
  zipCode: string;
  city: string;
  country: string;
}

export interface CreatedCase {
  financingCaseId: string;
  quoteId: string;
  created: boolean;
  /** The case's (its quote's) status right after the call. */
  status: string;
}

export interface NewCheckoutCase {
  cartId: string;
  items: CartItem[];
  customer: Customer;
  deliveryAddress?: DeliveryAddress;
  terms: FrozenTerms;
  printPlanTerms?: PrintPlanContractTerms;
  submitFinancing: boolean;
  quoteNumber?: string | null;
}

export interface NewQuoteRequestCase {
  quoteRequestId: string;
  calculationId: string;
  customer: Customer;
  terms: FrozenTerms;
  contactPhone?: string | null;
  contactEmail?: string | null;
}

/** What checkout needs from case-workflow (served over gRPC). */
export interface CaseWorkflowPort {
  createCaseFromCheckout(request: NewCheckoutCase, context: CallContext): Promise<CreatedCase>;
  createCaseFromQuoteRequest(request: NewQuoteRequestCase, context: CallContext): Promise<CreatedCase>;
}

export interface IdempotencyStore {
  begin(partnerId: string, key: string, requestHash: string, leaseMs: number): Promise<IdempotencyStart>;
  /** Forgets a key whose request failed, so the same request can be retried. */
  abandon(partnerId: string, key: string): Promise<void>;
}

export interface CheckoutCarts extends CartStore {
  /**
   * Claims an active cart (or one whose claim went stale) for one checkout: the cart as claimed
   * (its items can no longer change), else why not.
   */
  claim(id: string, leaseMs: number): Promise<Cart | 'checked_out' | 'running'>;
  release(id: string): Promise<void>;
}

/** What a running checkout holds, and how it ends. */
export interface CheckoutLedger {
  /**
   * Begins a checkout of the caller's cart in one round trip: reads the cart, records the key as
   * running when it is new (only for the caller's own cart), and claims the cart when the key was
   * new or none was given (with the lease of `claim`). A key seen before is left as it is.
   */
  start(cartId: string, partnerId: string, key: { key: string; requestHash: string } | undefined, leaseMs: number): Promise<CheckoutStart<Cart>>;
  /** Renews the lease on the claimed cart (when given) and on the running key (when given). */
  renew(cartId: string | undefined, key: IdempotencyKeyRef | undefined): Promise<void>;
  /**
   * Marks the cart checked out and keeps the outcome under the key, in one transaction: a crash
   * between the two would leave a checked-out cart whose retry can no longer get its answer.
   */
  complete(cartId: string, outcome: CheckoutOutcome, key: IdempotencyKeyRef | undefined): Promise<void>;
}

/** The request for a quote request's case, as kept with it (its id is the quote request's). */
export type QuoteRequestCaseRequest = Omit<NewQuoteRequestCase, 'quoteRequestId'>;

export interface QuoteRequestStore {
  /** Files a quote request (status new) with the request for its case, committed before case-workflow is asked. */
  fileNew(partnerId: string, calculationId: string, fields: QuoteRequest['fields'], caseRequest: QuoteRequestCaseRequest): Promise<QuoteRequest>;
  /** Links a new quote request to its case (quote_created, with its event); when it was linked already, the quote request as it is. */
  linkCase(id: number, created: CreatedCase): Promise<QuoteRequest>;
  /** Removes a quote request still new (case-workflow refused its case, so none exists). */
  discardNew(id: number): Promise<void>;
  /** Quote requests still new that were filed before `filedBefore` (their filing was interrupted), with the request for their case. */
  listInterrupted(filedBefore: Date, limit: number): Promise<{ quoteRequest: QuoteRequest; caseRequest: QuoteRequestCaseRequest }[]>;
  /** Moves the quote request of a case from quote_created to canceled with its event; false when none was there to move. */
  cancelOfCase(change: CaseStatusChange): Promise<boolean>;
  find(partnerId: string, id: number): Promise<QuoteRequest | undefined>;
  list(partnerId: string, limit: number, offset: number): Promise<QuoteRequest[]>;
}

export interface CartStore {
  insert(cart: Cart): Promise<void>;
  /** The cart whatever its owner; callers decide between 403 and 404. */
  find(id: string): Promise<Cart | undefined>;
  /** Replaces items and pricing of an active cart; false when it is no longer active. */
  replaceItems(id: string, partnerId: string, items: CartItem[], pricing: CartPricing): Promise<boolean>;
}
