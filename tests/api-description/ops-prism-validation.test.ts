import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiClient, ApiResponse } from '@rental/testkit';
import { sampleFile, upload } from '../documents/support/kit';
import { operatorToken, partnerCase, sharedStack } from '../backoffice/support/kit';
import { ListeningProcess, PrismViolation, startExtraGateway, startPrismProxy, violationsOf } from './support/prism';

// The back office's served description, with Prism's validation proxy in front of the gateway:
// the document downloads (each stored file type) and the problems every operation lists answer
// as described (status, content type, required headers, body).

const UNKNOWN_INTEGER = 2_147_483_000;
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';

let directory: string;
let prism: ListeningProcess;
let unreachableGateway: ListeningProcess;
let unreachablePrism: ListeningProcess;
const tokens: Record<'viewer' | 'reviewer', string> = { viewer: '', reviewer: '' };
const documents: Record<'pdf' | 'png' | 'jpeg', number> = { pdf: 0, png: 0, jpeg: 0 };

beforeAll(async () => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-prism-'));
  const served = await fetch(`${sharedStack().gatewayUrl}/ops/v1/docs.json`);
  expect(served.status).toBe(200);
  const specFile = path.join(directory, 'ops.json');
  fs.writeFileSync(specFile, JSON.stringify(await served.json()));
  // A second gateway on the shared stack whose back office address answers nothing: its 503.
  unreachableGateway = await startExtraGateway(sharedStack(), { RATE_LIMIT_ADDRESS_PER_SECOND: '0', BACKOFFICE_HTTP_URL: 'http://127.0.0.1:9' });
  [prism, unreachablePrism, tokens.viewer, tokens.reviewer] = await Promise.all([
    startPrismProxy(specFile, sharedStack().gatewayUrl),
    startPrismProxy(specFile, unreachableGateway.url),
    operatorToken('viewer'),
    operatorToken('reviewer'),
  ]);
  const { owner, caseId } = await partnerCase();
  for (const kind of ['pdf', 'png', 'jpeg'] as const) {
    const uploaded = await upload(owner.api, caseId, { file: { bytes: sampleFile(kind, 2000), name: `offer.${kind}` }, category: 'purchase_offer' });
    expect(uploaded.status).toBe(201);
    documents[kind] = uploaded.json.id as number;
  }
}, 60_000);

afterAll(async () => {
  await Promise.all([prism?.stop(), unreachablePrism?.stop()]);
  await unreachableGateway?.stop();
  fs.rmSync(directory, { recursive: true, force: true });
});

interface Exchange { status: number; contentType: string | null; violations: PrismViolation[] }

/** One call through a proxy as an operator (or nobody); what Prism found about the response. */
async function through(proxy: ListeningProcess, method: string, requestPath: string, options: { as?: 'viewer' | 'reviewer' | null; rawBody?: string } = {}): Promise<Exchange> {
  const token = options.as === null ? null : tokens[options.as ?? 'viewer'];
  const headers: Record<string, string> = { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(options.rawBody === undefined ? {} : { 'Content-Type': 'application/json' }) };
  const response: ApiResponse = await new ApiClient(proxy.url).request(method, requestPath, { key: null, headers, ...(options.rawBody === undefined ? {} : { rawBody: options.rawBody }) });
  return { status: response.status, contentType: response.contentType, violations: violationsOf(response.headers).filter((violation) => violation.location[0] === 'response') };
}

describe('the back office through the Prism validation proxy', () => {
  it.each(['pdf', 'png', 'jpeg'] as const)('when a %s document is downloaded, then it comes with its own type, as described', async (kind) => {
    const exchange = await through(prism, 'GET', `/ops/v1/documents/${documents[kind]}/download`);

    expect(exchange).toEqual({ status: 200, contentType: { pdf: 'application/pdf', png: 'image/png', jpeg: 'image/jpeg' }[kind], violations: [] });
  });

  it('when a download names no document, no integer or has no token, then 404, 404 and 401 problem+json, as described', async () => {
    expect(await through(prism, 'GET', `/ops/v1/documents/${UNKNOWN_INTEGER}/download`)).toEqual({ status: 404, contentType: PROBLEM_TYPE, violations: [] });
    expect(await through(prism, 'GET', '/ops/v1/documents/abc/download')).toEqual({ status: 404, contentType: PROBLEM_TYPE, violations: [] });
    expect(await through(prism, 'GET', `/ops/v1/documents/${documents.pdf}/download`, { as: null })).toEqual({ status: 401, contentType: PROBLEM_TYPE, violations: [] });
  });

  // A body that is not JSON never passes Prism (it answers such a request itself): the back
  // office's own 400 is checked without the proxy, in backoffice-description.test.ts.
  it('when the queue gets a bad page, a review breaks its schema or comes from a viewer, then 400, 422 and 403, as described', async () => {
    const review = `/ops/v1/documents/${documents.pdf}/review`;

    expect(await through(prism, 'GET', '/ops/v1/cases?page=0')).toEqual({ status: 400, contentType: PROBLEM_TYPE, violations: [] });
    expect(await through(prism, 'POST', review, { as: 'reviewer', rawBody: '{"status": "MAYBE"}' })).toEqual({ status: 422, contentType: PROBLEM_TYPE, violations: [] });
    expect(await through(prism, 'POST', review, { as: 'viewer', rawBody: '{"status": "VERIFIED"}' })).toEqual({ status: 403, contentType: PROBLEM_TYPE, violations: [] });
  });

  it('when the back office does not answer, then the gateway\'s 503, as described', async () => {
    expect(await through(unreachablePrism, 'GET', `/ops/v1/documents/${documents.pdf}/download`)).toEqual({ status: 503, contentType: PROBLEM_TYPE, violations: [] });
    expect(await through(unreachablePrism, 'POST', `/ops/v1/documents/${documents.pdf}/review`, { as: 'reviewer', rawBody: '{"status": "VERIFIED"}' })).toEqual({ status: 503, contentType: PROBLEM_TYPE, violations: [] });
  });
});
