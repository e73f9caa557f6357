/**
 * Edge input: text with NUL characters or lone surrogates, bodies whose bytes are not their
 * Content-Encoding, and values Postgres refuses, answered or logged without leaking them.
 */
import { brotliCompressSync } from 'node:zlib';
import { Client } from 'pg';
import { serializeError } from '@rental/logger';
import { Owner, newCase, newPartner } from '../case-workflow/support/kit';
import { partnerWithCase, sampleFile, upload } from '../documents/support/kit';
import { PROBLEM, expectViolationAt, leasing36, person } from '../support/partner-requests';
import { problemTypeOf } from '../support/problems';
import { sharedStack } from '../support/shared-stack';

let owner: Owner;

beforeAll(async () => {
  owner = await newPartner();
});

describe('edge input', () => {
  it.each([
    ['a NUL character', 'Lap\u0000top'],
    ['a lone surrogate', 'Lap\ud800top'],
  ])('when a string field holds %s, then 400 problem+json naming the field, in every service', async (_what, text) => {
    const cart = await owner.api.post('/api/carts', { items: [{ productNumber: 'P-1', productName: text, quantity: 1, price: 10, categorySlug: 'laptops' }] });
    expectViolationAt(cart, 400, 'items[0].productName', 'validation.invalid_text');
    expectViolationAt(await owner.api.post('/api/calculate/estimate', { ...leasing36, categorySlug: text }), 400, 'categorySlug', 'validation.invalid_text');
    expectViolationAt(
      await owner.api.post('/api/quote_requests', { ...person, firstName: text, calculation: '/api/calculations/01J9ZZZZZZZZZZZZZZZZZZZZZZ' }),
      400,
      'firstName',
      'validation.invalid_text',
    );
    expectViolationAt(await owner.api.post('/api/webhook_endpoints', { url: `https://93.184.216.34/${text}` }), 400, 'url', 'validation.invalid_text');
    const { caseId } = await newCase(owner);
    expectViolationAt(
      await owner.api.post(`/api/financing-cases/${caseId}/start-esignature`, {
        authorizedPersons: [{ firstName: text, lastName: 'B', email: 'a@b.example' }],
      }),
      400,
      'authorizedPersons[0].firstName',
      'validation.invalid_text',
    );
  });

  it('when a multipart text part holds a NUL character, then 400 naming the part and nothing is stored', async () => {
    const withCase = await partnerWithCase();
    expectViolationAt(
      await upload(withCase.api, withCase.caseId, {
        file: { bytes: sampleFile('pdf'), name: 'a.pdf' },
        category: 'purchase_offer',
        description: 'Offer\u0000 v2',
      }),
      400,
      'description',
      'validation.invalid_text',
    );
    expect((await withCase.api.get(`/api/financing-cases/${withCase.caseId}/documents`)).json).toEqual([]);
  });

  it.each([
    ['gzip', Buffer.from('{"items":[]}')],
    ['br', Buffer.from('not brotli at all')],
    ['gzip', brotliCompressSync(Buffer.from('{"items":[]}'))],
  ])('when the body says Content-Encoding %s but its bytes are not, then 400 problem+json naming the encoding', async (encoding, bytes) => {
    const response = await fetch(`${sharedStack().gatewayUrl}/api/carts`, {
      method: 'POST',
      headers: { 'X-Api-Key': owner.partner.key, 'Content-Type': 'application/json', 'Content-Encoding': encoding },
      body: bytes,
    });
    expect([response.status, response.headers.get('content-type')]).toEqual([400, PROBLEM]);
    expect(await response.json()).toEqual(
      expect.objectContaining({
        type: problemTypeOf('request.malformed_encoding'),
        detail: `The request body is not valid ${encoding} data, as its Content-Encoding header says it is.`,
        violations: [expect.objectContaining({ propertyPath: 'Content-Encoding' })],
      }),
    );
  });

  it('when Postgres refuses a value, then the logged error keeps the SQLSTATE and drops the text that carries the value', async () => {
    const client = new Client({ connectionString: sharedStack().databaseUrl });
    await client.connect();
    const error = await client.query('SELECT $1::int', ['card-4111-1111']).catch((failure: unknown) => failure);
    await client.end();
    const logged = JSON.stringify(serializeError(error));
    expect(logged).not.toContain('card-4111-1111');
    expect(JSON.parse(logged)).toEqual(expect.objectContaining({ code: '22P02', message: 'database error 22P02' }));
  });
});
