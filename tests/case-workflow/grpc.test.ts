import { grpcAddressOf } from '@rental/config';
import { TypedClient, createGrpcClient } from '@rental/grpc';
import { loadCaseWorkflowPackage } from '@rental/proto';
import { sampleCustomer, sampleCustomerAddress, sampleDeliveryAddress, waitFor } from '@rental/testkit';
import { createCaseViaGrpc } from '../support/cases';
import { ISO, Owner, ULID, eventsOf, movesOf, newCase, newPartner, query, sharedStack } from './support/kit';

type Client = InstanceType<ReturnType<typeof loadCaseWorkflowPackage>['CaseWorkflowService']>;

let client: TypedClient<Client>;
let owner: Owner;

beforeAll(async () => {
  client = new TypedClient(createGrpcClient(loadCaseWorkflowPackage().CaseWorkflowService, grpcAddressOf('case-workflow', sharedStack().portBase, {})), 10_000);
  owner = await newPartner();
});
afterAll(() => client.close());

const customer = { ...sampleCustomer, phone: '', vatId: '', customerType: 'company' };
const terms = {
  calculationType: 'leasing',
  duration: 24,
  commission: 0,
  paymentInterval: 'monthly',
  rentalFactor: '4.5',
  residualValue: '',
  totalValue: '1500.00',
  monthlyCosts: '67.50',
  monthlyRateAllIn: '70.00',
  serviceCost: '',
  recurringServiceFee: '',
  productSector: 'IT_AND_OFFICE_EQUIPMENT',
  financingPartnerId: 'lender-a',
  distributionHubId: '',
  customSlaFileName: '',
};

async function rpcError(call: Promise<unknown>): Promise<{ kind: string; code: string; message: string }> {
  try {
    await call;
  } catch (error) {
    const { kind, code, message } = error as { kind: string; code: string; message: string };
    return { kind, code, message };
  }
  throw new Error('the call succeeded');
}

