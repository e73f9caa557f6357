import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import * as Minio from 'minio';
import type { Logger } from '@rental/logger';
import { DomainError } from '@rental/problem';
import type { FileSource } from '../domain/model';
import type { ObjectStore } from '../domain/ports';

export interface ObjectStorageOptions {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region: string;
  bucket: string;
  pathStyle: boolean;
  /** Longest silence on a storage connection before the call counts as failed. */
  timeoutMs: number;
  log: Logger;
}

const PRESIGNED_PUT_SECONDS = 15 * 60;

function unavailable(cause: unknown): DomainError {
  return new DomainError(
    'unavailable',
    'dependency.object_storage_unavailable',
    'The document storage is not available right now. Nothing was stored; retry later.',
    { cause },
  );
}

const codeOf = (error: unknown) => (error as { code?: string } | null)?.code;

/**
 * The reset of a request sent on a kept-alive connection before any answer: the server closed
 * the idle connection as the request was sent (Node's http documentation, `request.reusedSocket`).
 */
class StaleConnection extends Error {
  constructor(cause: unknown) {
    super('the storage closed a kept-alive connection as the request was sent', { cause });
  }
}

/**
 * A request sent once more when its first try failed on a connection the storage reset, most
 * often a kept-alive one it closed as the request went out. Only for requests that may be sent
 * twice: a PUT of a key no one else writes, a GET, a DELETE. A storage that is really down fails
 * the second try too.
 */
async function onceMoreIf<T>(reset: (error: unknown) => boolean, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!reset(error)) throw error;
    return call();
  }
}

/** The client library hides whether its socket was reused, so any reset of its requests counts. */
const isReset = (error: unknown) => codeOf(error) === 'ECONNRESET';

/**
 * Object storage over the S3 API (MinIO; the local stack's embedded server). Bytes are written
 * with one streamed PUT of known length to a presigned URL: the client library's putObject reads
 * any object smaller than its part size (at least 5 MiB) into one buffer first, which is what an
 * upload must never do.
 */
export class MinioObjectStore implements ObjectStore {
  private readonly client: Minio.Client;
  private readonly agent: http.Agent;
  private bucketReady?: Promise<void>;

  constructor(private readonly options: ObjectStorageOptions) {
    const url = new URL(options.endpoint);
    const useSSL = url.protocol === 'https:';
    this.agent = useSSL ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    this.client = new Minio.Client({
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : useSSL ? 443 : 80,
      useSSL,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: options.region,
      pathStyle: options.pathStyle,
      transportAgent: this.agent,
      // A failure answers 503 at once; the partner retries, not the service.
      retryOptions: { disableRetry: true },
    });
  }

  /** Creates the bucket when it is missing; remembered once it succeeded, retried after a failure. */
  ensureBucket(): Promise<void> {
    this.bucketReady ??= (async () => {
      const { bucket, region } = this.options;
      if (await this.client.bucketExists(bucket)) return;
      try {
        await this.client.makeBucket(bucket, region);
        this.options.log.info({ bucket }, 'bucket created');
      } catch (error) {
        // Another replica created it meanwhile.
        if (codeOf(error) !== 'BucketAlreadyOwnedByYou' && codeOf(error) !== 'BucketAlreadyExists') throw error;
      }
    })().catch((error: unknown) => {
      this.bucketReady = undefined;
      throw error;
    });
    return this.bucketReady;
  }

  async put(key: string, source: FileSource): Promise<void> {
    try {
      await this.ensureBucket();
      const url = await this.client.presignedPutObject(this.options.bucket, key, PRESIGNED_PUT_SECONDS);
      // Nothing was stored when the kept-alive connection was closed under the PUT.
      await onceMoreIf(
        (error) => error instanceof StaleConnection,
        () => this.streamPut(new URL(url), source),
      );
    } catch (error) {
      throw unavailable(error);
    }
  }

  private streamPut(url: URL, source: FileSource): Promise<void> {
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<void>((resolve, reject) => {
      const body = source.open();
      const request = transport.request(
        url,
        {
          method: 'PUT',
          agent: this.agent,
          timeout: this.options.timeoutMs,
          headers: { 'Content-Length': String(source.size), 'Content-Type': source.mimeType },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            if (response.statusCode === 200) resolve();
            else {
              body.destroy();
              reject(new Error(`storage answered ${response.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 500)}`));
            }
          });
        },
      );
      request.on('timeout', () => request.destroy(new Error('storage did not answer in time')));
      request.on('error', (error) => {
        body.destroy();
        reject(request.reusedSocket && codeOf(error) === 'ECONNRESET' ? new StaleConnection(error) : error);
      });
      body.on('error', (error) => request.destroy(error));
      body.pipe(request);
    });
  }

  async get(key: string): Promise<Readable> {
    try {
      return await onceMoreIf(isReset, () => this.client.getObject(this.options.bucket, key));
    } catch (error) {
      if (codeOf(error) === 'NoSuchKey') {
        this.options.log.error({ key }, 'a document row refers to an object that is missing');
        throw new DomainError('unavailable', 'document.content_missing', 'The content of this file cannot be read right now.', { cause: error });
      }
      throw unavailable(error);
    }
  }

  async remove(key: string): Promise<void> {
    try {
      await onceMoreIf(isReset, () => this.client.removeObject(this.options.bucket, key));
    } catch (error) {
      if (codeOf(error) === 'NoSuchKey') return;
      throw unavailable(error);
    }
  }

  close(): void {
    this.agent.destroy();
  }
}
