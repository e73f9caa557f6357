import type { FileSource } from './model';
import type { ObjectStore, PendingObjects } from './ports';

export interface ObjectToStore {
  key: string;
  source: FileSource;
}

type StorageDependencies = { storage: ObjectStore; pending: PendingObjects };

/**
 * Writes the bytes, then runs `record` (the transaction that inserts the rows and settles the
 * keys). If writing or recording fails, or `record` reports that nothing was inserted, the
 * objects are removed again. What cannot be removed at once (storage or database unreachable)
 * stays announced in the journal, and the sweeper removes it later unless a row refers to it.
 */
export async function storeThenRecord<T extends { outcome: string }>(
  deps: StorageDependencies,
  objects: ObjectToStore[],
  record: () => Promise<T>,
  storedOutcome = 'stored',
): Promise<T> {
  const written: string[] = [];
  let result: T;
  try {
    for (const { key, source } of objects) {
      await deps.pending.announce(key);
      written.push(key);
      await deps.storage.put(key, source);
    }
    result = await record();
  } catch (error) {
    await removeUnlessReferenced(deps, written);
    throw error;
  }
  if (result.outcome !== storedOutcome) await discard(deps, written);
  return result;
}

/**
 * After a failed record the transaction may still have committed (the connection broke while
 * committing): an object is removed only when no row refers to it; when the database cannot
 * tell, the sweeper decides later.
 */
async function removeUnlessReferenced(deps: StorageDependencies, keys: string[]): Promise<void> {
  const unreferenced: string[] = [];
  for (const key of keys) {
    try {
      if (!(await deps.pending.isReferenced(key))) unreferenced.push(key);
    } catch {
      return;
    }
  }
  await discard(deps, unreferenced);
}

/** Removes objects and settles their journal entries; what cannot be removed now is left to the sweeper. */
export async function discard(deps: StorageDependencies, objectKeys: string[]): Promise<void> {
  const removed: string[] = [];
  for (const key of objectKeys) {
    try {
      await deps.storage.remove(key);
      removed.push(key);
    } catch {
      // left announced: the sweeper retries
    }
  }
  if (removed.length > 0) await deps.pending.settle(removed).catch(() => undefined);
}
