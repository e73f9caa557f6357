import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';

/**
 * A DevTools-protocol session with another Node process (started with --inspect), over a minimal
 * WebSocket client: enough to force a garbage collection there and read its memory, so a test
 * measures what the process holds rather than garbage it has not collected yet.
 */
export class InspectorSession {
  private buffer = Buffer.alloc(0);
  private message: Buffer[] = [];
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: any) => void; reject: (error: Error) => void }>();

  private constructor(private readonly socket: net.Socket) {}

  /** The inspector URL the process printed into its log. */
  static urlFromLog(logFile: string): string {
    const match = /Debugger listening on (ws:\/\/\S+)/.exec(fs.readFileSync(logFile, 'utf8'));
    if (!match?.[1]) throw new Error(`no inspector URL in ${logFile}`);
    return match[1];
  }

  static connect(wsUrl: string): Promise<InspectorSession> {
    const url = new URL(wsUrl);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write(
          `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        );
      });
      let handshake = Buffer.alloc(0);
      const onHandshake = (chunk: Buffer) => {
        handshake = Buffer.concat([handshake, chunk]);
        const end = handshake.indexOf('\r\n\r\n');
        if (end < 0) return;
        socket.off('data', onHandshake);
        if (!/^HTTP\/1\.1 101/.test(handshake.toString('latin1'))) {
          reject(new Error(`inspector refused the upgrade: ${handshake.toString('latin1').split('\r\n')[0]}`));
          socket.destroy();
          return;
        }
        const session = new InspectorSession(socket);
        socket.on('data', (data: Buffer) => session.receive(data));
        session.receive(handshake.subarray(end + 4));
        resolve(session);
      };
      socket.on('data', onHandshake);
      socket.once('error', reject);
    });
  }

  send<T = any>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    const payload = Buffer.from(JSON.stringify({ id, method, params }));
    const mask = randomBytes(4);
    const length =
      payload.length < 126
        ? Buffer.from([0x80 | payload.length])
        : payload.length < 65536
          ? Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 0xff])
          : (() => {
              const header = Buffer.alloc(9);
              header[0] = 0x80 | 127;
              header.writeBigUInt64BE(BigInt(payload.length), 1);
              return header;
            })();
    const masked = Buffer.from(payload.map((byte, index) => byte ^ (mask[index % 4] as number)));
    this.socket.write(Buffer.concat([Buffer.from([0x81]), length, mask, masked]));
    return new Promise<T>((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  /**
   * Heap and off-heap (Buffer) bytes the process still holds after full collections. The process
   * must run with --expose-gc: collecting and reading happen in one synchronous evaluation there,
   * so nothing it does in between (an upload arriving) is counted as held. The collection is
   * repeated until `external` stops falling, because V8 frees the ArrayBuffers a collection found
   * dead on another thread and takes their bytes off `external` only at a later collection: after
   * one, every Buffer that died in it (all the chunks that passed since the last) still counts.
   */
  async liveMemory(): Promise<number> {
    const { result, exceptionDetails } = await this.send<{ result: { value: string }; exceptionDetails?: { exception?: { description?: string } } }>(
      'Runtime.evaluate',
      {
        expression: `(() => {
        let usage;
        for (let collections = 0; collections < 10; collections += 1) {
          gc();
          const next = process.memoryUsage();
          if (usage && next.external >= usage.external) break;
          usage = next;
        }
        return JSON.stringify(usage);
      })()`,
        returnByValue: true,
      },
    );
    if (exceptionDetails)
      throw new Error(`reading memory failed (is the process running with --expose-gc?): ${exceptionDetails.exception?.description ?? 'unknown error'}`);
    const usage = JSON.parse(result.value) as NodeJS.MemoryUsage;
    return usage.heapUsed + usage.external;
  }

  close(): void {
    this.socket.destroy();
  }

  private receive(data: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, data]);
    for (;;) {
      if (this.buffer.length < 2) return;
      const first = this.buffer[0] as number;
      let length = (this.buffer[1] as number) & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (this.buffer.length < 4) return;
        length = this.buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (this.buffer.length < 10) return;
        length = Number(this.buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (this.buffer.length < offset + length) return;
      this.message.push(this.buffer.subarray(offset, offset + length));
      this.buffer = this.buffer.subarray(offset + length);
      if (first & 0x80) {
        const text = Buffer.concat(this.message).toString('utf8');
        this.message = [];
        const opcode = first & 0x0f;
        if (opcode === 1 || opcode === 0) this.dispatch(text);
      }
    }
  }

  private dispatch(text: string): void {
    const message = JSON.parse(text) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id === undefined) return;
    const waiting = this.pending.get(message.id);
    this.pending.delete(message.id);
    if (message.error) waiting?.reject(new Error(message.error.message));
    else waiting?.resolve(message.result);
  }
}
