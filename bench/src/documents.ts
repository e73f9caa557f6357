import type autocannon from 'autocannon';
import { ApiClient, fixturePartnerKey, runDate } from '@rental/testkit';
import { BenchContext, runAlone } from './harness';
import { ROW_SECONDS, measure } from './load';
import { reportRuns } from './report';
import { UPLOAD_BYTES, casesOf, fieldOf, pdfUpload, roundRobin } from './requests';

const BENCHMARK = 'documents';

/** Uploads of a 100 KB PDF spread over ten of acme's cases, then downloads of what was uploaded. */
export async function documentsBench({ stack, recorder }: BenchContext): Promise<void> {
  const key = fixturePartnerKey('acme');
  const nextCase = roundRobin((await casesOf(new ApiClient(stack.gatewayUrl, key), 10)).slice(0, 10));
  const { body: form, contentType } = pdfUpload(UPLOAD_BYTES);
  const uploaded: string[] = [];
  const upload: autocannon.Request = {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body: form,
    setupRequest: (request) => ({ ...request, path: `/api/financing-cases/${nextCase()}/documents` }),
    onResponse: (status, body) => {
      const id = status === 201 ? fieldOf(body, 'id') : undefined;
      if (id) uploaded.push(id);
    },
  };
  const nextDocument = roundRobin(uploaded);
  const download: autocannon.Request = { method: 'GET', setupRequest: (request) => ({ ...request, path: `/api/documents/${nextDocument()}/download` }) };
  const base = { url: stack.gatewayUrl, headers: { 'X-Api-Key': key }, connections: 10 };
  await measure({ label: 'warm-up', ...base, durationSeconds: 3, requests: [upload, download] });
  const rows = [
    await recorder.measure(BENCHMARK, {
      label: 'POST /api/financing-cases/{id}/documents, 100 KB PDF (saturated, 10 connections)',
      ...base,
      requests: [upload],
    }),
    await recorder.measure(BENCHMARK, {
      label: 'POST /api/financing-cases/{id}/documents, 100 KB PDF (20 req/s)',
      ...base,
      overallRate: 20,
      requests: [upload],
    }),
    await recorder.measure(BENCHMARK, { label: 'GET /api/documents/{id}/download, 100 KB (saturated, 10 connections)', ...base, requests: [download] }),
    await recorder.measure(BENCHMARK, { label: 'GET /api/documents/{id}/download, 100 KB (100 req/s)', ...base, overallRate: 100, requests: [download] }),
  ];
  reportRuns(
    'Document upload and download',
    `Command: \`npm run bench:documents\` (${runDate()}; ${ROW_SECONDS} s per row, through the gateway with acme's sandbox key). Uploads are multipart/form-data with a ${UPLOAD_BYTES / 1024} KB PDF in category other, spread over ten of acme's cases; downloads fetch the uploaded documents in turn. The object storage is the stack's embedded S3 server, which runs in the benchmark process beside autocannon.`,
    rows,
  );
}

if (require.main === module) runAlone('bench:documents', documentsBench);
