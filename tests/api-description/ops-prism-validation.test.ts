import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_SEED_FILE, readSeedFile } from '@rental/stack/fixture';
import { ApiClient } from '@rental/testkit';
import { sampleFile, upload } from '../documents/support/kit';
import { Role, operatorToken, partnerCase, sharedStack } from '../backoffice/support/kit';
import type { DescribedOperation, ListeningProcess, PrismViolation } from './support/prism';
import { describedOperations, operationOf, startExtraGateway, startPrismProxy, violationsOf } from './support/prism';

// Every operation of the back office's served description, called through Prism's validation
// proxy in front of the gateway (the document download with each stored file type, the problems
// every operation lists, the 503 of a back office that does not answer): no response may differ
// from the description (status, content type, required headers, body).

const UNKNOWN_ULID = '01JZZZZZZZZZZZZZZZZZZZZZZZ';
const UNKNOWN_INTEGER = 2_147_483_000;
const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

let directory: string;
let operations: DescribedOperation[];
let prism: ListeningProcess;
let unreachableGateway: ListeningProcess;
let unreachablePrism: ListeningProcess;
const tokens: Partial<Record<Role, string>> = {};
const documents: Record<'pdf' | 'png' | 'jpeg', number> = { pdf: 0, png: 0, jpeg: 0 };
let caseId: string;
const exercised = new Set<string>();

beforeAll(async () => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-prism-'));
  const served = await fetch(`${sharedStack().gatewayUrl}/ops/v1/docs.json`);
  expect(served.status).toBe(200);
  const description = (await served.json()) as Parameters<typeof describedOperations>[0];
  operations = describedOperations(description);
  const specFile = path.join(directory, 'ops.json');
  fs.writeFileSync(specFile, JSON.stringify(description));
  // A second gateway on the shared stack whose back office address answers nothing: its 503.
  unreachableGateway = await startExtraGateway(sharedStack(), { RATE_LIMIT_ADDRESS_PER_SECOND: '0', BACKOFFICE_HTTP_URL: 'http://127.0.0.1:9' });
  [prism, unreachablePrism, tokens.viewer, tokens.reviewer, tokens.approver] = await Promise.all([
    startPrismProxy(specFile, sharedStack().gatewayUrl),
    startPrismProxy(specFile, unreachableGateway.url),
    operatorToken('viewer'),
    operatorToken('reviewer'),
    operatorToken('approver'),
  ]);
  const created = await partnerCase({ submitFinancing: false });
  caseId = created.caseId;
  for (const kind of ['pdf', 'png', 'jpeg'] as const) {
    const uploaded = await upload(created.owner.api, caseId, { file: { bytes: sampleFile(kind, 2000), name: `offer.${kind}` }, category: 'purchase_offer' });
    expect(uploaded.status).toBe(201);
    documents[kind] = uploaded.json.id as number;
  }
}, 90_000);

afterAll(async () => {
  await Promise.all([prism?.stop(), unreachablePrism?.stop()]);
  await unreachableGateway?.stop();
  fs.rmSync(directory, { recursive: true, force: true });
});

interface Call {
  as?: Role | null;
  body?: unknown;
  proxy?: ListeningProcess;
}
interface Exchange {
  status: number;
  contentType: string | null;
  violations: PrismViolation[];
  json: any;
}

/**
 * One call through a proxy as an operator (a viewer unless told; null: no token); the response
 * findings Prism reports for it. The call counts for the operation it hits.
 */
async function send(method: string, requestPath: string, call: Call = {}): Promise<Exchange> {
  const token = call.as === null ? undefined : tokens[call.as ?? 'viewer'];
  const response = await new ApiClient((call.proxy ?? prism).url).request(method, requestPath, {
    key: null,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    ...(call.body === undefined ? {} : { body: call.body }),
  });
  const operation = operationOf(operations, method, requestPath);
  exercised.add(operation?.key ?? `(none) ${method} ${requestPath}`);
  return {
    status: response.status,
    contentType: response.contentType,
    violations: violationsOf(response.headers).filter((violation) => violation.location[0] === 'response'),
    json: response.status < 300 && response.contentType?.startsWith('application/json') ? response.json : undefined,
  };
}

/** The exchange as the assertions compare it: status, content type and Prism's response findings. */
const seen = ({ status, contentType, violations }: Exchange) => ({ status, contentType, violations });
const answered = (status: number, contentType = status >= 400 ? PROBLEM_TYPE : JSON_TYPE) => ({ status, contentType, violations: [] });

