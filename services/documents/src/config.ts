import { z } from 'zod';
import { booleanVariable, loadConfig, urlVariable } from '@rental/config';
import { serviceVariables } from '@rental/service-host';

export const documentsVariables = {
  ...serviceVariables,
  /** S3 API of the object storage: MinIO in a cluster, the local stack's embedded server otherwise. */
  S3_ENDPOINT: urlVariable(['http', 'https']),
  S3_ACCESS_KEY: z.string().min(1),
  S3_SECRET_KEY: z.string().min(1),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Bucket of this deployment; one per environment. */
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid bucket name')
    .optional(),
  S3_PATH_STYLE: booleanVariable(true),
};

export type DocumentsConfig = ReturnType<typeof loadDocumentsConfig>;

export function loadDocumentsConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(documentsVariables, env);
}
