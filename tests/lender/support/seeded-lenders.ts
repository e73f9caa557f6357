/**
 * The lender side of a production stack of a test's own: the demo seed's lenders, a signing
 * provider's secret, and lender-a's intake pointed at the test's outside party.
 */
import { randomBytes } from 'node:crypto';
import { DEMO_SEED_FILE, readSeedFile } from '@rental/stack/fixture';
import type { Stack } from '@rental/testkit';
import { query } from '../../case-workflow/support/kit';
import type { OutsideParty } from './outside-parties';

/** A lender of the demo seed: its webhook secret signs its callbacks and the calls to its intake. */
export function seededLender(id: string) {
  const lender = readSeedFile(DEMO_SEED_FILE).lenders.find((candidate) => candidate.id === id);
  if (!lender) throw new Error(`the demo seed has no lender ${id}`);
  return lender;
}

/** A secret for the signing provider of a test's own stack (Standard Webhooks: whsec_ and base64). */
export const newSigningSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** Sends lender-a's applications to the test's lender; needed after every seed, which loads the fixture's intakeUrl (null) again. */
export async function sendLenderApplicationsTo(lender: OutsideParty, stack: Stack): Promise<void> {
  await query('UPDATE lenders SET intake_url = $1 WHERE id = $2', [`${lender.url}/lender-a`, 'lender-a'], stack);
}
