import { applyApprovalTeamCancel } from './cancel';
import { CustomerChannelSettings, remindCustomer } from '../customer/customer';
import { Quote, SYSTEM_ACTOR } from '../shared/model';
import type { DocumentsPort, OverdueItem, OverdueStage, PartnerNames } from '../shared/ports';
import type { CaseClockWork, CaseLocks, CaseRecord, ClockQueries, ReminderBatches, ReminderCase } from './ports';
import type { ContractWork } from '../contract/ports';
import type { QuoteWork } from '../quote/ports';

/** The clock's rules, from configuration (milliseconds). */
export interface ClockSettings {
  reminderAfterMs: number;
  reminderMax: number;
  expiryAfterMs: number;
  overdueGraceMs: number;
}

export interface ClockDependencies {
  store: CaseLocks;
  queries: ClockQueries;
  reminders: ReminderBatches;
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

/*
 * The rules of the clock on one locked case, at the case's clock (`transaction.now()`): the wall
 * clock for the scheduler, the wall clock plus the case's offset for the sandbox clock, which
 * pins it at each effect's own time. Both run exactly these functions.
 */

/** When the case's review expires (epoch ms), or null when it is not in review. */
export function expiryDueAt(quote: Quote, clock: ClockSettings): number | null {
  if (quote.status !== 'in_review' || quote.inReviewSince === null) return null;
  return Date.parse(quote.inReviewSince) + clock.expiryAfterMs;
}

/** When the customer is due the next reminder (epoch ms), or null when no reminder is left. */
export function reminderDueAt(quote: Quote, clock: ClockSettings): number | null {
  if (quote.status !== 'in_review' || quote.reminderCount >= clock.reminderMax || quote.reviewMailedAt === null) return null;
  return Date.parse(quote.reviewMailedAt) + clock.reminderAfterMs;
}

const isDue = (dueAt: number | null, transaction: Pick<CaseRecord, 'now'>): dueAt is number => dueAt !== null && dueAt <= transaction.now().getTime();

/**
 * Expiry: a quote in review for REVIEW_EXPIRY_AFTER moves with `expire` (its links stop working
 * with the move) and its partner is mailed. Re-checked in the locked case, so a second replica or
 * a customer's answer in between makes this a no-op.
 */
export async function expireReviewIfDue(transaction: CaseRecord & QuoteWork, clock: ClockSettings): Promise<boolean> {
  if (!isDue(expiryDueAt(transaction.quote, clock), transaction)) return false;
  const { quote } = transaction;
  transaction.setAuditReason('review_expired');
  await transaction.moveQuote('expire');
  await transaction.requestMail({
    kind: 'review_expired',
    recipient: { partnerId: quote.partnerId },
    subject: `Offer ${quote.quoteNumber} expired`,
    text: `Hello,\n\nthe customer did not answer the offer ${quote.quoteNumber} (financing case ${quote.financingCaseId}) within the review period; it is now review_expired and its customer link no longer works.\nSend it to the customer again to reactivate it.`,
  });
  return true;
}

/** Reminders: the customer gets at most REVIEW_REMINDER_MAX, each REVIEW_REMINDER_AFTER after the last link mail or reminder. */
export async function remindCustomerIfDue(
  transaction: ReminderCase,
  settings: { clock: ClockSettings; customer: CustomerChannelSettings },
  partnerName: string | null,
): Promise<boolean> {
  if (!isDue(reminderDueAt(transaction.quote, settings.clock), transaction)) return false;
  const link = await transaction.currentCustomerLink();
  const email = link?.email ?? transaction.quote.customer.email;
  if (!email) {
    // Nobody to remind: the reminder clock starts again instead of finding this quote on every tick.
    await transaction.markReviewMailed();
    return false;
  }
  transaction.setAuditReason(null);
  const expiresAt = link?.expiresAt ?? new Date(transaction.now().getTime() + settings.customer.linkTtlMs).toISOString();
  await remindCustomer(settings.customer, transaction, { email, expiresAt, partnerName });
  return true;
}

const closed = (transaction: CaseRecord) => ['canceled', 'completed'].includes(transaction.quote.status);

/** Overdue items' notice: the partner is mailed once about the items this case has not been noticed of. */
export async function noticeOverdueItems(transaction: CaseRecord & CaseClockWork, items: OverdueItem[], clock: ClockSettings): Promise<boolean> {
  if (closed(transaction)) return false;
  const fresh: OverdueItem[] = [];
  for (const item of items) if (await transaction.claimOverdueNotice(item)) fresh.push(item);
  if (fresh.length === 0) return false;
  const lines = fresh.map((item) => `- ${item.label} (${item.type}, for the ${item.targetAudience}), due ${item.dueAt}`).join('\n');
  await transaction.requestMail({
    kind: 'documents_overdue',
    recipient: { partnerId: transaction.financingCase.partnerId },
    subject: `Financing case ${transaction.financingCase.caseNumber}: requested items are overdue`,
    text: `Hello,\n\nthese requested items of financing case ${transaction.financingCase.caseNumber} (quote ${transaction.quote.quoteNumber}) are overdue:\n${lines}\n\nWithout them the case is canceled automatically ${Math.round(clock.overdueGraceMs / 3_600_000)} hours after the due date.`,
  });
  return true;
}

/** Still overdue after DOCUMENT_OVERDUE_GRACE: the system cancels the case with every effect of the approval team's cancel. */
export async function cancelForOverdueItems(transaction: CaseRecord & QuoteWork & ContractWork): Promise<boolean> {
  if (closed(transaction)) return false;
  transaction.setAuditReason('overdue_documents');
  await applyApprovalTeamCancel(transaction);
  return true;
}

/** One read of due work takes at most this many; a tick reads again while a read comes back full. */
const CLOCK_BATCH = 200;
/** Bounds one tick, so a backlog is worked off over several ticks and a stop is never long delayed. */
const MAX_BATCHES_PER_TICK = 25;

const systemAudit = { actor: { ...SYSTEM_ACTOR } };

/** What the scheduler's expiries and overdue items do to the locked case (reminders go through their batches). */
type ClockWork = CaseRecord & CaseClockWork & QuoteWork & ContractWork;

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

async function inCaseOfClock(deps: ClockDependencies, id: string, work: (transaction: ClockWork) => Promise<boolean>): Promise<boolean> {
  return (await deps.store.inCase(id, work, systemAudit))?.result ?? false;
}

/** The due queries find candidates by the wall clock (and moved cases by their own); the locked case decides on its clock. */
function expireReviews(deps: ClockDependencies, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - deps.clock.expiryAfterMs);
  return inBatches(
    () => deps.queries.dueExpiries(cutoff, CLOCK_BATCH),
    (id) => inCaseOfClock(deps, id, (transaction) => expireReviewIfDue(transaction, deps.clock)),
  );
}

