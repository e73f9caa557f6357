import { z } from 'zod';
import { formatDuration, parseDuration } from '@rental/config';
import { conflict, validationFailed } from '@rental/problem';
import { caseNotFound } from '../shared/access';
import { ClockSettings, cancelForOverdueItems, expireReviewIfDue, expiryDueAt, noticeOverdueItems, remindCustomerIfDue, reminderDueAt } from '../case/clock';
import type { CustomerChannelSettings } from '../customer/customer';
import { FinancingCase, SYSTEM_ACTOR, partnerActor } from '../shared/model';
import type { DocumentsPort, OverdueItem, PartnerNames } from '../shared/ports';
import type { CaseLocks, CaseTransaction } from '../case/ports';
import type { QuoteStatus } from '../quote/quote-machine';
import type { SandboxCaller } from './sandbox';

const SECOND_MS = 1000;
const MAX_ADVANCE_MS = 60 * 86_400_000;
/** Far more effects than a 60-day window can hold (2 reminders, an expiry, notices, a cancel, link ends): a guard, never a limit. */
const MAX_EFFECTS = 1000;

export const advanceClockBody = z
  .object({
    by: z.string().describe("How far the case's clock moves forward: an integer with s, m, h or d, from 1s to 60d (e.g. 15d)"),
  })
  .meta({ id: 'SandboxClockAdvance', examples: [{ by: '15d' }] });

export type ClockEffect = 'remind' | 'expire' | 'overdue_notice' | 'cancel' | 'link_expired';

export interface AdvancedClock {
  financingCaseId: string;
  /** The case's total offset from the wall clock. */
  clockOffsetMs: number;
  /** What the clock did, in time order; `at` is the case's clock time of the effect. */
  applied: { action: ClockEffect; at: string }[];
  status: QuoteStatus;
}

export interface SandboxClockDependencies {
  store: CaseLocks;
  documents: DocumentsPort;
  partners: PartnerNames;
  customer: CustomerChannelSettings;
  clock: ClockSettings;
}

function advanceOf(by: string): number {
  const ms = parseDuration(by);
  if (ms === undefined || ms < SECOND_MS || ms > MAX_ADVANCE_MS) {
    throw validationFailed([
      { propertyPath: 'by', code: 'validation.format', message: 'This value must be a duration from 1s to 60d: an integer with s, m, h or d, such as 15d.' },
    ]);
  }
  return ms;
}

interface Candidate {
  action: ClockEffect;
  at: number;
  apply: () => Promise<boolean>;
}

/** Overdue items not handled yet, earliest due first; `take` removes those due by a time. */
class DueItems {
  private items: { item: OverdueItem; at: number }[];

  constructor(items: OverdueItem[], delayMs: number) {
    this.items = items.map((item) => ({ item, at: Date.parse(item.dueAt) + delayMs })).sort((a, b) => a.at - b.at);
  }

  get next(): number | null {
    return this.items[0]?.at ?? null;
  }

  take(until: number): OverdueItem[] {
    const taken = this.items.filter((entry) => entry.at <= until).map((entry) => entry.item);
    this.items = this.items.filter((entry) => entry.at > until);
    return taken;
  }
}

/**
 * Everything the clock does to the case between `from` and `to` (its clock, epoch ms), in time
 * order: at each step the earliest due effect, with the case's clock pinned at its time, through
 * the scheduler's own rules. Ties go in the order of a tick: expiry, reminder, notice, cancel.
 */
