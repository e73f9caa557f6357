import { randomBytes } from 'node:crypto';
import * as Minio from 'minio';
import { LOCAL_HELPER_OFFSETS, grpcAddressOf } from '@rental/config';
import { bucketOf } from '@rental/documents';
import { TypedClient, createGrpcClient } from '@rental/grpc';
import { loadDocumentsPackage } from '@rental/proto';
import type { documents } from '@rental/proto';
import { ApiClient, ApiResponse } from '@rental/testkit';
import { createCaseViaGrpc } from '../../support/cases';
import { rows } from '../../support/database';
import { OwnPartner, ownPartner } from '../../support/partners';
import { StackAddress, apiAs, sharedStack } from '../../support/shared-stack';

/** A partner of its own with one case, and a client with its key. */
export interface PartnerWithCase extends OwnPartner {
  caseId: string;
}

export async function partnerWithCase(stack: StackAddress = sharedStack()): Promise<PartnerWithCase> {
  const own = await ownPartner(stack);
  const created = await createCaseViaGrpc(stack, own.partner.id);
  return { ...own, caseId: created.financingCaseId };
}

export async function anotherCase(owner: PartnerWithCase, stack: StackAddress = sharedStack()): Promise<string> {
  return (await createCaseViaGrpc(stack, owner.partner.id)).financingCaseId;
}

export { apiAs, sharedStack };

// Files: the first bytes decide the type; the rest is random, so a download can be compared byte for byte.
const HEADS = {
  pdf: Buffer.from('%PDF-1.4\n'),
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]),
  text: Buffer.from('Just some text, not a PDF at all.\n'),
};

export function sampleFile(kind: keyof typeof HEADS, size = 4096): Buffer {
  const bytes = randomBytes(size);
  HEADS[kind].copy(bytes, 0, 0, Math.min(size, HEADS[kind].length));
  if (kind === 'text') bytes.fill(0x61, HEADS.text.length);
  return bytes;
}

export interface UploadParts {
  file?: { bytes: Buffer; name: string; type?: string };
  category?: string;
  description?: string;
  requestedDocumentId?: string | number;
  extra?: Record<string, string>;
}

export function uploadForm(parts: UploadParts): FormData {
  const form = new FormData();
  if (parts.category !== undefined) form.append('category', parts.category);
  if (parts.description !== undefined) form.append('description', parts.description);
  if (parts.requestedDocumentId !== undefined) form.append('requestedDocumentId', String(parts.requestedDocumentId));
  for (const [name, value] of Object.entries(parts.extra ?? {})) form.append(name, value);
  if (parts.file) form.append('file', new Blob([parts.file.bytes], { type: parts.file.type ?? 'application/octet-stream' }), parts.file.name);
  return form;
}

export function upload(api: ApiClient, caseId: string, parts: UploadParts): Promise<ApiResponse> {
  return api.request('POST', `/api/financing-cases/${caseId}/documents`, { rawBody: uploadForm(parts) });
}

/** The owner's upload of a file named `name` (a sample PDF unless other bytes are given) in `category`, as the answer to a requested document. */
export function uploadAnswer(
  owner: { api: ApiClient; caseId: string },
  requestedDocumentId: string | number | undefined,
  category: string,
  name: string,
  bytes: Buffer = sampleFile('pdf'),
): Promise<ApiResponse> {
  return upload(owner.api, owner.caseId, { file: { bytes, name }, category, requestedDocumentId });
}

/** Raw bytes of a download (the ApiClient reads bodies as text). */
export async function download(stack: StackAddress, key: string, path: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(stack.gatewayUrl + path, { headers: { 'X-Api-Key': key } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

type DocumentsClient = InstanceType<ReturnType<typeof loadDocumentsPackage>['DocumentsService']>;

/** documents' own gRPC, as case-workflow calls it. */
export function documentsRpc(stack: StackAddress = sharedStack()): TypedClient<DocumentsClient> {
  return new TypedClient(createGrpcClient(loadDocumentsPackage().DocumentsService, grpcAddressOf('documents', stack.portBase, {})), 10_000);
}

export async function createItems(
  rpc: TypedClient<DocumentsClient>,
  owner: PartnerWithCase,
  itemType: string,
  items: Partial<documents.NewRequestItem>[],
  caseId = owner.caseId,
): Promise<documents.RequestItem__Output[]> {
  const created = await rpc.call(
    'CreateRequestItems',
    {
      financingCaseId: caseId,
      itemType,
      items: items.map((item) => ({ label: '', category: '', question: '', optional: false, targetAudience: '', dueAt: '', ...item })),
    },
    { partnerId: owner.partner.id, requestId: 'documents-test' },
  );
  return created.items;
}

/** Rows of the documents schema, read directly for assertions a partner cannot make. */
export function query<T = Record<string, unknown>>(stack: StackAddress, sql: string, values: unknown[] = []): Promise<T[]> {
  return rows<T>(stack.databaseUrl, sql, values, 'documents');
}

/** The stack's object storage (the embedded S3 server unless the stack was given another). */
function storageOf(
  stack: StackAddress,
  endpoint = `http://127.0.0.1:${stack.portBase + LOCAL_HELPER_OFFSETS.objectStorage}`,
  credentials = { accessKey: 'S3RVER', secretKey: 'S3RVER' },
): { client: Minio.Client; bucket: string } {
  const url = new URL(endpoint);
  return {
    client: new Minio.Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, region: 'us-east-1', pathStyle: true, ...credentials }),
    bucket: bucketOf({ S3_BUCKET: undefined, API_ENVIRONMENT: stack.environment as 'sandbox' }),
  };
}

export async function storedObjects(stack: StackAddress, prefix: string): Promise<string[]> {
  const { client, bucket } = storageOf(stack);
  const names: string[] = [];
  for await (const item of client.listObjectsV2(bucket, prefix, true)) if (item.name) names.push(item.name);
  return names.sort();
}

/**
 * A multipart body written by hand, for what FormData would escape: a filename* parameter
 * (RFC 5987) carrying line breaks or path segments.
 */
export function rawMultipart(parts: { name: string; value?: string; file?: { bytes: Buffer; disposition: string; type?: string } }[]): {
  body: Buffer;
  contentType: string;
} {
  const boundary = `----documents-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if (part.file) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; ${part.file.disposition}\r\nContent-Type: ${part.file.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.file.bytes,
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value ?? ''}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Inserts a document row as another channel would (customer, operator): no API makes these. */
export async function insertDocument(
  stack: StackAddress,
  owner: PartnerWithCase,
  row: { category: string; uploadedBy: string; signed?: boolean; internalOnly?: boolean; reviewStatus?: string | null },
): Promise<number> {
  const [inserted] = await query<{ id: number }>(
    stack,
    `INSERT INTO documents (financing_case_id, partner_id, original_name, mime_type, file_size, category, uploaded_at, uploaded_by, review_status, object_key, signed, internal_only)
    VALUES ($1, $2, 'other-channel.pdf', 'application/pdf', 10, $3, now(), $4, $5, $6, $7, $8) RETURNING id`,
    [
      owner.caseId,
      owner.partner.id,
      row.category,
      row.uploadedBy,
      row.reviewStatus === undefined ? 'VERIFIED' : row.reviewStatus,
      `test/${randomBytes(8).toString('hex')}`,
      row.signed ?? false,
      row.internalOnly ?? false,
    ],
  );
  return (inserted as { id: number }).id;
}