/** Reminders are many at once (1,000 due among 100,000 in review): a batch of cases is one transaction. */
const REMINDER_BATCH = 500;

async function remindCustomers(deps: ClockDependencies, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - deps.clock.reminderAfterMs);
  let applied = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_TICK; batch += 1) {
    const due = await deps.queries.dueReminders(cutoff, deps.clock.reminderMax, REMINDER_BATCH);
    // The partners' names come over gRPC: read before the cases are locked.
    const partnerIds = [...new Set(due.map((entry) => entry.partnerId))];
    const names = new Map(await Promise.all(partnerIds.map(async (partnerId) => [partnerId, await deps.partners.nameOf(partnerId)] as const)));
    const reminded = await deps.reminders.remindAll(
      due.map((entry) => entry.financingCaseId),
      (reminder) => remindCustomerIfDue(reminder, deps, names.get(reminder.quote.partnerId) ?? null),
      systemAudit,
    );
    applied += reminded;
    // A full batch of which nothing applied means another replica holds these rows: next tick.
    if (due.length < REMINDER_BATCH || reminded === 0) break;
  }
  return applied;
}

export function byCase(items: OverdueItem[]): Map<string, OverdueItem[]> {
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
      const done = await inCaseOfClock(deps, financingCaseId, (transaction) =>
        stage === 'cancel' ? cancelForOverdueItems(transaction) : noticeOverdueItems(transaction, caseItems, deps.clock),
      );
      if (done) applied += 1;
    }
    await deps.documents.markOverdueItems(
      items.map((item) => item.id),
      stage,
      now,
    );
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
