import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ulid } from '@rental/ids';
import { grpcAddressOf } from '@rental/config';
import type { Logger } from '@rental/logger';
import { RunningService, startServiceHost } from '@rental/service-host';
import { PROBLEM_CATALOGUE } from '@rental/proto';
import type { DocumentsConfig } from './config';
import { CaseCleanupRepository } from './data-access/case-cleanup-repository';
import { GrpcCaseDirectory } from './data-access/case-directory';
import { DocumentRepository } from './data-access/document-repository';
import { ItemRepository } from './data-access/item-repository';
import { MinioObjectStore } from './data-access/object-store';
import { OperatorRepository } from './data-access/operator-repository';
import { PendingObjectsRepository } from './data-access/pending-objects-repository';
import type { DocumentsDependencies } from './domain/documents';
import { MAX_UPLOAD_BYTES } from './domain/file-type';
import { consumeStatusChanges } from './entry-points/bus/status-changed';
import { documentsGrpcService } from './entry-points/grpc/server';
import { documentsRoutes } from './entry-points/http/routes';
import { objectSweeper } from './entry-points/workers/object-sweeper';
import { migrations } from './migrations';

const STORAGE_TIMEOUT_MS = 30_000;
const SWEEP_INTERVAL_MS = 60_000;
const STALE_SPOOL_MS = 60 * 60 * 1000;

/** The bucket of this deployment: S3_BUCKET, else one per environment. */
export function bucketOf(config: Pick<DocumentsConfig, 'S3_BUCKET' | 'API_ENVIRONMENT'>): string {
  return config.S3_BUCKET ?? `rental-${config.API_ENVIRONMENT}`;
}

/**
 * The spool directory of uploads (under TMPDIR), cleared of files an earlier process left
 * behind. Not writable is no reason to stop: downloads and requests keep working, uploads
 * answer 503 until it is.
 */
function prepareSpoolDirectory(log: Logger): string {
  const directory = path.join(os.tmpdir(), 'rental-documents-uploads');
  try {
    fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
    const cutoff = Date.now() - STALE_SPOOL_MS;
    for (const name of fs.readdirSync(directory)) {
      const file = path.join(directory, name);
      if ((fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < cutoff) fs.rmSync(file, { force: true });
    }
  } catch (error) {
    log.error({ err: error, directory }, 'the upload spool directory is not writable (set TMPDIR to a writable directory); uploads answer 503');
  }
  return directory;
}

export function startDocuments(config: DocumentsConfig): Promise<RunningService> {
  return startServiceHost({
    name: 'documents',
    migrations,
    config,
    usesBus: true,
    problems: PROBLEM_CATALOGUE,
    build: async ({ db, bus, log }) => {
      const storage = new MinioObjectStore({
        endpoint: config.S3_ENDPOINT,
        accessKey: config.S3_ACCESS_KEY,
        secretKey: config.S3_SECRET_KEY,
        region: config.S3_REGION,
        bucket: bucketOf(config),
        pathStyle: config.S3_PATH_STYLE,
        timeoutMs: STORAGE_TIMEOUT_MS,
        log,
      });
      // Storage that is down at start does not stop the service: the bucket is ensured again before the first write.
      await storage
        .ensureBucket()
        .catch((error: unknown) => log.warn({ err: error, bucket: bucketOf(config) }, 'object storage not reachable at start; uploads answer 503 until it is'));
      const cases = new GrpcCaseDirectory(grpcAddressOf('case-workflow', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const pending = new PendingObjectsRepository(db);
      const cleanup = new CaseCleanupRepository(db);
      const deps: DocumentsDependencies = {
        cases,
        documents: new DocumentRepository(db),
        items: new ItemRepository(db),
        storage,
        pending,
        now: () => new Date(),
        objectKey: (kind, financingCaseId) => `${kind}/${financingCaseId}/${ulid()}`,
      };
      consumeStatusChanges(bus, { cleanup, now: deps.now }, log);
      return {
        router: documentsRoutes(deps, { spoolDirectory: prepareSpoolDirectory(log), maxFileBytes: MAX_UPLOAD_BYTES, drainLimitBytes: 16 * 1024 * 1024 }),
        grpc: [documentsGrpcService({ ...deps, cleanup, operator: new OperatorRepository(db) }, log)],
        workers: [objectSweeper({ pending, storage, now: deps.now }, SWEEP_INTERVAL_MS, log)],
        close: async () => {
          cases.close();
          storage.close();
        },
      };
    },
  });
}