describe('CreateCaseFromCheckout', () => {
  it('when financing is submitted, then the case is created, accepted by the customer, sent to finance review and queued for the lender, with three events', async () => {
    const created = await createCaseViaGrpc(sharedStack(), owner.partner.id, { submitFinancing: true });
    expect(created).toEqual({
      financingCaseId: expect.stringMatching(ULID),
      quoteId: expect.stringMatching(ULID),
      caseNumber: expect.stringMatching(/^FC-\d{4}-\d{6}$/),
      quoteNumber: expect.stringMatching(/^Q-\d{4}-\d{6}$/),
      created: true,
      status: 'finance_review',
    });

    const financingCase = await owner.api.get(`/api/financing_cases/${created.financingCaseId}`);
    expect(financingCase.json).toEqual(expect.objectContaining({ caseNumber: created.caseNumber, status: 'finance_review', financingRequest: true }));
    const events = await eventsOf(created.financingCaseId);
    expect(events.map((event) => event.data)).toEqual([
      {
        financingCaseId: created.financingCaseId,
        quoteId: created.quoteId,
        resourceType: 'quote',
        fromStatus: 'new',
        toStatus: 'in_progress',
        status: 'in_progress',
        transition: 'create',
      },
      {
        financingCaseId: created.financingCaseId,
        quoteId: created.quoteId,
        resourceType: 'quote',
        fromStatus: 'in_progress',
        toStatus: 'accepted_by_customer',
        status: 'accepted_by_customer',
        transition: 'accept_by_customer',
      },
      {
        financingCaseId: created.financingCaseId,
        quoteId: created.quoteId,
        resourceType: 'quote',
        fromStatus: 'accepted_by_customer',
        toStatus: 'finance_review',
        status: 'finance_review',
        transition: 'request_finance_review',
      },
    ]);
    for (const event of events) {
      expect(event).toEqual({
        id: expect.stringMatching(ULID),
        event: 'financing_case.status_changed',
        occurredAt: expect.stringMatching(ISO),
        version: 1,
        data: expect.any(Object),
        partnerId: owner.partner.id,
        environment: 'sandbox',
      });
    }
    const times = events.map((event) => Date.parse(event.occurredAt));
    expect(times[0]! < times[1]! && times[1]! < times[2]!).toBe(true);
    expect(new Set(events.map((event) => event.id)).size).toBe(3);

    const quote = await waitFor(
      async () => {
        const read = await owner.api.get(`/api/quotes/${created.quoteId}`);
        return read.json.lenderSubmissionStatus === 'submitted' ? read.json : undefined;
      },
      { what: 'the lender submission to go through' },
    );
    expect(quote.lastLenderSubmissionAt).toMatch(ISO);
    expect(quote.statusUpdatedAt).toBe(events[2]!.occurredAt);
    expect(
      await query('SELECT status, attempts, reference, lender_id FROM lender_submissions WHERE financing_case_id = $1', [created.financingCaseId]),
    ).toEqual([
      {
        status: 'submitted',
        attempts: 1,
        reference: `SBX-${created.financingCaseId}-${(await query('SELECT id FROM lender_submissions WHERE financing_case_id = $1', [created.financingCaseId]))[0].id}`,
        lender_id: 'lender-a',
      },
    ]);
  });

  it('when financing is not submitted, then the quote stays in_progress without a financing request or lender submission, with one create event', async () => {
    const { caseId, quoteId } = await newCase(owner, { submitFinancing: false });
    expect((await owner.api.get(`/api/financing_cases/${caseId}`)).json).toEqual(expect.objectContaining({ status: 'in_progress', financingRequest: false }));
    expect((await owner.api.get(`/api/quotes/${quoteId}`)).json).toEqual(
      expect.objectContaining({ status: 'in_progress', lenderSubmissionStatus: null, lastLenderSubmissionAt: null }),
    );
    expect(await movesOf(caseId)).toEqual(['quote:new>in_progress:create:in_progress']);
    expect(await query('SELECT id FROM lender_submissions WHERE financing_case_id = $1', [caseId])).toEqual([]);
  });

  it('when the same cart comes again, then the first case is returned with created false and nothing new happens', async () => {
    const cartId = `CART-${Date.now()}-repeat`;
    const first = await createCaseViaGrpc(sharedStack(), owner.partner.id, { cartId });
    const again = await createCaseViaGrpc(sharedStack(), owner.partner.id, { cartId, submitFinancing: false });
    expect(again).toEqual({ ...first, created: false });
    expect(await eventsOf(first.financingCaseId)).toHaveLength(3);
    expect(await query('SELECT id FROM financing_cases WHERE cart_id = $1', [cartId])).toHaveLength(1);
  });

  it('when two creations for one cart race, then one creates the case and the other gets it with created false', async () => {
    const cartId = `CART-${Date.now()}-race`;
    const results = await Promise.all([
      createCaseViaGrpc(sharedStack(), owner.partner.id, { cartId }),
      createCaseViaGrpc(sharedStack(), owner.partner.id, { cartId }),
    ]);
    expect(results.map((result) => result.created).sort()).toEqual([false, true]);
    expect(results[0]!.financingCaseId).toBe(results[1]!.financingCaseId);
    expect(await eventsOf(results[0]!.financingCaseId)).toHaveLength(3);
  });

  it('when another partner checks out a cart with the same id, then it gets a case of its own', async () => {
    const other = await newPartner();
    const cartId = `CART-${Date.now()}-shared-id`;
    const mine = await createCaseViaGrpc(sharedStack(), owner.partner.id, { cartId });
    const theirs = await createCaseViaGrpc(sharedStack(), other.partner.id, { cartId });
    expect(theirs.created).toBe(true);
    expect(theirs.financingCaseId).not.toBe(mine.financingCaseId);
  });

  it('when a quote number is given, then the quote carries it; reused by the partner it is a conflict, another partner may use it', async () => {
    const quoteNumber = `PO-${Date.now()}`;
    const created = await createCaseViaGrpc(sharedStack(), owner.partner.id, { quoteNumber });
    expect(created.quoteNumber).toBe(quoteNumber);
    expect((await owner.api.get(`/api/quotes/${created.quoteId}`)).json.quoteNumber).toBe(quoteNumber);

    const casesBefore = (await query('SELECT count(*)::int AS n FROM financing_cases WHERE partner_id = $1', [owner.partner.id]))[0].n;
    expect(await rpcError(createCaseViaGrpc(sharedStack(), owner.partner.id, { quoteNumber }))).toEqual({
      kind: 'conflict',
      code: 'quote.number_taken',
      message: `The quote number ${quoteNumber} is already used by another quote of the partner.`,
    });
    expect((await query('SELECT count(*)::int AS n FROM financing_cases WHERE partner_id = $1', [owner.partner.id]))[0].n).toBe(casesBefore);

    const other = await newPartner();
    expect((await createCaseViaGrpc(sharedStack(), other.partner.id, { quoteNumber })).quoteNumber).toBe(quoteNumber);
  });

  it('when the next generated quote numbers are ones the partner chose for quotes of its own, then the new quote gets a number after them', async () => {
    const partner = await newPartner();
    const [{ next }] = await query('SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END AS next FROM quote_number_seq');
    const year = new Date().getUTCFullYear();
    const chosen = Array.from({ length: 5 }, (_, i) => `Q-${year}-${String(Number(next) + i).padStart(6, '0')}`);
    for (const quoteNumber of chosen) await createCaseViaGrpc(sharedStack(), partner.partner.id, { quoteNumber });

    const generated = await createCaseViaGrpc(sharedStack(), partner.partner.id, {});

    expect(generated.created).toBe(true);
    expect(generated.quoteNumber).toMatch(/^Q-\d{4}-\d{6}$/);
    expect(Number(generated.quoteNumber.slice(7))).toBeGreaterThan(Number(next) + chosen.length - 1);
    expect((await partner.api.get(`/api/quotes/${generated.quoteId}`)).json.quoteNumber).toBe(generated.quoteNumber);
  });

  it('when the quote is frozen, then it carries the items, terms, cart and the delivery address as shipping address; no authorized persons yet', async () => {
    const deliveryAddress = { ...sampleDeliveryAddress, company: '' };
    const items = [
      {
        position: 1,
        productNumber: 'LAPTOP-1',
        productName: 'Laptop',
        productSku: 'SKU-1',
        quantity: 2,
        pricePerItem: '500.00',
        total: '1000.00',
        categoryId: 1,
        categorySlug: 'laptops',
        productOptions: { color: 'grey' } as Record<string, string>,
      },
      {
        position: 2,
        productNumber: 'DOCK-1',
        productName: '',
        productSku: '',
        quantity: 1,
        pricePerItem: '500.05',
        total: '500.05',
        categoryId: 0,
        categorySlug: '',
        productOptions: {} as Record<string, string>,
      },
    ];
    const cartId = `CART-${Date.now()}-frozen`;
    const created = await createCaseViaGrpc(sharedStack(), owner.partner.id, {
      cartId,
      items,
      customer,
      hasDeliveryAddress: true,
      deliveryAddress,
      terms: { ...terms, residualValue: '10.5', recurringServiceFee: '12.5' },
      submitFinancing: false,
    });
    const quote = (await owner.api.get(`/api/quotes/${created.quoteId}`)).json;
    expect(quote).toEqual(
      expect.objectContaining({
        calculationType: 'leasing',
        duration: 24,
        commissionPercentage: 0,
        paymentInterval: 'monthly',
        rentalFactor: '4.500',
        residualValue: '10.500',
        recurringService: '12.50',
        totalValue: 1500,
        monthlyCosts: 67.5,
        monthlyRateAllIn: 70,
        selectedOffer: { calculationType: 'leasing', duration: 24, rate: 67.5 },
        productSector: 'IT_AND_OFFICE_EQUIPMENT',
        distributionHub: null,
        cart: `/api/carts/${cartId}`,
        quoteRequest: null,
        calculation: null,
        authorizedPersons: [],
        shippingAddress: sampleDeliveryAddress,
        effectiveShippingAddress: sampleDeliveryAddress,
        customer: { ...customer, phone: null, vatId: null },
      }),
    );
    expect(quote.items).toEqual([
      {
        position: 1,
        quantity: 2,
        pricePerItem: 500,
        total: 1000,
        productNumber: 'LAPTOP-1',
        productName: 'Laptop',
        productSku: 'SKU-1',
        categorySlug: 'laptops',
      },
      { position: 2, quantity: 1, pricePerItem: 500.05, total: 500.05, productNumber: 'DOCK-1', productName: null, productSku: null, categorySlug: null },
    ]);
  });

  it("when there is no delivery address, then the customer's address is the shipping address", async () => {
    const created = await createCaseViaGrpc(sharedStack(), owner.partner.id, { customer });
    expect((await owner.api.get(`/api/quotes/${created.quoteId}`)).json.shippingAddress).toEqual(sampleCustomerAddress);
  });

  it('when the call carries no partner or malformed terms, then it is invalid input and nothing is created', async () => {
    const refusal = (request: Record<string, unknown>, metadata: Record<string, string>) => rpcError(client.call('CreateCaseFromCheckout', request, metadata));
    const ofPartner = { partnerId: owner.partner.id };
    expect(await refusal({ cartId: 'CART-x', items: [], customer, terms }, { requestId: 'no-partner' })).toEqual(
      expect.objectContaining({ kind: 'invalid_input', code: 'case.partner_missing' }),
    );
    expect(await refusal({ cartId: 'CART-y', items: [], customer, terms: { ...terms, totalValue: '12,50' } }, ofPartner)).toEqual(
      expect.objectContaining({ kind: 'invalid_input', code: 'case.invalid_amount' }),
    );
    expect(await refusal({ cartId: 'CART-z', items: [], customer, terms: { ...terms, calculationType: 'barter' } }, ofPartner)).toEqual(
      expect.objectContaining({ kind: 'invalid_input', code: 'case.invalid_terms' }),
    );
    expect(await query("SELECT id FROM financing_cases WHERE cart_id IN ('CART-x', 'CART-y', 'CART-z')")).toEqual([]);
  });
});

