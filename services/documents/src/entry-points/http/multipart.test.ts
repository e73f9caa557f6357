import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { IN_MEMORY_FILE_BYTES, receiveUpload } from './multipart';

/** A PDF of `size` bytes: the header the type check looks for, then filler. */
function pdf(size: number): Buffer {
  const bytes = Buffer.alloc(size, 7);
  Buffer.from('%PDF-1.4\n').copy(bytes);
  return bytes;
}

describe('receiving an upload', () => {
  const spoolDirectory = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'multipart-test-')), 'spool');
  /** What the handler saw of each upload: the spool directory's files while it held the upload, the bytes it read back, and after discard. */
  const seen: { spooledWhileHeld: string[]; bytes: Buffer; spooledAfterDiscard: string[] }[] = [];
  let server: http.Server;
  let url = '';

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      void (async () => {
        const upload = await receiveUpload(req, { spoolDirectory, maxFileBytes: 10_000_000, drainLimitBytes: 1_000_000 });
        const listed = () => (fs.existsSync(spoolDirectory) ? fs.readdirSync(spoolDirectory) : []);
        const spooledWhileHeld = listed();
        const bytes = await buffer(upload.form.file!.source.open());
        await upload.discard();
        seen.push({ spooledWhileHeld, bytes, spooledAfterDiscard: listed() });
        res.end('ok');
      })().catch((error: unknown) => res.writeHead(500).end(String(error)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    seen.length = 0;
  });

  async function send(file: Buffer): Promise<void> {
    const form = new FormData();
    form.set('category', 'other');
    form.set('file', new Blob([file], { type: 'application/pdf' }), 'offer.pdf');
    const response = await fetch(url, { method: 'POST', body: form });
    expect([response.status, await response.text()]).toEqual([200, 'ok']);
  }

  it('when the file is no larger than the in-memory bound, then nothing is written to disk and it reads back byte for byte', async () => {
    const file = pdf(IN_MEMORY_FILE_BYTES);

    await send(file);

    expect(seen.map((upload) => upload.spooledWhileHeld)).toEqual([[]]);
    expect(seen[0]!.bytes.equals(file)).toBe(true);
  });

  it('when the file is larger, then it is spooled to one file while it is handled, reads back byte for byte, and discard removes it', async () => {
    const file = pdf(IN_MEMORY_FILE_BYTES * 4 + 13);

    await send(file);

    expect(seen.map((upload) => [upload.spooledWhileHeld.length, upload.spooledAfterDiscard])).toEqual([[1, []]]);
    expect(seen[0]!.bytes.equals(file)).toBe(true);
  });
});
