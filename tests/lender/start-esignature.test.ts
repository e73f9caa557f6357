import { Stack, bootStack, shutdownStack, waitFor } from '@rental/testkit';
import { Owner, expectProblem, newCase, newPartner, query } from '../case-workflow/support/kit';
import { Answer, OutsideParty, SignedRequest, pdfLines, postRaw, signedEvent } from './support/outside-parties';
import { newSigningSecret, seededLender, sendLenderApplicationsTo } from './support/seeded-lenders';

/**
 * start-esignature on the production path (issue 27 items 3 and 4), on a stack of its own: the
 * lender's intake and the signing provider are real HTTP servers of this test that verify every
 * signature they get with the `standardwebhooks` package; the lender's decisions come through the
 * gateway like a lender's would.
 */
const lenderA = seededLender('lender-a');
const SIGNING_SECRET = newSigningSecret();

let stack: Stack;
let lender: OutsideParty;
let signing: OutsideParty;
let owner: Owner;

/**
 * The provider as a real one behaves: an envelope request answers the provider's id for the
 * envelope id (a repeated request of one envelope id is the same envelope), a void answers 200.
 */
const takeEnvelopes = (request: SignedRequest): Answer =>
  request.path.endsWith('/void') ? { status: 200 } : { status: 200, body: { providerEnvelopeId: `PE-${String(request.body?.data?.envelopeId)}` } };

type Person = { firstName: string; lastName: string; email: string; soloSigneePermitted?: boolean };

const anna: Person = { firstName: 'Anna', lastName: 'Berg', email: 'anna.berg@customer.example' };
const ben: Person = { firstName: 'Ben', lastName: 'Kurz', email: 'ben.kurz@customer.example' };
const cleo: Person = { firstName: 'Cleo', lastName: 'Lang', email: 'cleo.lang@customer.example' };
const statementOfThree = { signatories: [anna, ben, cleo].map(({ firstName, lastName, email }) => ({ firstName, lastName, email })), minimumSigners: 2 };

beforeAll(async () => {
  lender = await OutsideParty.start(lenderA.webhookSecret, (request) => ({
    status: 200,
    body: { reference: `REF-${String(request.body?.data?.applicationId).slice(-8)}` },
  }));
  signing = await OutsideParty.start(SIGNING_SECRET, takeEnvelopes);
  stack = await bootStack({
    environment: 'production',
    env: { SIGNING_WEBHOOK_SECRET: SIGNING_SECRET, SIGNING_PROVIDER_URL: signing.url, PRODUCTION_SIMULATORS: 'true', LENDER_SUBMISSION_POLL_MS: '200' },
  });
  owner = await newPartner(stack);
  await sendLenderApplicationsTo(lender, stack);
}, 180_000);

afterAll(async () => {
  if (stack) await shutdownStack(stack);
  await Promise.all([lender?.close(), signing?.close()]);
});

/** A case in finance review, accepted by lender-a through its signed callback with this statement. */
async function acceptedCase(signingStatement: unknown): Promise<string> {
  const { caseId } = await newCase(owner, {}, stack);
  const event = signedEvent(lenderA.webhookSecret, 'application.accepted', { financingCaseId: caseId, reference: 'REF-LENDER', signingStatement });
  const answer = await postRaw(`${stack.gatewayUrl}/lender/v1/lender-a/events`, event.raw, event.headers);
  expect(answer.status).toBe(204);
  return caseId;
}

const start = (caseId: string, authorizedPersons: Person[]) => owner.api.post(`/api/financing-cases/${caseId}/start-esignature`, { authorizedPersons });

async function nothingStarted(caseId: string): Promise<void> {
  expect(signing.about(caseId)).toEqual([]);
  expect(await query('SELECT c.id FROM contracts c WHERE c.financing_case_id = $1', [caseId], stack)).toEqual([]);
  expect(await query('SELECT p.id FROM authorized_persons p JOIN quotes q ON q.id = p.quote_id WHERE q.financing_case_id = $1', [caseId], stack)).toEqual([]);
}

