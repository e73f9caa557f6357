import express, { Application, NextFunction, Request, Response } from 'express';
import { receiveLenderEvent, LenderCallbackDependencies } from '../../domain/lender/lender';
import { receiveSigningEvent, SigningCallbackDependencies } from '../../domain/signing/signing';

/** A signed PDF travels base64-encoded in the signing provider's callback. */
const CALLBACK_BODY_LIMIT = '30mb';

const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function signatureHeaders(req: Request): Record<string, string | undefined> {
  return Object.fromEntries(SIGNATURE_HEADERS.map((name) => [name, req.header(name)]));
}

/** The body exactly as it came: the signature is over these bytes, so it is never parsed and re-serialized first. */
function rawBody(req: Request): string {
  return Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
}

function handled(work: (req: Request) => Promise<void>) {
  return (req: Request, res: Response, next: NextFunction) => {
    work(req).then(() => res.status(204).end(), next);
  };
}

/**
 * The outside parties' signed callbacks (no API key, no partner headers): the lender's
 * decisions and the signing provider's envelope events. Each answers 204 when applied or
 * already applied, else a problem document.
 */
export function mountCallbacks(app: Application, deps: { lender: LenderCallbackDependencies; signing: SigningCallbackDependencies }): void {
  const raw = express.raw({ type: () => true, limit: CALLBACK_BODY_LIMIT });
  app.post(
    '/lender/v1/:lenderId/events',
    raw,
    handled((req) => receiveLenderEvent(deps.lender, String(req.params.lenderId), rawBody(req), signatureHeaders(req))),
  );
  app.post(
    '/signing/v1/events',
    raw,
    handled((req) => receiveSigningEvent(deps.signing, rawBody(req), signatureHeaders(req))),
  );
}
