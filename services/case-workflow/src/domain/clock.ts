import { applyApprovalTeamCancel } from './cancel';
import { CustomerChannelSettings, remindCustomer } from './customer';
import { SYSTEM_ACTOR } from './model';
import type { CaseStore, ClockQueries, DocumentsPort, OverdueItem, OverdueStage, PartnerNames } from './ports';

/** The clock's rules, from configuration (milliseconds). */
export interface ClockSettings {
  reminderAfterMs: number;
  reminderMax: number;
  expiryAfterMs: number;
  overdueGraceMs: number;
}

export interface ClockDependencies {
  store: CaseStore;
  queries: ClockQueries;
  documents: DocumentsPort;
  partners: PartnerNames;
  customer: CustomerChannelSettings;
  clock: ClockSettings;
}

export interface TickResult {
  reminders: number;
  expiries: number;
  overdueNotices: number;
  overdueCancels: number;
}

/** One read of due work takes at most this many; a tick reads again while a read comes back full. */
const CLOCK_BATCH = 200;
/** Bounds one tick, so a backlog is worked off over several ticks and a stop is never long delayed. */
const MAX_BATCHES_PER_TICK = 25;

const systemAudit = (reason: string | null = null) => ({ actor: { ...SYSTEM_ACTOR }, reason });

async function inBatches(read: () => Promise<string[]>, apply: (id: string) => Promise<boolean>): Promise<number> {
  let applied = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_TICK; batch += 1) {
    const ids = await read();
    for (const id of ids) if (await apply(id)) applied += 1;
    // A full batch of which nothing applied means another replica holds these rows: next tick.
    if (ids.length < CLOCK_BATCH || applied === 0) break;
  }
  return applied;
}

/**
 * Expiry: a quote in review since REVIEW_EXPIRY_AFTER moves with `expire` (its links stop
 * working with the move) and its partner is mailed. The case is locked and read again, so a
 * second replica or a customer's answer in between makes this a no-op.
 */
async function expireReviews(deps: ClockDependencies, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - deps.clock.expiryAfterMs);
  return inBatches(() => deps.queries.dueExpiries(cutoff, CLOCK_BATCH), async (id) => {
    const outcome = await deps.store.inCase(id, async (transaction) => {
      const { quote } = transaction;
      if (quote.status !== 'in_review' || quote.inReviewSince === null || Date.parse(quote.inReviewSince) > cutoff.getTime()) return false;
      await transaction.moveQuote('expire');
      await transaction.requestMail({
        kind: 'review_expired',
        recipient: { partnerId: quote.partnerId },
        subject: `Offer ${quote.quoteNumber} expired`,
        text: `Hello,\n\nthe customer did not answer the offer ${quote.quoteNumber} (financing case ${quote.financingCaseId}) within the review period; it is now review_expired and its customer link no longer works.\nSend it to the customer again to reactivate it.`,
      });
      return true;
    }, systemAudit('review_expired'));
    return outcome?.result ?? false;
  });
}

/** Reminders: the customer gets at most REVIEW_REMINDER_MAX, each REVIEW_REMINDER_AFTER after the last link mail or reminder. */
async function remindCustomers(deps: ClockDependencies, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - deps.clock.reminderAfterMs);
  return inBatches(() => deps.queries.dueReminders(cutoff, deps.clock.reminderMax, CLOCK_BATCH), async (id) => {
    const financingCase = await deps.store.findCase(id);
    const partnerName = financingCase ? await deps.partners.nameOf(financingCase.partnerId) : null;
    const outcome = await deps.store.inCase(id, async (transaction) => {
      const { quote } = transaction;
      if (quote.status !== 'in_review' || quote.reminderCount >= deps.clock.reminderMax) return false;
      if (quote.reviewMailedAt !== null && Date.parse(quote.reviewMailedAt) > cutoff.getTime()) return false;
      const link = await transaction.currentCustomerLink();
      const email = link?.email ?? quote.customer.email;
      if (!email) {
        // Nobody to remind: the reminder clock starts again instead of finding this quote on every tick.
        await transaction.markReviewMailed();
        return false;
      }
      const expiresAt = link?.expiresAt ?? new Date(now.getTime() + deps.customer.linkTtlMs).toISOString();
      await remindCustomer(deps.customer, transaction, { email, expiresAt, partnerName });
      return true;
    }, systemAudit());
    return outcome?.result ?? false;
  });
}

function byCase(items: OverdueItem[]): Map<string, OverdueItem[]> {
  const grouped = new Map<string, OverdueItem[]>();
  for (const item of items) grouped.set(item.financingCaseId, [...(grouped.get(item.financingCaseId) ?? []), item]);
  return grouped;
}

/**
 * Overdue items, per stage. The documents service lists what the stage has not marked; the
 * effect is applied in the locked case (notices claimed once in overdue_notices, the cancel only
 * from a not yet canceled case), then the items are marked. A crash in between lists them again,
 * and the second pass changes nothing.
 */
async function overdueStage(deps: ClockDependencies, now: Date, stage: OverdueStage): Promise<number> {
  const dueBefore = stage === 'notice' ? now : new Date(now.getTime() - deps.clock.overdueGraceMs);
  let applied = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_TICK; batch += 1) {
    const items = await deps.documents.listOverdueItems(dueBefore, stage, CLOCK_BATCH);
    for (const [financingCaseId, caseItems] of byCase(items)) {
      const outcome = await deps.store.inCase(financingCaseId, async (transaction) => {
        const status = transaction.quote.status;
        if (status === 'canceled' || status === 'completed') return false;
        if (stage === 'cancel') {
          await applyApprovalTeamCancel(transaction);
          return true;
        }
        const fresh: OverdueItem[] = [];
        for (const item of caseItems) if (await transaction.claimOverdueNotice(item)) fresh.push(item);
        if (fresh.length === 0) return false;
        const lines = fresh.map((item) => `- ${item.label} (${item.type}, for the ${item.targetAudience}), due ${item.dueAt}`).join('\n');
        await transaction.requestMail({
          kind: 'documents_overdue',
          recipient: { partnerId: transaction.financingCase.partnerId },
          subject: `Financing case ${transaction.financingCase.caseNumber}: requested items are overdue`,
          text: `Hello,\n\nthese requested items of financing case ${transaction.financingCase.caseNumber} (quote ${transaction.quote.quoteNumber}) are overdue:\n${lines}\n\nWithout them the case is canceled automatically ${Math.round(deps.clock.overdueGraceMs / 3_600_000)} hours after the due date.`,
        });
        return true;
      }, systemAudit(stage === 'cancel' ? 'overdue_documents' : null));
      if (outcome?.result) applied += 1;
    }
    await deps.documents.markOverdueItems(items.map((item) => item.id), stage, now);
    if (items.length < CLOCK_BATCH) break;
  }
  return applied;
}

/** One tick of the clock: expiry before reminders, so an expiring quote gets no reminder. */
export async function runClockTick(deps: ClockDependencies, now: Date): Promise<TickResult> {
  const expiries = await expireReviews(deps, now);
  const reminders = await remindCustomers(deps, now);
  const overdueNotices = await overdueStage(deps, now, 'notice');
  const overdueCancels = await overdueStage(deps, now, 'cancel');
  return { reminders, expiries, overdueNotices, overdueCancels };
}