describe("the lender's signing statement", () => {
  it.each([
    {
      when: 'one listed person with soloSigneePermitted true starts while the statement asks for two signers',
      then: 'signing_rule_not_met and nothing is started',
      persons: [{ ...anna, soloSigneePermitted: true }],
      violation: {
        propertyPath: 'authorizedPersons',
        code: 'esignature.signing_rule_not_met',
        message: "The lender's statement requires at least 2 persons to sign together; 1 was given (soloSigneePermitted does not lower the lender's minimum).",
      },
    },
    {
      when: "a listed name comes with another person's mailbox",
      then: 'not_on_signing_statement at that person and no invitation goes out',
      persons: [anna, { ...ben, email: 'someone.else@elsewhere.example' }],
      violation: {
        propertyPath: 'authorizedPersons[1]',
        code: 'esignature.not_on_signing_statement',
        message: "The lender's statement names Ben Kurz with another e-mail address; the invitation must go to the address the lender gave.",
      },
    },
  ])('when $when, then 422 $then', async ({ persons, violation }) => {
    const caseId = await acceptedCase(statementOfThree);
    const answer = await start(caseId, persons);
    expectProblem(answer, 422, undefined, stack);
    expect(answer.json.violations).toEqual([violation]);
    await nothingStarted(caseId);
  });

  it('when two listed persons start, written with other case and blanks, then 200 and the provider invites exactly them', async () => {
    const caseId = await acceptedCase(statementOfThree);
    const answer = await start(caseId, [
      { ...anna, email: 'Anna.Berg@Customer.Example' },
      { ...cleo, firstName: ' cleo ', lastName: 'LANG' },
    ]);
    expect(answer.status).toBe(200);
    const [request, ...more] = signing.about(caseId);
    expect(more).toEqual([]);
    expect(request!.verified).toBe(true);
    expect(request!.body.data.signers).toEqual([
      { firstName: 'Anna', lastName: 'Berg', email: 'Anna.Berg@Customer.Example' },
      { firstName: 'cleo', lastName: 'LANG', email: 'cleo.lang@customer.example' },
    ]);
    expect(answer.json.envelopeId).toBe(request!.body.data.envelopeId);
  });
});

describe('the contract PDF', () => {
  it('when the contract of a monthly leasing with the surcharge is sent for signing, then it states the all-in rate the customer pays (34.30), not the bare 31.80', async () => {
    const caseId = await acceptedCase(null);
    expect((await start(caseId, [{ ...anna, soloSigneePermitted: true }])).status).toBe(200);
    const [request] = signing.about(caseId);
    const lines = pdfLines(Buffer.from(request!.body.data.document.contentBase64, 'base64'));
    expect(lines).toContain('Monthly rate 34.30 EUR');
    expect(lines.join('\n')).not.toContain('31.80');
  });
});

/** Envelope ids the provider was asked for (each once however often it was asked) and not asked to void since: what it holds open. */
function openAtProvider(caseId: string): string[] {
  const requested = new Set(
    signing
      .about(caseId)
      .filter((request) => request.path === '/envelopes')
      .map((request) => request.body.data.envelopeId as string),
  );
  const voided = new Set(signing.requests.filter((request) => request.path.endsWith('/void')).map((request) => request.body.data.envelopeId as string));
  return [...requested].filter((envelopeId) => !voided.has(envelopeId));
}

const voidsOf = (envelopeId: string) => signing.requests.filter((request) => request.path === `/envelopes/${envelopeId}/void`);

async function providerEnvelopes(caseId: string) {
  return query<{ envelope_id: string; state: string; void_reason: string | null; void_attempts: number }>(
    'SELECT envelope_id, state, void_reason, void_attempts FROM provider_envelopes WHERE financing_case_id = $1 ORDER BY created_at',
    [caseId],
    stack,
  );
}

/** Makes the provider hold its answers (those a real provider gives) until the returned function is called. */
function holdEnvelopeAnswers(): () => void {
  let answer!: () => void;
  const held = new Promise<void>((resolve) => {
    answer = resolve;
  });
  signing.answerWith((request) => ({ ...takeEnvelopes(request), heldUntil: held }));
  return answer;
}

