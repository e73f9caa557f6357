import { createHash } from 'node:crypto';
import { z } from 'zod';
import { hasAtMostTwoDecimals } from '@rental/money';
import { DomainError, conflict, emailAddress, forbidden, nonBlankText, notFound, ruleViolation } from '@rental/problem';
import { CHECKOUT_FINANCING_TYPES, PAYMENT_INTERVALS, PRINT_PLAN_TYPES } from '@rental/proto';
import type { Cart } from './model/cart';
import type { CallContext, CaseWorkflowPort, CheckoutCarts, CheckoutLedger, IdempotencyStore, PricingPort } from './ports';
import { printPlanContractTerms } from './model/checkout';
import type { CheckoutOutcome } from './model/checkout';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/**
 * A running checkout renews the lease on its cart claim and Idempotency-Key every
 * CHECKOUT_LEASE_RENEWAL_MS; a lease not renewed for CHECKOUT_LEASE_MS died with its process and
 * is taken over by the next request. Taking over a checkout that is in fact alive is harmless:
 * case-workflow creates one case per cart, whoever asks.
 */
export const CHECKOUT_LEASE_MS = 10_000;
export const CHECKOUT_LEASE_RENEWAL_MS = 2_000;

const text = (max = 200) => z.string().max(max);

export const checkoutCustomer = z
  .object({
    firstName: text().optional(),
    lastName: text().optional(),
    email: emailAddress().max(320).optional(),
    street: text().optional(),
    houseNumber: text(20).optional(),
    zipCode: text(20).optional(),
    city: text().optional(),
    country: text(100).optional(),
    phone: text(50).optional(),
    company: nonBlankText().max(300),
    vatId: text(50).optional(),
  })
  .strict()
  .meta({ id: 'CheckoutCustomer' });

const required = (max = 200) => nonBlankText().max(max);

export const deliveryAddress = z
  .object({
    recipientName: required(),
    company: text(300).nullable().optional(),
    street: required(),
    houseNumber: required(20),
    zipCode: required(20),
    city: required(),
    country: required(100),
  })
  .strict()
  .meta({ id: 'DeliveryAddress' });

export const checkoutBody = z
  .object({
    duration: z.number().int().min(1).max(600).describe('Months'),
    financingType: z.enum(CHECKOUT_FINANCING_TYPES),
    customer: checkoutCustomer,
    paymentInterval: z.enum(PAYMENT_INTERVALS).default('monthly'),
    commission: z.number().int().min(0).max(100).optional().describe('Commission tier in percent; default is the preselected tier'),
    quoteNumber: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9._/-]+$/, 'Letters, digits and . _ / - only.')
      .nullable()
      .optional()
      .describe('Custom quote number, unique per partner'),
    submitFinancing: z
      .boolean()
      .default(true)
      .describe('false creates the quote only (status in_progress, no financing request); a non-boolean value gives 400'),
    printPlanContractTerms: printPlanContractTerms.optional().describe('Only applied for Print-Plan financing types'),
    deliveryAddress: deliveryAddress.optional(),
    serviceCost: z
      .number()
      .min(0)
      .max(1_000_000)
      .refine(hasAtMostTwoDecimals, { message: 'This value must have at most two decimals.', params: { code: 'validation.format' } })
      .nullable()
      .optional()
      .describe('Monthly service fee for rent; not allowed for Print-Plan'),
    customSlaFileName: z
      .string()
      .max(200)
      .nullable()
      .optional()
      .describe('Identifier of a custom SLA (GET /api/sla-files); required for rent, not allowed for Print-Plan'),
  })
  .strict()
  .meta({ id: 'CheckoutRequest' });

export type CheckoutRequest = z.infer<typeof checkoutBody>;

