/**
 * A fresh case through the production path with the local stack's simulators: checkout with
 * submitFinancing, the lender simulator's decision, the e-signature through the signing
 * simulator, and the signed contract the partner can download. Each status is printed as it
 * changes.
 *
 *   API_ENVIRONMENT=production PRODUCTION_SIMULATORS=true npm start     # the stack, in another terminal
 *   npm run demo:production
 *
 * PARTNER_API_URL (default http://127.0.0.1:8080) and PARTNER_API_KEY (default: the production
 * key of the demo partner acme from fixtures/seed.json) choose the deployment and the partner.
 */
import { randomUUID } from 'node:crypto';

const BASE_URL = (process.env.PARTNER_API_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
const API_KEY = process.env.PARTNER_API_KEY ?? 'prd_acme_c2a91d4e6b8f0a1c3e5d7b9f1a2c47f3';
const WAIT_MS = 60_000;

type Json = Record<string, unknown>;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Json> {
  const response = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { 'X-Api-Key': API_KEY, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} failed: HTTP ${response.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as Json;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` and prints what `describe` makes of it whenever that changes, until `done` holds. */
async function follow(read: () => Promise<Json>, describe: (value: Json) => string, done: (value: Json) => boolean): Promise<Json> {
  const deadline = Date.now() + WAIT_MS;
  let last = '';
  for (;;) {
    const value = await read();
    const text = describe(value);
    if (text !== last) {
      console.log(`   ${new Date().toISOString().slice(11, 23)}  ${text}`);
      last = text;
    }
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`nothing changed for ${WAIT_MS / 1000} s; is the stack running with API_ENVIRONMENT=production?`);
    await sleep(250);
  }
}

async function main(): Promise<void> {
  console.log(`Production path demo against ${BASE_URL}`);
  console.log('1. cart and checkout with submitFinancing (a financed amount up to 50,000: the lender simulator accepts)');
  const cart = await call('POST', '/api/carts', {
    items: [{ productNumber: `DEMO-${Date.now()}`, productName: 'Laptop Pro 14', quantity: 2, price: 1499.5, categorySlug: 'laptops' }],
  });
  const customer = {
    firstName: 'Mara',
    lastName: 'Keller',
    email: 'mara.keller@kunde-gmbh.example',
    street: 'Hauptstrasse',
    houseNumber: '1',
    zipCode: '10115',
    city: 'Berlin',
    country: 'DE',
    phone: '+49301234567',
    company: 'Kunde GmbH',
    vatId: 'DE123456789',
  };
  const checkout = await call(
    'POST',
    `/api/carts/${String(cart.cartId)}/checkout`,
    { duration: 36, financingType: 'leasing', customer, submitFinancing: true },
    { 'Idempotency-Key': randomUUID() },
  );
  const caseId = String(checkout.financeCaseId);
  console.log(`   financing case ${caseId}`);

  console.log('2. the lender: submission, credit check, decision through the signed callback');
  const quotePath = String(((await call('GET', `/api/financing_cases/${caseId}`)).quotes as string[])[0]);
  const decided = await follow(
    async () => call('GET', quotePath),
    (found) =>
      `quote ${String(found.status)}; lender submission ${String(found.lenderSubmissionStatus ?? '-')}; financingNumber ${String(found.financingNumber ?? '-')}`,
    (found) => !['finance_review', 'accepted_by_customer'].includes(String(found.status)),
  );
  if (decided.status !== 'finance_accepted') throw new Error(`the lender did not accept: the case is ${String(decided.status)}`);

  console.log('3. start-esignature: the contract PDF goes to the signing simulator');
  const started = await call('POST', `/api/financing-cases/${caseId}/start-esignature`, {
    authorizedPersons: [{ firstName: 'Mara', lastName: 'Keller', email: 'mara.keller@kunde-gmbh.example', soloSigneePermitted: true }],
  });
  console.log(`   contract ${String(started.contractId)}, envelope ${String(started.envelopeId)} ${String(started.status)}`);

  console.log('4. the signature: envelope.sent at once, envelope.signed with the signed PDF later');
  await follow(
    async () => call('GET', `/api/contracts/${String(started.contractId)}`),
    (contract) => `contract ${String(contract.status)}; envelope ${String((contract.signatureEnvelope as Json | null)?.status ?? '-')}`,
    (contract) => contract.status === 'signed',
  );
  const documents = await call('GET', `/api/financing-cases/${caseId}/documents`);
  const list = (Array.isArray(documents) ? documents : (documents['hydra:member'] ?? documents.documents ?? [])) as Json[];
  const signed = list.find((document) => document.category === 'signed_contract');
  console.log(
    `5. signed contract: ${signed ? `${String(signed.originalName ?? signed.fileName ?? signed.id)} (${String(signed.downloadUrl)})` : 'not listed yet'}`,
  );
  console.log('Done.');
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