describe('CreateCaseFromQuoteRequest', () => {
  it('when a quote request is filed, then its case has an in_progress quote without financing request, linked to the request and the calculation', async () => {
    const quoteRequestId = String(Date.now() % 1_000_000_000);
    const request = {
      quoteRequestId,
      calculationId: '01JCALCULATION0000000000000',
      customer,
      terms,
      contactPhone: '+49 30 1',
      contactEmail: 'buyer@customer.example',
    };
    const created = await client.call('CreateCaseFromQuoteRequest', request, { partnerId: owner.partner.id });
    expect(created).toEqual({
      financingCaseId: expect.stringMatching(ULID),
      quoteId: expect.stringMatching(ULID),
      caseNumber: expect.stringMatching(/^FC-/),
      quoteNumber: expect.stringMatching(/^Q-/),
      created: true,
      status: 'in_progress',
    });
    expect((await owner.api.get(`/api/financing_cases/${created.financingCaseId}`)).json).toEqual(
      expect.objectContaining({ status: 'in_progress', financingRequest: false }),
    );
    expect((await owner.api.get(`/api/quotes/${created.quoteId}`)).json).toEqual(
      expect.objectContaining({
        status: 'in_progress',
        quoteRequest: `/api/quote_requests/${quoteRequestId}`,
        calculation: '/api/calculations/01JCALCULATION0000000000000',
        cart: null,
        items: [],
        contactPhone: '+49 30 1',
        contactEmail: 'buyer@customer.example',
        lenderSubmissionStatus: null,
      }),
    );
    expect(await movesOf(created.financingCaseId)).toEqual(['quote:new>in_progress:create:in_progress']);

    const again = await client.call('CreateCaseFromQuoteRequest', request, { partnerId: owner.partner.id });
    expect(again).toEqual({ ...created, created: false });
  });
});

describe('GetCaseAccess', () => {
  it('when a case exists, then its owner, status and quote are told; an unknown id does not exist', async () => {
    const { caseId, quoteId } = await newCase(owner);
    expect(await client.call('GetCaseAccess', { financingCaseId: caseId }, { partnerId: 'someone-else' })).toEqual({
      exists: true,
      partnerId: owner.partner.id,
      status: 'finance_review',
      quoteId,
    });
    expect(await client.call('GetCaseAccess', { financingCaseId: '01JABCDEFGHJKMNPQRSTVWXYZ0' }, {})).toEqual({
      exists: false,
      partnerId: '',
      status: '',
      quoteId: '',
    });
    expect(await client.call('GetCaseAccess', { financingCaseId: "x' OR 1=1" }, {})).toEqual({ exists: false, partnerId: '', status: '', quoteId: '' });
  });
});
