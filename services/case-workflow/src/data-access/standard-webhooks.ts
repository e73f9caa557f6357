import { Webhook } from 'standardwebhooks';
import { traceHeaders } from '@rental/logger';
import type { SignedMessages } from '../domain/signing/ports';

/** Standard Webhooks with the `standardwebhooks` package: one Webhook per secret, kept. */
export class StandardWebhooks implements SignedMessages {
  private readonly bySecret = new Map<string, Webhook>();

  private webhook(secret: string): Webhook {
    let webhook = this.bySecret.get(secret);
    if (!webhook) {
      webhook = new Webhook(secret);
      this.bySecret.set(secret, webhook);
    }
    return webhook;
  }

  headers(secret: string, id: string, body: string): Record<string, string> {
    const at = new Date();
    return {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': this.webhook(secret).sign(id, at, body),
    };
  }

  verify(secret: string, body: string, headers: Record<string, string | undefined>): boolean {
    const id = headers['webhook-id'];
    const timestamp = headers['webhook-timestamp'];
    const signature = headers['webhook-signature'];
    if (!id || !timestamp || !signature) return false;
    try {
      this.webhook(secret).verify(body, { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature }, { jsonParse: false });
      return true;
    } catch {
      return false;
    }
  }
}

/** One signed JSON POST with a deadline and the current traceparent: the answer's status and parsed body (null when not JSON). */
export async function postSigned(
  signed: SignedMessages,
  url: string,
  secret: string,
  id: string,
  message: unknown,
  timeoutMs: number,
): Promise<{ status: number; body: unknown }> {
  const body = JSON.stringify(message);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...traceHeaders(), ...signed.headers(secret, id, body) },
    body,
    signal: AbortSignal.timeout(timeoutMs),
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the caller decides whether that matters
  }
  return { status: response.status, body: parsed };
}
