import { Stack, bootStack, shutdownStack } from '@rental/testkit';
import { operatorIdentitySuite, operatorIssuer } from '../backoffice/operator-identity.suite';
import { submissionQueueSuite } from '../lender/submission-queue.suite';
import { keyMailSuite } from '../partner-access/key-mail.suite';
import { portalProductionSuite, portalIssuer } from '../portal/production.suite';

// One production stack for the suites that need a production deployment and leave it as they
// found it for the others: each works with partners, keys and issuers of its own. A stack costs
// about 15 CPU-seconds to boot, more than most of these suites take, so they share one (the
// suites stay in the folders of what they test, as `*.suite.ts`).

/** The suites read the stack when their tests run, after beforeAll has booted it. */
const production = {} as { stack: Stack };

beforeAll(async () => {
  for (const issuer of [operatorIssuer, portalIssuer]) {
    await issuer.addKey();
    await issuer.start();
  }
  production.stack = await bootStack({
    environment: 'production',
    env: {
      OPERATOR_ISSUER_URL: operatorIssuer.url,
      PORTAL_ISSUER_URL: portalIssuer.url,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'false',
      API_KEY_EXPIRY_CHECK_EVERY: '1s',
    },
  });
}, 120_000);

afterAll(async () => {
  if (production.stack) await shutdownStack(production.stack);
  await Promise.all([operatorIssuer.stop(), portalIssuer.stop()]);
}, 60_000);

operatorIdentitySuite(production);
portalProductionSuite(production);
submissionQueueSuite(production);
keyMailSuite(production);
