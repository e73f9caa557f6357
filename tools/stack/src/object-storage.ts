import fs from 'node:fs';
// s3rver ships no types; its constructor options and run/close are all the stack uses.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<unknown>; close(): Promise<void> };

/** s3rver's fixed credentials; the local stack hands them to documents as S3_ACCESS_KEY/S3_SECRET_KEY. */
export const EMBEDDED_S3_CREDENTIALS = { accessKey: 'S3RVER', secretKey: 'S3RVER' };

/** An S3-API server for local runs and tests, used when S3_ENDPOINT does not point to MinIO. */
export async function startEmbeddedObjectStorage(port: number, directory: string): Promise<{ url: string; close(): Promise<void> }> {
  fs.mkdirSync(directory, { recursive: true });
  const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory });
  await server.run();
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}
