import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Stack, bootStack, freePort, shutdownStack } from '@rental/testkit';
import { InspectorSession } from './support/inspector';
import { PartnerWithCase, download, partnerWithCase, query, sampleFile, upload, uploadForm } from './support/kit';
import { problemInstanceOf, problemTypeOf } from '../support/problems';

// s3rver ships no types; the stack's own embedded storage is started the same way.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<unknown>; close(): Promise<void>; httpServer?: http.Server };

const FILE_SIZE = 10_000_000;

/** Object storage this test can stop and start: an S3 server in the test process, its data on disk. */
class StoppableStorage {
  private server?: InstanceType<typeof S3rver>;
  private readonly directory = fs.mkdtempSync(path.join(os.tmpdir(), 'documents-fault-s3-'));

  constructor(readonly port: number) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.server = new S3rver({ port: this.port, address: '127.0.0.1', silent: true, directory: this.directory });
    await this.server.run();
  }

  async stop(): Promise<void> {
    this.server?.httpServer?.closeAllConnections();
    await this.server?.close();
    this.server = undefined;
  }

  async dispose(): Promise<void> {
    await this.stop();
    fs.rmSync(this.directory, { recursive: true, force: true });
  }
}

/**
 * An upload whose body is written in parts through the gateway, with `between` awaited after
 * each part: things happen while the file is on its way.
 */
