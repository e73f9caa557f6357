import { createHmac, randomUUID } from 'node:crypto';
import { components, createPartnerApiClient } from '@rental/partner-api-client';
import { TestPartner, WebhookReceiver, createTestPartner, sampleCustomer, waitFor } from '@rental/testkit';
import { sharedStack } from '../support/shared-stack';

// The whole partner journey with the client generated from the API description: a type error
// here is a drift between what partners compile against and what the API does.

type StatusChanged = components['schemas']['FinancingCaseStatusChangedEvent'];

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let partner: TestPartner;
let hook: WebhookReceiver;

beforeAll(async () => {
  [partner, hook] = await Promise.all([createTestPartner(sharedStack(), { like: 'acme' }), WebhookReceiver.start()]);
});

afterAll(() => hook.close());

describe('the partner journey with the typed client', () => {
  it('when a partner calculates, checks out a cart, gets the sandbox acceptance and starts the e-signature, then each step answers as typed and signed status webhooks arrive', async () => {
    const api = createPartnerApiClient(sharedStack().gatewayUrl, partner.key);

    const endpoint = await api.POST('/api/webhook_endpoints', { body: { url: `${hook.url}/journey` } });
    expect(endpoint.response.status).toBe(201);
    const secret = endpoint.data?.secret as string;
    expect(secret).toMatch(/^whsec_/);

    const calculation = await api.POST('/api/calculate', {
      body: { durations: [36], calculationTypes: ['leasing'], acquisitionCost: 1000, productSector: 'IT_AND_OFFICE_EQUIPMENT' },
    });
    expect(calculation.response.status).toBe(201);
    expect(calculation.data?.response.offers).toEqual([
      { duration: 36, calculationType: 'leasing', rate: 34.3, rentalFactor: '3.180', commission: 0, residualValue: null, paymentInterval: 'monthly' },
    ]);

    const cart = await api.POST('/api/carts', {
      body: { items: [{ productNumber: 'LAPTOP-1', productName: 'Laptop', quantity: 1, price: 1000, categorySlug: 'laptops' }] },
    });
    expect(cart.response.status).toBe(201);
    const cartId = cart.data?.cartId as string;
    expect(cart.data).toEqual(
      expect.objectContaining({ cartId: expect.stringMatching(ULID), status: 'active', purchasePrice: 1000, recurringServiceFee: null, financeCaseId: null }),
    );
    expect(cart.data?.financingOptions).toContainEqual({ financingType: 'leasing', duration: 36, commission: 0, rate: 34.3, rentalFactor: '3.180' });

    const checkout = await api.POST('/api/carts/{id}/checkout', {
      params: { path: { id: cartId }, header: { 'Idempotency-Key': randomUUID() } },
      body: {
        duration: 36,
        financingType: 'leasing',
        customer: sampleCustomer,
      },
    });
    expect(checkout.response.status).toBe(201);
    const caseId = checkout.data?.financeCaseId as string;
    expect(checkout.data).toEqual({
      financeCaseId: expect.stringMatching(ULID),
      financeCaseLink: `${sharedStack().gatewayUrl}/api/financing_cases/${caseId}`,
      message: expect.any(String),
      quoteId: expect.stringMatching(ULID),
      quoteLink: `${sharedStack().gatewayUrl}/api/quotes/${checkout.data?.quoteId}`,
    });

    const inReview = await api.GET('/api/financing_cases/{id}', { params: { path: { id: caseId } } });
    expect([inReview.response.status, inReview.data?.status, inReview.data?.financingRequest]).toEqual([200, 'finance_review', true]);

    const decision = await api.POST('/api/sandbox/financing_cases/{id}/finance-decision', { params: { path: { id: caseId } }, body: { decision: 'accepted' } });
    expect([decision.response.status, decision.error]).toEqual([204, undefined]);

    const signature = await api.POST('/api/financing-cases/{financingCaseId}/start-esignature', {
      params: { path: { financingCaseId: caseId } },
      body: { authorizedPersons: [{ firstName: 'Anna', lastName: 'Berg', email: 'anna.berg@customer.example', soloSigneePermitted: true }] },
    });
    expect(signature.response.status).toBe(200);
    expect(signature.data).toEqual({
      financingCaseId: caseId,
      contractId: expect.stringMatching(ULID),
      envelopeId: expect.stringMatching(ULID),
      status: 'sent',
      authorizedPersons: [
        {
          id: expect.any(Number),
          firstName: 'Anna',
          lastName: 'Berg',
          email: 'anna.berg@customer.example',
          confirmedByExternal: false,
          soloSigneePermitted: true,
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
        },
      ],
    });

    const contract = await api.GET('/api/contracts/{id}', { params: { path: { id: signature.data?.contractId as string } } });
    expect([contract.response.status, contract.data?.status, contract.data?.signatureEnvelope?.status]).toEqual([200, 'wait_for_signing', 'sent']);

    // The acceptance and the new contract reach the receiver, each signed with the endpoint's secret.
    const eventOf = (request: { rawBody: Buffer }) => JSON.parse(request.rawBody.toString('utf8')) as StatusChanged;
    const received = await waitFor(
      () => {
        const mine = hook.requests.filter((request) => eventOf(request).data.financingCaseId === caseId);
        const changes = mine.map((request) => `${eventOf(request).data.resourceType} ${eventOf(request).data.transition}`);
        return changes.includes('quote finance_accept') && changes.includes('contract create') ? mine : undefined;
      },
      { timeoutMs: 20_000, what: 'the finance_accept and contract create webhooks' },
    );
    for (const request of received) {
      expect(request.headers['x-webhook-signature']).toBe(createHmac('sha256', secret).update(request.rawBody).digest('base64'));
      expect(request.headers['content-type']).toMatch(/^application\/json/);
    }
    const events = received.map(eventOf);
    const quoteId = checkout.data?.quoteId;
    expect(events.find((event) => event.data.transition === 'finance_accept')).toEqual({
      id: expect.any(String),
      event: 'financing_case.status_changed',
      occurredAt: expect.stringMatching(ISO),
      version: 1,
      data: {
        financingCaseId: caseId,
        quoteId,
        resourceType: 'quote',
        fromStatus: 'finance_review',
        toStatus: 'finance_accepted',
        status: 'finance_accepted',
        transition: 'finance_accept',
      },
    });
    expect(events.find((event) => event.data.transition === 'create' && event.data.resourceType === 'contract')?.data).toEqual({
      financingCaseId: caseId,
      quoteId,
      resourceType: 'contract',
      fromStatus: 'new',
      toStatus: 'wait_for_signing',
      status: 'finance_accepted',
      transition: 'create',
    });
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);

    // The endpoint's delivery log records them as succeeded once the receiver's answer is stored.
    const succeeded = await waitFor(
      async () => {
        const deliveries = await api.GET('/api/webhook_endpoints/{id}/deliveries', { params: { path: { id: endpoint.data?.id as string } } });
        expect(deliveries.response.status).toBe(200);
        const ids = (deliveries.data ?? []).filter((delivery) => delivery.status === 'succeeded').map((delivery) => delivery.eventId);
        return events.every((event) => ids.includes(event.id)) ? ids : undefined;
      },
      { timeoutMs: 10_000, what: 'the deliveries recorded as succeeded' },
    );
    expect(succeeded).toEqual(expect.arrayContaining(events.map((event) => event.id)));
  });

  it('when the typed client gets an error, then it surfaces the problem body as the typed error and no data', async () => {
    const api = createPartnerApiClient(sharedStack().gatewayUrl, partner.key);
    const missing = await api.GET('/api/financing_cases/{id}', { params: { path: { id: '01JZZZZZZZZZZZZZZZZZZZZZZZ' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.data).toBeUndefined();
    expect(missing.error).toEqual(
      expect.objectContaining({ status: 404, type: expect.any(String), title: 'Financing case not found', detail: expect.any(String) }),
    );
    const unauthenticated = await createPartnerApiClient(sharedStack().gatewayUrl, 'sbx_not_a_key').GET('/api/product-sectors');
    expect([unauthenticated.response.status, unauthenticated.error?.status]).toEqual([401, 401]);
  });
});
