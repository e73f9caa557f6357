import { randomBytes } from 'node:crypto';
import { RunningSimulator, startSigningSimulator } from '@rental/stack';
import { WebhookReceiver, freePort, waitFor } from '@rental/testkit';
import { postRaw, signedEvent } from './support/outside-parties';

/**
 * The local signing simulator speaks section 4 and 9 of the production path as a provider does:
 * a repeated request of one envelope id is the same envelope (no second invitation), and a void
 * (issue 27) closes an envelope, 404 for one it never took.
 */
const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
let simulator: RunningSimulator;
let callbacks: WebhookReceiver;

beforeAll(async () => {
  callbacks = await WebhookReceiver.start();
  simulator = await startSigningSimulator({ secret: SECRET, delayMs: 500, port: await freePort() });
});

afterAll(async () => {
  await simulator?.close();
  await callbacks?.close();
});

/** A one-page PDF written by hand: the simulator adds its signature page to the contract it got. */
const pdf = Buffer.from(
  [
    '%PDF-1.4',
    '1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj',
    '2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj',
    '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 595 842]>> endobj',
    'trailer <</Root 1 0 R>>',
    '%%EOF',
  ].join('\n'),
).toString('base64');

function requestEnvelope(envelopeId: string) {
  const message = signedEvent(
    SECRET,
    'envelope.requested',
    {
      envelopeId,
      financingCaseId: 'FC',
      contractId: 'C',
      contractNumber: null,
      signers: [{ firstName: 'Anna', lastName: 'Berg', email: 'anna@customer.example' }],
      document: { fileName: 'contract.pdf', mimeType: 'application/pdf', contentBase64: pdf },
      callbackUrl: `${callbacks.url}/signing/v1/events`,
    },
    { id: envelopeId },
  );
  return postRaw(`${simulator.url}/envelopes`, message.raw, message.headers);
}

function voidEnvelope(envelopeId: string, secret = SECRET) {
  const message = signedEvent(secret, 'envelope.void', { envelopeId, providerEnvelopeId: null, reason: 'replaced' }, { id: `void-${envelopeId}` });
  return postRaw(`${simulator.url}/envelopes/${envelopeId}/void`, message.raw, message.headers);
}

const eventsOf = (envelopeId: string) =>
  callbacks
    .bodies<{ type: string; data: { envelopeId: string } }>()
    .filter((body) => body.data.envelopeId === envelopeId)
    .map((body) => body.type);

describe('the signing simulator', () => {
  it('when one envelope id is requested twice, then both answers name the same envelope and it is sent and signed once', async () => {
    const first = await requestEnvelope('ENV-TWICE');
    const again = await requestEnvelope('ENV-TWICE');
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.json).toEqual(first.json);
    await waitFor(() => (eventsOf('ENV-TWICE').includes('envelope.signed') ? true : undefined), { what: 'the signature' });
    expect(eventsOf('ENV-TWICE')).toEqual(['envelope.sent', 'envelope.signed']);
  });

  it('when an envelope is voided, then 200 and it is never signed; an unknown envelope is 404 and an unsigned void 401', async () => {
    expect((await requestEnvelope('ENV-VOIDED')).status).toBe(200);
    expect((await voidEnvelope('ENV-VOIDED')).status).toBe(200);
    // Requested after the voided one with the same delay: once it is signed, the voided one would have been too.
    expect((await requestEnvelope('ENV-KEPT')).status).toBe(200);
    await waitFor(() => (eventsOf('ENV-KEPT').includes('envelope.signed') ? true : undefined), { what: "the kept envelope's signature" });
    expect(eventsOf('ENV-VOIDED')).toEqual(['envelope.sent']);
    expect((await voidEnvelope('ENV-NEVER')).status).toBe(404);
    expect((await voidEnvelope('ENV-KEPT', `whsec_${randomBytes(24).toString('base64')}`)).status).toBe(401);
  });
});