async function runWindow(
  deps: SandboxClockDependencies,
  transaction: CaseTransaction,
  window: { from: number; to: number },
  overdue: { notice: DueItems; cancel: DueItems },
  partnerName: string | null,
): Promise<AdvancedClock['applied']> {
  const applied: AdvancedClock['applied'] = [];
  let linksSeenUntil = window.from;
  for (let step = 0; step < MAX_EFFECTS; step += 1) {
    const linkEnd = await transaction.nextCustomerLinkExpiry(new Date(linksSeenUntil));
    const candidates: (Candidate | null)[] = [
      at('expire', expiryDueAt(transaction.quote, deps.clock), () => expireReviewIfDue(transaction, deps.clock)),
      at('remind', reminderDueAt(transaction.quote, deps.clock), () => remindCustomerIfDue(transaction, deps, partnerName)),
      at('overdue_notice', overdue.notice.next, (time) => noticeOverdueItems(transaction, overdue.notice.take(time), deps.clock)),
      at('cancel', overdue.cancel.next, async (time) => {
        overdue.cancel.take(time);
        return cancelForOverdueItems(transaction);
      }),
      at('link_expired', linkEnd?.getTime() ?? null, async (time) => {
        // A link ends by the case's clock alone (the customer's request compares it); nothing to write.
        linksSeenUntil = time;
        return true;
      }),
    ];
    const next = candidates
      .filter((candidate): candidate is Candidate => candidate !== null && candidate.at <= window.to)
      .reduce<Candidate | null>((earliest, candidate) => (earliest === null || candidate.at < earliest.at ? candidate : earliest), null);
    if (!next) break;
    // Work due before the window (a tick had not come yet) happens at its start.
    const time = Math.max(next.at, window.from);
    transaction.pinClock(new Date(time));
    if (await next.apply()) applied.push({ action: next.action, at: new Date(time).toISOString() });
  }
  transaction.pinClock(null);
  return applied;

  function at(action: ClockEffect, time: number | null, apply: (time: number) => Promise<boolean>): Candidate | null {
    return time === null ? null : { action, at: time, apply: () => apply(Math.max(time, window.from)) };
  }
}

/**
 * POST /api/sandbox/financing_cases/{id}/advance-clock, once sandboxCase let the caller in: the
 * case's clock moves forward by `by` (cumulative, no other case moves) and everything the clock
 * would have done to the case meanwhile is applied at once, with the same events, webhooks and
 * mails, by the system as in production. The overdue items come from documents before the case is
 * locked; an advance that another one overtook meanwhile is refused whole (409), so none is applied
 * twice, and a replayed advance finds the effects done (the rules see them in the case).
 */
export async function advanceClock(
  deps: SandboxClockDependencies,
  financingCase: FinancingCase,
  body: z.infer<typeof advanceClockBody>,
  caller: SandboxCaller,
): Promise<AdvancedClock> {
  const byMs = advanceOf(body.by);
  const context = { partnerId: caller.id, requestId: caller.requestId };
  const fromOffset = financingCase.clockOffsetMs;
  const from = deps.customer.now().getTime() + fromOffset;
  const to = from + byMs;
  const [partnerName, notices, cancels] = await Promise.all([
    deps.partners.nameOf(financingCase.partnerId),
    deps.documents.listOverdueItemsOfCase(financingCase.id, new Date(to), 'notice', context),
    deps.documents.listOverdueItemsOfCase(financingCase.id, new Date(to - deps.clock.overdueGraceMs), 'cancel', context),
  ]);
  const outcome = await deps.store.inCase(
    financingCase.id,
    async (transaction) => {
      if (transaction.financingCase.clockOffsetMs !== fromOffset) {
        throw conflict(
          'sandbox.clock_advancing',
          "Another advance of this case's clock was applied meanwhile; this one applied nothing. Read the case and send it again if needed.",
        );
      }
      const overdue = { notice: new DueItems(notices, 0), cancel: new DueItems(cancels, deps.clock.overdueGraceMs) };
      const applied = await runWindow(deps, transaction, { from, to }, overdue, partnerName);
      await transaction.setClockOffset(fromOffset + byMs);
      transaction.setAuditReason(null);
      await transaction.recordHistory('advance_clock', {
        actor: partnerActor(caller.id),
        details: { by: body.by, clockOffset: formatDuration(fromOffset + byMs) },
      });
      return { financingCaseId: financingCase.id, clockOffsetMs: fromOffset + byMs, applied, status: transaction.quote.status };
    },
    { actor: { ...SYSTEM_ACTOR } },
  );
  if (!outcome) throw caseNotFound(financingCase.id);
  // As a tick does after its effects: the stage's marks keep documents from listing the items again.
  // A mark that fails is no reason to fail the applied advance (a retry would move the clock
  // again): unmarked items are listed again and change nothing a second time.
  await Promise.all([
    deps.documents.markOverdueItems(
      notices.map((item) => item.id),
      'notice',
      new Date(to),
    ),
    deps.documents.markOverdueItems(
      cancels.map((item) => item.id),
      'cancel',
      new Date(to),
    ),
  ]).catch(() => undefined);
  return outcome.result;
}
