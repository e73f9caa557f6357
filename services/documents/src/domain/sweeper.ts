import type { ObjectStore, PendingObjects } from './ports';

/** An upload announced this long ago and still unsettled was interrupted (a crash between writing and recording). */
export const ABANDONED_UPLOAD_MS = 15 * 60 * 1000;

/**
 * Removes the objects the journal still holds: of deleted rows, and of uploads that never got
 * their row. An object a row refers to is kept; only its journal entry goes.
 */
export async function sweepPendingObjects(
  deps: { pending: PendingObjects; storage: ObjectStore; now(): Date },
  limit = 100,
): Promise<{ removed: number; kept: number }> {
  const cutoff = new Date(deps.now().getTime() - ABANDONED_UPLOAD_MS).toISOString();
  const keys = await deps.pending.due(cutoff, limit);
  let removed = 0;
  let kept = 0;
  for (const key of keys) {
    if (await deps.pending.isReferenced(key)) {
      kept += 1;
    } else {
      await deps.storage.remove(key);
      removed += 1;
    }
    await deps.pending.settle([key]);
  }
  return { removed, kept };
}
