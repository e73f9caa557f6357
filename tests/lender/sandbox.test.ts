import { DEMO_SEED_FILE, readSeedFile } from '@rental/stack/fixture';
import { expectProblem } from '../case-workflow/support/kit';
import { sharedStack } from '../support/shared-stack';
import { postRaw, signedEvent } from './support/outside-parties';

const lenderA = readSeedFile(DEMO_SEED_FILE).lenders.find((lender) => lender.id === 'lender-a')!;

describe("outside parties' callbacks in the sandbox", () => {
  it('when a lender or the signing provider calls back in the sandbox, then 404 even when correctly signed', async () => {
    const decision = signedEvent(lenderA.webhookSecret, 'application.accepted', {
      financingCaseId: '01AAAAAAAAAAAAAAAAAAAAAAAA',
      reference: 'R',
      signingStatement: null,
    });
    expectProblem(await postRaw(`${sharedStack().gatewayUrl}/lender/v1/lender-a/events`, decision.raw, decision.headers), 404, 'route.not_found');
    const envelope = signedEvent(lenderA.webhookSecret, 'envelope.sent', { envelopeId: '01AAAAAAAAAAAAAAAAAAAAAAAA', providerEnvelopeId: 'x' });
    expectProblem(await postRaw(`${sharedStack().gatewayUrl}/signing/v1/events`, envelope.raw, envelope.headers), 404, 'route.not_found');
  });
});
