import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { ApiClient, ReceivedMail, WebhookReceiver, createTestPartner, waitFor } from '@rental/testkit';
import { createCaseViaGrpc } from '../support/cases';
import { sharedStack } from '../support/shared-stack';
import { expectedBody, hmacBase64, outboxEvents, registerEndpoint, sleep } from './support';

let hook: WebhookReceiver;

beforeAll(async () => {
  hook = await WebhookReceiver.start();
});

afterAll(() => hook.close());

async function mailAbout(caseId: string, count: number): Promise<ReceivedMail[]> {
  return waitFor(
    async () => {
      const mail = ((await (await fetch(`${sharedStack().controlUrl}/mail`)).json()) as ReceivedMail[]).filter((entry) => entry.subject.includes(caseId));
      return mail.length >= count ? mail : undefined;
    },
    { timeoutMs: 15_000, intervalMs: 100, what: `${count} mail(s) about ${caseId}` },
  );
}

describe('status changes made by case-workflow', () => {
  it('when a case is created, accepted by the lender and canceled, then the endpoint gets every change once, signed, and partner, lender and hub are mailed', async () => {
    const email = `ops-${randomBytes(4).toString('hex')}@partner.example`;
    const partner = await createTestPartner(sharedStack(), { like: 'acme', overrides: { contactEmail: email } });
    const api = new ApiClient(sharedStack().gatewayUrl, partner.key);
    const endpoint = await registerEndpoint(api, `${hook.url}/e2e`);

    const { financingCaseId: caseId } = await createCaseViaGrpc(sharedStack(), partner.id);
    expect((await api.post(`/api/sandbox/financing_cases/${caseId}/finance-decision`, { decision: 'accepted' })).status).toBe(204);
    expect((await api.post(`/api/financing_cases/${caseId}/cancel`, {})).status).toBe(204);

    const written = await waitFor(
      async () => {
        const events = await outboxEvents(sharedStack().databaseUrl, caseId);
        return events.some((event) => event.data.transition === 'cancel') ? events : undefined;
      },
      { what: 'the cancel event in the outbox' },
    );
    expect(written.map((event) => event.data.transition)).toEqual(expect.arrayContaining(['finance_accept', 'cancel']));
    const received = await waitFor(
      () => {
        const mine = hook.requests.filter((request) => JSON.parse(request.rawBody.toString('utf8')).data.financingCaseId === caseId);
        return mine.length >= written.length ? mine : undefined;
      },
      { timeoutMs: 15_000, what: `${written.length} deliveries for the case` },
    );
    await sleep(500);

    expect(hook.requests.filter((request) => JSON.parse(request.rawBody.toString('utf8')).data.financingCaseId === caseId)).toHaveLength(written.length);
    expect(received.map((request) => request.headers['webhook-id']).sort()).toEqual(written.map((event) => event.id).sort());
    for (const request of received) {
      const event = written.find((candidate) => candidate.id === request.headers['webhook-id'])!;
      // The outbox keeps jsonb (keys reordered), so the bodies are compared as values.
      expect(JSON.parse(request.rawBody.toString('utf8'))).toEqual(JSON.parse(expectedBody(event)));
      expect(request.headers['x-webhook-signature']).toBe(hmacBase64(endpoint.secret, request.rawBody));
      expect(() => new Webhook(endpoint.secret).verify(request.rawBody, request.headers as Record<string, string>)).not.toThrow();
    }

    const mail = await mailAbout(caseId, 3);
    expect(mail.map((entry) => `${entry.to.join(',')} ${entry.subject}`).sort()).toEqual(
      [
        `credit@lender-a.example Financing case ${caseId} canceled`,
        `ops@hub-north.example Financing case ${caseId} canceled`,
        `${email} Financing case ${caseId}: accepted`,
      ].sort(),
    );
  }, 45_000);
});
