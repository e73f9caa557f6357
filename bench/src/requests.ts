import { randomBytes, randomUUID } from 'node:crypto';
import type autocannon from 'autocannon';
import { type ApiClient, sampleCustomer } from '@rental/testkit';

/** What the partner benchmarks send: an estimate of 3 types × 5 durations, one laptop cart, a 36-month leasing checkout, a PDF. */
export const ESTIMATE = {
  durations: [12, 24, 36, 48, 60],
  calculationTypes: ['leasing', 'rent', 'rent_to_own'],
  acquisitionCost: 2499.99,
  serviceCost: 10,
  productSector: 'IT_AND_OFFICE_EQUIPMENT',
};
export const CALCULATION = {
  durations: [36],
  calculationTypes: ['leasing', 'rent'],
  acquisitionCost: 1000,
  serviceCost: 10,
  productSector: 'IT_AND_OFFICE_EQUIPMENT',
};
export const CART = { items: [{ productNumber: 'LAPTOP-1', productName: 'Laptop', quantity: 1, price: 1000, categorySlug: 'laptops' }] };
export const CUSTOMER = sampleCustomer;
export const CHECKOUT = { duration: 36, financingType: 'leasing', customer: CUSTOMER };
export const UPLOAD_BYTES = 100 * 1024;

export const JSON_TYPE = { 'Content-Type': 'application/json' };

export function idempotencyKey(): Record<string, string> {
  return { 'Idempotency-Key': randomUUID() };
}

/** A multipart upload of a PDF of `size` bytes (a PDF header, then random bytes) in category `other`. */
export function pdfUpload(size = UPLOAD_BYTES): { body: Buffer; contentType: string } {
  const boundary = `----bench-${randomBytes(8).toString('hex')}`;
  const file = randomBytes(size);
  Buffer.from('%PDF-1.4\n').copy(file);
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nother\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="offer.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A field of a JSON response body, or undefined when the body is not what a 2xx gives. */
export function fieldOf(body: string, field: string): string | undefined {
  try {
    const value = (JSON.parse(body) as Record<string, unknown>)[field];
    return value === undefined || value === null ? undefined : String(value);
  } catch {
    return undefined;
  }
}

/** POST /api/carts of CART as an autocannon request: each new cart's id goes to `carts`, for the checkouts that follow. */
export function newCartRequest(carts: string[]): autocannon.Request {
  return {
    method: 'POST',
    path: '/api/carts',
    headers: JSON_TYPE,
    body: JSON.stringify(CART),
    onResponse: (status, body) => {
      const id = status === 201 ? fieldOf(body, 'cartId') : undefined;
      if (id) carts.push(id);
    },
  };
}

/** Cart and checkout, one after the other: the id of each new financing case. */
export async function checkedOutCases(api: ApiClient, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const cart = await api.post('/api/carts', CART);
    if (cart.status !== 201) throw new Error(`POST /api/carts gave ${cart.status}: ${cart.text}`);
    const checkout = await api.post(`/api/carts/${cart.json.cartId}/checkout`, CHECKOUT, { headers: idempotencyKey() });
    if (checkout.status !== 201) throw new Error(`checkout gave ${checkout.status}: ${checkout.text}`);
    ids.push(checkout.json.financeCaseId);
  }
  return ids;
}

/** The partner's newest cases (one page, at most 30), topped up with new ones to at least `count`. */
export async function casesOf(api: ApiClient, count: number): Promise<string[]> {
  const page = await api.get('/api/financing_cases');
  if (page.status !== 200) throw new Error(`GET /api/financing_cases gave ${page.status}: ${page.text}`);
  const ids = (page.json as { id: string }[]).map((financingCase) => financingCase.id);
  if (ids.length < count) ids.push(...(await checkedOutCases(api, count - ids.length)));
  return ids;
}

/** Hands out the entries of a list in turn, for requests that need an id each. */
export function roundRobin<T>(items: T[]): () => T {
  let next = 0;
  return () => {
    if (items.length === 0) throw new Error('nothing to hand out');
    const item = items[next % items.length] as T;
    next += 1;
    return item;
  };
}
