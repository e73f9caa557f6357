import { traceHeaders } from '@rental/logger';
import { standardWebhookHeaders, verifyStandardWebhook } from '@rental/standard-webhooks';
import type { SignedMessages } from '../domain/signing/ports';

/** Standard Webhooks, signed now and verified against now (@rental/standard-webhooks). */
export class StandardWebhooks implements SignedMessages {
  headers(secret: string, id: string, body: string): Record<string, string> {
    return standardWebhookHeaders([secret], id, body, new Date());
  }

  verify(secret: string, body: string, headers: Record<string, string | undefined>): boolean {
    return verifyStandardWebhook(secret, body, headers);
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