/** Whether a transaction holds the case's row: a lock attempt that does not wait. */
async function caseIsLocked(caseId: string): Promise<boolean> {
  try {
    await query('SELECT id FROM financing_cases WHERE id = $1 FOR UPDATE NOWAIT', [caseId], stack);
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === '55P03') return true;
    throw error;
  }
}

describe('a retried start-esignature', () => {
  afterEach(() => signing.answerWith(takeEnvelopes));

  it('when the partner starts again with the same persons while the envelope is open, then 200 with the same envelope and the provider was asked once', async () => {
    const caseId = await acceptedCase(null);
    const first = await start(caseId, [anna, ben]);
    expect(first.status).toBe(200);
    const again = await start(caseId, [{ ...ben, email: 'Ben.Kurz@Customer.Example' }, anna]);
    expect([again.status, again.json]).toEqual([200, first.json]);
    expect(signing.about(caseId)).toHaveLength(1);
    expect(openAtProvider(caseId)).toEqual([first.json.envelopeId]);
    expect(await query('SELECT id FROM contracts WHERE financing_case_id = $1', [caseId], stack)).toEqual([{ id: first.json.contractId }]);
  });

  it('when the partner starts with other persons, then the open envelope is replaced and voided at the provider with a signed envelope.void', async () => {
    const caseId = await acceptedCase(null);
    const first = await start(caseId, [{ ...anna, soloSigneePermitted: true }]);
    const second = await start(caseId, [anna, ben]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.json.envelopeId).not.toBe(first.json.envelopeId);
    expect(second.json.contractId).toBe(first.json.contractId);

    const [voided, ...more] = await waitFor(() => (voidsOf(first.json.envelopeId).length > 0 ? voidsOf(first.json.envelopeId) : undefined), {
      timeoutMs: 15_000,
      what: 'the void of the replaced envelope',
    });
    expect(more).toEqual([]);
    expect(voided!.verified).toBe(true);
    expect(voided!.headers['webhook-id']).toBe(`void-${first.json.envelopeId}`);
    expect(voided!.body).toEqual({
      type: 'envelope.void',
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      data: { envelopeId: first.json.envelopeId, providerEnvelopeId: `PE-${first.json.envelopeId}`, reason: 'replaced' },
    });
    expect(openAtProvider(caseId)).toEqual([second.json.envelopeId]);
    await waitFor(async () => ((await providerEnvelopes(caseId))[0]?.state === 'voided' ? true : undefined), { what: 'the void recorded' });
    expect(await providerEnvelopes(caseId)).toEqual([
      { envelope_id: first.json.envelopeId, state: 'voided', void_reason: 'replaced', void_attempts: 1 },
      { envelope_id: second.json.envelopeId, state: 'accepted', void_reason: null, void_attempts: 0 },
    ]);
    const [entry] = await query(
      'SELECT actor_type, action, reason, details FROM case_history WHERE financing_case_id = $1 AND action = $2',
      [caseId, 'envelope_voided'],
      stack,
    );
    expect(entry).toEqual({
      actor_type: 'system',
      action: 'envelope_voided',
      reason: 'replaced',
      details: expect.objectContaining({ envelopeId: first.json.envelopeId }),
    });
    // The replaced envelope's events no longer apply.
    const late = signedEvent(SIGNING_SECRET, 'envelope.declined', { envelopeId: first.json.envelopeId, reason: 'late' });
    expectProblem(await postRaw(`${stack.gatewayUrl}/signing/v1/events`, late.raw, late.headers), 409, 'signing.envelope_replaced', stack);
  });

  it('when the provider answers the void with 500 first, then the void is tried again, with the same webhook-id and body, until it answers 2xx', async () => {
    const caseId = await acceptedCase(null);
    const first = await start(caseId, [{ ...anna, soloSigneePermitted: true }]);
    let voidCalls = 0;
    signing.answerWith((request) => {
      if (!request.path.endsWith('/void')) return takeEnvelopes(request);
      voidCalls += 1;
      return { status: voidCalls === 1 ? 500 : 204 };
    });
    expect((await start(caseId, [{ ...ben, soloSigneePermitted: true }])).status).toBe(200);
    await waitFor(async () => ((await providerEnvelopes(caseId))[0]?.state === 'voided' ? true : undefined), {
      timeoutMs: 20_000,
      what: 'the void after a failed attempt',
    });
    const attempts = voidsOf(first.json.envelopeId);
    expect(attempts).toHaveLength(2);
    expect(attempts.every((attempt) => attempt.verified)).toBe(true);
    expect(new Set(attempts.map((attempt) => attempt.headers['webhook-id'])).size).toBe(1);
    expect(new Set(attempts.map((attempt) => JSON.stringify(attempt.body.data))).size).toBe(1);
    expect((await providerEnvelopes(caseId))[0]).toEqual({ envelope_id: first.json.envelopeId, state: 'voided', void_reason: 'replaced', void_attempts: 2 });
  });

  it('when the provider is slow to answer, then no transaction holds the case meanwhile', async () => {
    const caseId = await acceptedCase(null);
    const answer = holdEnvelopeAnswers();
    const inFlight = start(caseId, [{ ...anna, soloSigneePermitted: true }]);
    await waitFor(() => (signing.about(caseId).length === 1 ? true : undefined), { what: 'the envelope request at the provider' });
    expect(await caseIsLocked(caseId)).toBe(false);
    answer();
    expect((await inFlight).status).toBe(200);
  });

  it('when case-workflow dies after the provider took the envelope and the partner retries, then the provider holds exactly one open envelope, the one answered', async () => {
    const caseId = await acceptedCase(null);
    const answer = holdEnvelopeAnswers();
    const persons = [anna, ben];
    const inFlight = start(caseId, persons);
    await waitFor(() => (signing.about(caseId).length === 1 ? true : undefined), { what: 'the envelope request at the provider' });
    // The provider took it; case-workflow dies before it hears so.
    await stack.processes['case-workflow'].kill('SIGKILL');
    answer();
    signing.answerWith(takeEnvelopes);
    expect([502, 503]).toContain((await inFlight).status);

    stack.processes['case-workflow'].start();
    await stack.processes['case-workflow'].waitReady();
    const retry = await waitFor(
      async () => {
        const response = await start(caseId, persons);
        return response.status === 503 ? undefined : response;
      },
      { timeoutMs: 20_000, intervalMs: 250, what: 'the retry to reach the restarted case-workflow' },
    );
    expect(retry.status).toBe(200);
    expect(openAtProvider(caseId)).toEqual([retry.json.envelopeId]);
    expect(await providerEnvelopes(caseId)).toEqual([{ envelope_id: retry.json.envelopeId, state: 'accepted', void_reason: null, void_attempts: 0 }]);
    const contract = (await owner.api.get(`/api/contracts/${retry.json.contractId}`)).json;
    expect([contract.status, contract.signatureEnvelope.id, contract.signatureEnvelope.status]).toEqual(['wait_for_signing', retry.json.envelopeId, 'sent']);
  }, 90_000);

  it("when the provider never answers and the partner does not retry, then the partner gets 503 and the envelope is voided once its request's lease ran out", async () => {
    const caseId = await acceptedCase(null);
    signing.answerWith((request) =>
      request.path === '/envelopes' ? { status: 200, body: { providerEnvelopeId: 'late' }, delayMs: 11_000 } : takeEnvelopes(request),
    );
    const answer = await start(caseId, [{ ...anna, soloSigneePermitted: true }]);
    expectProblem(answer, 503, 'signing.provider_unavailable', stack);
    const [requested] = signing.about(caseId);
    const envelopeId = requested!.body.data.envelopeId as string;
    expect(await query('SELECT id FROM contracts WHERE financing_case_id = $1', [caseId], stack)).toEqual([]);
    await waitFor(() => (voidsOf(envelopeId).length > 0 ? true : undefined), {
      timeoutMs: 60_000,
      intervalMs: 500,
      what: 'the void of the abandoned envelope',
    });
    expect(voidsOf(envelopeId)[0]!.body.data).toEqual({ envelopeId, providerEnvelopeId: null, reason: 'abandoned' });
    expect(openAtProvider(caseId)).toEqual([]);
  }, 90_000);
});