async function streamedUpload(
  stack: Stack,
  owner: PartnerWithCase,
  bytes: Buffer,
  parts: number,
  between: (part: number) => Promise<void>,
): Promise<{ status: number; body: any }> {
  const request = new Request('http://localhost', { method: 'POST', body: uploadForm({ file: { bytes, name: 'streamed.pdf' }, category: 'other' }) });
  const body = Buffer.from(await request.arrayBuffer());
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${stack.gatewayUrl}/api/financing-cases/${owner.caseId}/documents`,
      {
        method: 'POST',
        headers: { 'X-Api-Key': owner.partner.key, 'Content-Type': request.headers.get('content-type') ?? '', 'Content-Length': String(body.length) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      },
    );
    req.on('error', reject);
    void (async () => {
      const size = Math.ceil(body.length / parts);
      for (let part = 0; part < parts; part += 1) {
        if (!req.write(body.subarray(part * size, (part + 1) * size))) await new Promise((drained) => req.once('drain', drained));
        await between(part);
      }
      req.end();
    })().catch(reject);
  });
}

describe('documents with object storage of its own', () => {
  let storage: StoppableStorage;
  let stack: Stack;
  let owner: PartnerWithCase;

  beforeAll(async () => {
    storage = new StoppableStorage(await freePort());
    await storage.start();
    // --inspect and --expose-gc let the memory test collect garbage in the documents process and read its memory in one step.
    stack = await bootStack({
      env: { S3_ENDPOINT: storage.url, S3_ACCESS_KEY: 'S3RVER', S3_SECRET_KEY: 'S3RVER', NODE_OPTIONS: '--inspect=127.0.0.1:0 --expose-gc' },
    });
    owner = await partnerWithCase(stack);
  }, 120_000);

  afterAll(async () => {
    if (stack) await shutdownStack(stack);
    await storage?.dispose();
  });

  it('when a 10 MB file is uploaded, then the memory the service holds grows by well under the file size', async () => {
    const inspector = await InspectorSession.connect(InspectorSession.urlFromLog(path.join(stack.logDirectory, 'documents.log')));
    try {
      await upload(owner.api, owner.caseId, { file: { bytes: sampleFile('pdf', 100_000), name: 'warm-up.pdf' }, category: 'other' });
      const before = await inspector.liveMemory();
      const samples: number[] = [];

      // After each tenth of the body, garbage is collected in the service: what is left is what the upload holds.
      const response = await streamedUpload(stack, owner, sampleFile('pdf', FILE_SIZE), 10, async () => {
        samples.push(await inspector.liveMemory());
      });

      expect(response.status).toBe(201);
      expect(response.body.fileSize).toBe(FILE_SIZE);
      const growth = Math.max(...samples) - before;
      process.stdout.write(`documents held at most ${growth} bytes more than at rest during a ${FILE_SIZE}-byte upload (${samples.length} samples)\n`);
      // Chunks in flight (socket, parser, file writes) stay far below the file; buffering it would hold all 10 MB.
      expect(growth).toBeLessThan(FILE_SIZE / 4);
    } finally {
      inspector.close();
    }
  });

  it('when object storage is down, then upload and download answer 503 problem+json and no row is left', async () => {
    const stored = await upload(owner.api, owner.caseId, { file: { bytes: sampleFile('pdf'), name: 'before.pdf' }, category: 'other' });
    const rowsBefore = await query(stack, 'SELECT id FROM documents WHERE financing_case_id = $1', [owner.caseId]);
    await storage.stop();
    try {
      const refused = await upload(owner.api, owner.caseId, { file: { bytes: sampleFile('png'), name: 'while-down.png' }, category: 'other' });
      const fetched = await download(stack, owner.partner.key, stored.json.downloadUrl);

      expect(refused.status).toBe(503);
      expect(refused.contentType).toMatch(/^application\/problem\+json/);
      expect(refused.json).toEqual({
        type: problemTypeOf('dependency.object_storage_unavailable', stack.gatewayUrl),
        title: 'Document storage unavailable',
        status: 503,
        detail: 'The document storage is not available right now. Nothing was stored; retry later.',
        instance: problemInstanceOf(refused),
      });
      expect(fetched.status).toBe(503);
      expect(JSON.parse(fetched.bytes.toString('utf8'))).toMatchObject({
        status: 503,
        type: problemTypeOf('dependency.object_storage_unavailable', stack.gatewayUrl),
      });
      expect(await query(stack, 'SELECT id FROM documents WHERE financing_case_id = $1', [owner.caseId])).toEqual(rowsBefore);
    } finally {
      await storage.start();
    }
    const after = await upload(owner.api, owner.caseId, { file: { bytes: sampleFile('pdf'), name: 'after.pdf' }, category: 'other' });
    expect(after.status).toBe(201);
  });

  it('when object storage is down, then creating a fill-and-return request (its template is stored) and downloading a template answer 503 and nothing is created', async () => {
    const simulate = (scenario: string, data: unknown) => owner.api.post(`/api/sandbox/financing_cases/${owner.caseId}/simulate`, { scenario, data });
    expect((await simulate('requested_fill_and_return', { label: 'Before', category: 'default_guarantee' })).status).toBe(204);
    const requestsPath = `/api/financing-cases/${owner.caseId}/document-requests`;
    const listed = (await owner.api.get(requestsPath)).json;
    const template = listed.find((item: { type: string }) => item.type === 'fill_and_return');
    const itemsBefore = await query(stack, 'SELECT id FROM requested_items WHERE financing_case_id = $1 ORDER BY id', [owner.caseId]);
    await storage.stop();
    try {
      const created = await simulate('requested_fill_and_return', { label: 'While down', category: 'self_disclosure_template' });
      const fetched = await download(stack, owner.partner.key, `${requestsPath}/fill-and-return-templates/${template.id}/download`);

      expect([created.status, created.contentType]).toEqual([503, 'application/problem+json; charset=utf-8']);
      expect(created.json).toMatchObject({ status: 503, type: problemTypeOf('dependency.object_storage_unavailable', stack.gatewayUrl) });
      expect([fetched.status, fetched.headers.get('content-type')]).toEqual([503, 'application/problem+json; charset=utf-8']);
      expect(JSON.parse(fetched.bytes.toString('utf8'))).toMatchObject({
        status: 503,
        type: problemTypeOf('dependency.object_storage_unavailable', stack.gatewayUrl),
      });
      expect(await query(stack, 'SELECT id FROM requested_items WHERE financing_case_id = $1 ORDER BY id', [owner.caseId])).toEqual(itemsBefore);
      expect((await owner.api.get(requestsPath)).json).toEqual(listed);
    } finally {
      await storage.start();
    }
    expect((await download(stack, owner.partner.key, `${requestsPath}/fill-and-return-templates/${template.id}/download`)).status).toBe(200);
  });

  it('when object storage is down during the sandbox signed scenario, then the contract is signed and a 503 says its PDF is missing; the same scenario once it is back attaches the signed contract, once', async () => {
    const signedCase = await partnerWithCase(stack);
    const simulate = (scenario: string) => signedCase.api.post(`/api/sandbox/financing_cases/${signedCase.caseId}/simulate`, { scenario });
    expect((await simulate('finance_accepted')).status).toBe(204);
    await storage.stop();
    let refused;
    try {
      refused = await simulate('signed');
    } finally {
      await storage.start();
    }
    expect([refused.status, refused.contentType]).toEqual([503, 'application/problem+json; charset=utf-8']);
    expect(refused.json).toMatchObject({
      status: 503,
      type: problemTypeOf('dependency.object_storage_unavailable', stack.gatewayUrl),
      detail: 'The case has moved, but its signed contract PDF could not be stored right now. Send the same scenario again later to attach it.',
    });
    expect(await query(stack, 'SELECT id FROM documents WHERE financing_case_id = $1', [signedCase.caseId])).toEqual([]);
    expect(await query(stack, 'SELECT status FROM case_workflow.contracts WHERE financing_case_id = $1', [signedCase.caseId])).toEqual([{ status: 'signed' }]);

    expect((await simulate('signed')).status).toBe(204);
    expect((await simulate('signed')).status).toBe(204);
    const listed = (await signedCase.api.get(`/api/financing-cases/${signedCase.caseId}/documents`)).json;
    expect(listed.map((document: { category: string }) => document.category)).toEqual(['signed_contract']);
    expect((await download(stack, signedCase.partner.key, listed[0].downloadUrl)).status).toBe(200);
  });

  it('when object storage stops while an upload is on its way, then 503 and no row; the interrupted key waits for the sweeper', async () => {
    const rowsBefore = await query(stack, 'SELECT id FROM documents WHERE financing_case_id = $1', [owner.caseId]);

    const result = await streamedUpload(stack, owner, sampleFile('pdf', 2_000_000), 2, async (part) => {
      if (part === 0) await storage.stop();
    });
    await storage.start();

    expect(result.status).toBe(503);
    expect(result.body).toMatchObject({ type: problemTypeOf('dependency.object_storage_unavailable', stack.gatewayUrl) });
    expect(await query(stack, 'SELECT id FROM documents WHERE financing_case_id = $1', [owner.caseId])).toEqual(rowsBefore);
    expect(await query(stack, 'SELECT reason FROM pending_objects WHERE object_key LIKE $1', [`documents/${owner.caseId}/%`])).toEqual(
      expect.arrayContaining([{ reason: 'upload' }]),
    );
  });
});
