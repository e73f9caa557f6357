import { randomBytes } from 'node:crypto';
import { DEMO_SEED_FILE, readSeedFile } from '@rental/stack';
import { Stack, bootStack, shutdownStack } from '@rental/testkit';
import { Owner, expectProblem, newCase, newPartner, query } from '../case-workflow/support/kit';
import { OutsideParty, pdfLines, postRaw, signedEvent } from './support/outside-parties';

/**
 * start-esignature on the production path (issue 27 items 3 and 4), on a stack of its own: the
 * lender's intake and the signing provider are real HTTP servers of this test that verify every
 * signature they get with the `standardwebhooks` package; the lender's decisions come through the
 * gateway like a lender's would.
 */
const seed = readSeedFile(DEMO_SEED_FILE);
const lenderA = seed.lenders.find((lender) => lender.id === 'lender-a')!;
const SIGNING_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

let stack: Stack;
let lender: OutsideParty;
let signing: OutsideParty;
let owner: Owner;

type Person = { firstName: string; lastName: string; email: string; soloSigneePermitted?: boolean };

const anna: Person = { firstName: 'Anna', lastName: 'Berg', email: 'anna.berg@customer.example' };
const ben: Person = { firstName: 'Ben', lastName: 'Kurz', email: 'ben.kurz@customer.example' };
const cleo: Person = { firstName: 'Cleo', lastName: 'Lang', email: 'cleo.lang@customer.example' };
const statementOfThree = { signatories: [anna, ben, cleo].map(({ firstName, lastName, email }) => ({ firstName, lastName, email })), minimumSigners: 2 };

beforeAll(async () => {
  lender = await OutsideParty.start(lenderA.webhookSecret, (request) => ({ status: 200, body: { reference: `REF-${String(request.body?.data?.applicationId).slice(-8)}` } }));
  signing = await OutsideParty.start(SIGNING_SECRET, (request) => ({ status: 200, body: { providerEnvelopeId: `PE-${String(request.body?.data?.envelopeId)}` } }));
  stack = await bootStack({
    environment: 'production',
    env: { SIGNING_WEBHOOK_SECRET: SIGNING_SECRET, SIGNING_PROVIDER_URL: signing.url, PRODUCTION_SIMULATORS: 'true', LENDER_SUBMISSION_POLL_MS: '200' },
  });
  owner = await newPartner(stack);
  // After every seed: the seed command loads the fixture's intakeUrl (null) again.
  await query('UPDATE lenders SET intake_url = $1 WHERE id = $2', [`${lender.url}/lender-a`, 'lender-a'], stack);
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

describe('the lender\'s signing statement', () => {
  it('when one listed person with soloSigneePermitted true starts while the statement asks for two signers, then 422 signing_rule_not_met and nothing is started', async () => {
    const caseId = await acceptedCase(statementOfThree);
    const answer = await start(caseId, [{ ...anna, soloSigneePermitted: true }]);
    expectProblem(answer, 422, undefined, stack);
    expect(answer.json.violations).toEqual([{
      propertyPath: 'authorizedPersons',
      code: 'esignature.signing_rule_not_met',
      message: "The lender's statement requires at least 2 persons to sign together; 1 was given (soloSigneePermitted does not lower the lender's minimum).",
    }]);
    await nothingStarted(caseId);
  });

  it('when a listed name comes with another person\'s mailbox, then 422 not_on_signing_statement at that person and no invitation goes out', async () => {
    const caseId = await acceptedCase(statementOfThree);
    const answer = await start(caseId, [anna, { ...ben, email: 'someone.else@elsewhere.example' }]);
    expectProblem(answer, 422, undefined, stack);
    expect(answer.json.violations).toEqual([{
      propertyPath: 'authorizedPersons[1]',
      code: 'esignature.not_on_signing_statement',
      message: "The lender's statement names Ben Kurz with another e-mail address; the invitation must go to the address the lender gave.",
    }]);
    await nothingStarted(caseId);
  });

  it('when two listed persons start, written with other case and blanks, then 200 and the provider invites exactly them', async () => {
    const caseId = await acceptedCase(statementOfThree);
    const answer = await start(caseId, [{ ...anna, email: 'Anna.Berg@Customer.Example' }, { ...cleo, firstName: ' cleo ', lastName: 'LANG' }]);
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