describe('the back office through the Prism validation proxy', () => {
  it.each(['pdf', 'png', 'jpeg'] as const)('when a %s document is downloaded, then it comes with its own type, as described', async (kind) => {
    const contentType = { pdf: 'application/pdf', png: 'image/png', jpeg: 'image/jpeg' }[kind];

    expect(seen(await send('GET', `/ops/v1/documents/${documents[kind]}/download`))).toEqual(answered(200, contentType));
  });

  it('when a download names no document, no integer or has no token, then 404, 404 and 401 problem+json, as described', async () => {
    expect(seen(await send('GET', `/ops/v1/documents/${UNKNOWN_INTEGER}/download`))).toEqual(answered(404));
    expect(seen(await send('GET', '/ops/v1/documents/abc/download'))).toEqual(answered(404));
    expect(seen(await send('GET', `/ops/v1/documents/${documents.pdf}/download`, { as: null }))).toEqual(answered(401));
  });

  it('when the queue and the case are read, then 200, and 400 and 404 for a bad page and an unknown case, as described', async () => {
    expect(seen(await send('GET', '/ops/v1/cases'))).toEqual(answered(200));
    expect(seen(await send('GET', '/ops/v1/cases?page=0'))).toEqual(answered(400));
    expect(seen(await send('GET', `/ops/v1/cases/${caseId}`))).toEqual(answered(200));
    expect(seen(await send('GET', `/ops/v1/cases/${UNKNOWN_ULID}`))).toEqual(answered(404));
  });

  // A body that is not JSON never passes Prism (it answers such a request itself): the back
  // office's own 400 is checked without the proxy, in backoffice-description.test.ts.
  it('when a document is reviewed, then 200, and 422 and 403 for a bad status and a viewer, as described', async () => {
    const review = `/ops/v1/documents/${documents.pdf}/review`;

    expect(seen(await send('POST', review, { as: 'reviewer', body: { status: 'MAYBE' } }))).toEqual(answered(422));
    expect(seen(await send('POST', review, { body: { status: 'VERIFIED' } }))).toEqual(answered(403));
    expect(seen(await send('POST', review, { as: 'reviewer', body: { status: 'VERIFIED' } }))).toEqual(answered(200));
  });

  it('when items, a note and a callback request are added and the callback request closed, then every answer matches', async () => {
    const requested = await send('POST', `/ops/v1/cases/${caseId}/requests`, {
      as: 'reviewer',
      body: { items: [{ type: 'information', question: 'Founding year?' }] },
    });
    expect(seen(requested)).toEqual(answered(201));
    expect(seen(await send('POST', `/ops/v1/cases/${caseId}/requests`, { as: 'reviewer', body: { items: [] } }))).toEqual(answered(422));
    expect(seen(await send('POST', `/ops/v1/cases/${caseId}/notes`, { as: 'reviewer', body: { text: 'Called the partner.' } }))).toEqual(answered(201));
    const callback = await send('POST', `/ops/v1/cases/${caseId}/callback-requests`, {
      as: 'reviewer',
      body: { items: [{ type: 'information', id: requested.json[0].id }] },
    });
    expect(seen(callback)).toEqual(answered(201));
    expect(seen(await send('POST', `/ops/v1/callback-requests/${callback.json.id}/close`, { as: 'reviewer' }))).toEqual(answered(200));
    expect(seen(await send('POST', `/ops/v1/callback-requests/${callback.json.id}/close`, { as: 'reviewer' }))).toEqual(answered(422));
  });

  it('when the case is moved, sent to the lender, overridden, its contract moved and canceled, then every answer matches', async () => {
    expect(seen(await send('POST', `/ops/v1/cases/${caseId}/transitions`, { as: 'reviewer', body: { transition: 'teleport' } }))).toEqual(answered(422));
    expect(seen(await send('POST', `/ops/v1/cases/${caseId}/transitions`, { as: 'reviewer', body: { transition: 'finalize' } }))).toEqual(answered(200));
    expect(
      seen(await send('POST', `/ops/v1/cases/${caseId}/transmit`, { as: 'reviewer', body: { items: [{ type: 'document', id: UNKNOWN_INTEGER }] } })),
    ).toEqual(answered(422));
    expect(seen(await send('POST', `/ops/v1/cases/${caseId}/resubmit`, { as: 'reviewer' }))).toEqual(answered(422));
    expect(seen(await send('POST', `/ops/v1/cases/${caseId}/override`, { as: 'approver', body: { reason: 'Lender agreed by phone' } }))).toEqual(answered(422));
    expect(seen(await send('POST', `/ops/v1/contracts/${UNKNOWN_ULID}/transitions`, { as: 'reviewer', body: { to: 'signed' } }))).toEqual(answered(404));
    expect(seen(await send('POST', `/ops/v1/cases/${caseId}/cancel`, { as: 'reviewer', body: { reason: 'Customer withdrew' } }))).toEqual(answered(403));
    expect(seen(await send('POST', `/ops/v1/cases/${caseId}/cancel`, { as: 'approver', body: { reason: 'Customer withdrew' } }))).toEqual(answered(200));
  });

  it('when a partner is onboarded, read, its conditions replaced, a key made and revoked, the partner suspended and reactivated, then every answer matches', async () => {
    const id = `prism-${Date.now().toString(36)}`;
    const conditions = {
      allowedSectors: ['IT_AND_OFFICE_EQUIPMENT'],
      financingPartner: readSeedFile(DEMO_SEED_FILE).lenders[0]!.id,
      distributionHub: null,
      monthlySurcharge: 1.5,
      paymentIntervals: ['monthly'],
      rentalFactors: { leasing: { 0: { 36: 3.0 } } },
      residualValues: {},
    };
    const partner = { id, name: `Prism Reseller ${id}`, contactEmail: `ops@${id}.example`, ...conditions };

    expect(seen(await send('POST', '/ops/v1/partners', { body: partner }))).toEqual(answered(403));
    expect(seen(await send('POST', '/ops/v1/partners', { as: 'approver', body: partner }))).toEqual(answered(201));
    expect(seen(await send('POST', '/ops/v1/partners', { as: 'approver', body: partner }))).toEqual(answered(409));
    expect(seen(await send('POST', '/ops/v1/partners', { as: 'approver', body: { ...partner, id: `${id}-2`, financingPartner: 'lender-nowhere' } }))).toEqual(
      answered(422),
    );
    expect(seen(await send('GET', '/ops/v1/partners'))).toEqual(answered(200));
    expect(seen(await send('GET', `/ops/v1/partners/${id}`))).toEqual(answered(200));
    expect(seen(await send('GET', '/ops/v1/partners/nobody-here'))).toEqual(answered(404));
    expect(
      seen(
        await send('PUT', `/ops/v1/partners/${id}/conditions`, {
          as: 'approver',
          body: { ...conditions, rentalFactors: { leasing: { 0: { 36: 2.9 } } }, reason: 'new agreement' },
        }),
      ),
    ).toEqual(answered(200));
    const key = await send('POST', `/ops/v1/partners/${id}/api-keys`, { as: 'approver', body: { name: 'First key', role: 'api_user' } });
    expect(seen(key)).toEqual(answered(201));
    expect(
      seen(await send('POST', `/ops/v1/partners/${id}/api-keys/${key.json.id}/revoke`, { as: 'approver', body: { reason: 'found on a paste site' } })),
    ).toEqual(answered(200));
    expect(seen(await send('POST', `/ops/v1/partners/${id}/suspend`, { as: 'approver', body: { reason: 'unpaid invoices' } }))).toEqual(answered(200));
    expect(seen(await send('POST', `/ops/v1/partners/${id}/suspend`, { as: 'approver', body: { reason: 'again' } }))).toEqual(answered(422));
    expect(seen(await send('POST', `/ops/v1/partners/${id}/reactivate`, { as: 'approver', body: { reason: 'paid' } }))).toEqual(answered(200));
    expect(seen(await send('GET', `/ops/v1/partners/${id}/audit`))).toEqual(answered(200));
  });

  it("when the back office does not answer, then the gateway's 503, as described", async () => {
    expect(seen(await send('GET', `/ops/v1/documents/${documents.pdf}/download`, { proxy: unreachablePrism }))).toEqual(answered(503));
    expect(
      seen(await send('POST', `/ops/v1/documents/${documents.pdf}/review`, { proxy: unreachablePrism, as: 'reviewer', body: { status: 'VERIFIED' } })),
    ).toEqual(answered(503));
  });

  it('when the calls above are counted, then every operation of the description was exercised', () => {
    expect(operations.map((operation) => operation.key).filter((key) => !exercised.has(key))).toEqual([]);
    expect([...exercised].filter((key) => key.startsWith('(none)'))).toEqual([]);
  });
});