export interface CheckoutDependencies {
  carts: CheckoutCarts;
  idempotency: IdempotencyStore;
  ledger: CheckoutLedger;
  pricing: PricingPort;
  caseWorkflow: CaseWorkflowPort;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Same cart and same body (whatever the key order) give the same hash. */
export function checkoutRequestHash(cartId: string, body: unknown): string {
  return createHash('sha256').update(cartId).update('\n').update(canonicalJson(body)).digest('hex');
}

async function checkOutClaimedCart(cart: Cart, request: CheckoutRequest, deps: CheckoutDependencies, context: CallContext): Promise<CheckoutOutcome> {
  const cartId = cart.id;
  const printPlan = PRINT_PLAN_TYPES.has(request.financingType);
  const terms = await deps.pricing.freezeCheckoutTerms(
    cart.items,
    {
      financingType: request.financingType,
      duration: request.duration,
      paymentInterval: request.paymentInterval,
      commission: request.commission,
      serviceCost: request.serviceCost,
      customSlaFileName: request.customSlaFileName,
    },
    context,
  );
  const created = await deps.caseWorkflow.createCaseFromCheckout(
    {
      cartId,
      items: cart.items,
      customer: { ...request.customer, customerType: 'company' },
      deliveryAddress: request.deliveryAddress,
      terms,
      printPlanTerms: printPlan ? (request.printPlanContractTerms ?? printPlanContractTerms.parse({})) : undefined,
      submitFinancing: request.submitFinancing,
      quoteNumber: request.quoteNumber,
    },
    context,
  );
  return { financingCaseId: created.financingCaseId, quoteId: created.quoteId, submitFinancing: request.submitFinancing };
}

/** Runs `work` while renewing the leases `renew` names every CHECKOUT_LEASE_RENEWAL_MS. */
async function keepingLeases<T>(renew: () => Promise<void>, work: () => Promise<T>): Promise<T> {
  // A failed renewal only lets the lease run out earlier; a takeover is harmless (see CHECKOUT_LEASE_MS).
  const timer = setInterval(() => void renew().catch(() => undefined), CHECKOUT_LEASE_RENEWAL_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/**
 * Checks a cart out into a quote and financing case. Every rule is checked before case-workflow
 * creates anything; a failure leaves the cart active and the idempotency key free for a retry.
 * The cart claim makes two concurrent checkouts of one cart give one 201 and one 409; the key
 * makes a retried request give the first answer again.
 */
export async function checkOut(
  cartId: string,
  request: CheckoutRequest,
  requestHash: string,
  idempotencyKey: string | undefined,
  deps: CheckoutDependencies,
  context: CallContext,
): Promise<CheckoutOutcome> {
  const started = await deps.ledger.start(
    cartId,
    context.partnerId,
    idempotencyKey === undefined ? undefined : { key: idempotencyKey, requestHash },
    CHECKOUT_LEASE_MS,
  );
  if (!started.cart) throw notFound('cart.not_found', `No cart ${cartId}.`);
  if (started.cart.partnerId !== context.partnerId) throw forbidden('cart.forbidden', 'This cart belongs to another partner.');
  if (idempotencyKey !== undefined && started.key === 'seen') {
    const start = await deps.idempotency.begin(context.partnerId, idempotencyKey, requestHash, CHECKOUT_LEASE_MS);
    if (start.outcome === 'replay') return start.checkout;
    if (start.outcome === 'mismatch') {
      throw ruleViolation('idempotency.key_reused', 'This Idempotency-Key was used with a different request body.', [
        {
          propertyPath: 'Idempotency-Key',
          code: 'idempotency.key_reused',
          message: 'The key was used before with a different body; use a new key for a new request.',
        },
      ]);
    }
    if (start.outcome === 'running') throw conflict('checkout.running', 'A checkout with this Idempotency-Key is still running; retry shortly.');
  }
  const key = idempotencyKey === undefined ? undefined : { partnerId: context.partnerId, key: idempotencyKey };
  let claimed = false;
  try {
    return await keepingLeases(
      () => deps.ledger.renew(claimed ? cartId : undefined, key),
      async () => {
        const claimedCart = started.claim ?? (await deps.carts.claim(cartId, CHECKOUT_LEASE_MS));
        if (claimedCart === 'checked_out') throw conflict('cart.already_checked_out', 'This cart has already been checked out.');
        if (claimedCart === 'running') throw conflict('checkout.running', 'A checkout of this cart is still running.');
        claimed = true;
        let outcome: CheckoutOutcome;
        try {
          outcome = await checkOutClaimedCart(claimedCart, request, deps, context);
        } catch (error) {
          await deps.carts.release(cartId);
          throw error;
        }
        await deps.ledger.complete(cartId, outcome, key);
        return outcome;
      },
    );
  } catch (error) {
    if (idempotencyKey !== undefined) await deps.idempotency.abandon(context.partnerId, idempotencyKey).catch(() => undefined);
    throw error;
  }
}

export function isSubmitFinancingTypeError(error: DomainError): boolean {
  return error.violations?.some((violation) => violation.propertyPath === 'submitFinancing' && violation.code === 'validation.type') ?? false;
}