describe('callbacks that store at documents', () => {
  const signalDocuments = (signal: NodeJS.Signals) => process.kill(stack.processes.documents.pid as number, signal);

  it("when the signed contract arrives while documents does not answer, then the contract is signed without the case held, and the provider's retry stores the PDF once", async () => {
    const caseId = await acceptedCase(null);
    const { contractId, envelopeId } = (await start(caseId, [{ ...anna, soloSigneePermitted: true }])).json;
    const pdf = Buffer.from('%PDF-1.7\nsigned by Anna\n%%EOF\n');
    const event = signedEvent(SIGNING_SECRET, 'envelope.signed', {
      envelopeId,
      signedDocument: { fileName: 'contract-signed.pdf', contentBase64: pdf.toString('base64') },
    });
    signalDocuments('SIGSTOP');
    let first;
    try {
      const inFlight = postRaw(`${stack.gatewayUrl}/signing/v1/events`, event.raw, event.headers);
      await waitFor(async () => ((await query('SELECT status FROM contracts WHERE id = $1', [contractId], stack))[0]?.status === 'signed' ? true : undefined), {
        timeoutMs: 4_000,
        intervalMs: 100,
        what: 'the contract signed before documents answers',
      });
      expect(await caseIsLocked(caseId)).toBe(false);
      first = await inFlight;
    } finally {
      signalDocuments('SIGCONT');
    }
    expect(first.status).toBe(503);
    const retry = await waitFor(
      async () => {
        const response = await postRaw(`${stack.gatewayUrl}/signing/v1/events`, event.raw, event.headers);
        return response.status === 503 ? undefined : response;
      },
      { timeoutMs: 20_000, intervalMs: 250, what: "the provider's retry to be stored" },
    );
    expect([retry.status, retry.text]).toEqual([204, '']);
    const documents = (await owner.api.get(`/api/financing-cases/${caseId}/documents`)).json;
    expect(documents.map((document: { category: string; fileSize: number }) => [document.category, document.fileSize])).toEqual([
      ['signed_contract', pdf.length],
    ]);
    const replay = await postRaw(`${stack.gatewayUrl}/signing/v1/events`, event.raw, event.headers);
    expect(replay.status).toBe(204);
    expect((await owner.api.get(`/api/financing-cases/${caseId}/documents`)).json).toHaveLength(1);
  }, 60_000);

  it("when the lender asks questions while documents does not answer, then no transaction holds the case meanwhile, and the lender's retry creates each item once", async () => {
    const { caseId } = await newCase(owner, {}, stack);
    // The submission worker locks the case while it records the lender's answer: let it finish first,
    // so a lock seen below can only be the callback's.
    await waitFor(
      async () =>
        (await query("SELECT id FROM lender_submissions WHERE financing_case_id = $1 AND status = 'submitted'", [caseId], stack)).length > 0 ? true : undefined,
      {
        timeoutMs: 20_000,
        what: "the case's application at the lender",
      },
    );
    const event = signedEvent(lenderA.webhookSecret, 'application.questions', {
      financingCaseId: caseId,
      reference: 'REF-LENDER',
      items: [{ type: 'document', label: 'Annual financial statement', category: 'annual_financial_statement' }],
    });
    const url = `${stack.gatewayUrl}/lender/v1/lender-a/events`;
    signalDocuments('SIGSTOP');
    let first;
    const locked: boolean[] = [];
    try {
      let answered = false;
      const inFlight = postRaw(url, event.raw, event.headers).finally(() => {
        answered = true;
      });
      while (!answered) {
        locked.push(await caseIsLocked(caseId));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      first = await inFlight;
    } finally {
      signalDocuments('SIGCONT');
    }
    expect(first.status).toBe(503);
    expect(locked.length).toBeGreaterThan(10);
    expect(locked.filter(Boolean)).toEqual([]);
    const retry = await waitFor(
      async () => {
        const response = await postRaw(url, event.raw, event.headers);
        return response.status === 503 ? undefined : response;
      },
      { timeoutMs: 20_000, intervalMs: 250, what: "the lender's retry" },
    );
    expect(retry.status).toBe(204);
    const found = (await owner.api.get(`/api/financing_cases/${caseId}`)).json;
    expect(found.status).toBe('finance_questions');
    expect(found.requestedItems.map((item: { label: string }) => item.label)).toEqual(['Annual financial statement']);
  }, 60_000);
});
