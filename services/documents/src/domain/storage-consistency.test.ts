import { Readable } from 'node:stream';
import { DomainError } from '@rental/problem';
import type { FileSource } from './model';
import type { ObjectStore, PendingObjects } from './ports';
import { storeThenRecord } from './storage-consistency';
import { ABANDONED_UPLOAD_MS, sweepPendingObjects } from './sweeper';

/** In-memory storage and journal: enough to follow which keys exist after each failure. */
function fakes(options: { putFails?: boolean; removeFails?: boolean; journalDown?: boolean; referenced?: string[] } = {}) {
  const objects = new Set<string>();
  const journal = new Map<string, string>();
  const storage: ObjectStore = {
    put: async (key) => {
      if (options.putFails) throw new DomainError('unavailable', 'dependency.object_storage_unavailable', 'down');
      objects.add(key);
    },
    get: async () => Readable.from([]),
    remove: async (key) => {
      if (options.removeFails) throw new DomainError('unavailable', 'dependency.object_storage_unavailable', 'down');
      objects.delete(key);
    },
  };
  const pending: PendingObjects = {
    announce: async (key) => {
      journal.set(key, 'upload');
    },
    settle: async (keys) => keys.forEach((key) => journal.delete(key)),
    isReferenced: async (key) => {
      if (options.journalDown) throw new Error('database down');
      return (options.referenced ?? []).includes(key);
    },
    due: async () => [...journal.keys()],
  };
  return { objects, journal, storage, pending };
}

const source: FileSource = { size: 3, mimeType: 'application/pdf', open: () => Readable.from([Buffer.from('%PD')]) };

describe('storeThenRecord', () => {
  it('when bytes and row are written, then the object stays and the row settles its key', async () => {
    const { objects, journal, storage, pending } = fakes();

    const result = await storeThenRecord({ storage, pending }, [{ key: 'k1', source }], async () => {
      journal.delete('k1');
      return { outcome: 'stored' };
    });

    expect([result.outcome, [...objects], [...journal.keys()]]).toEqual(['stored', ['k1'], []]);
  });

  it('when recording fails, then the object is removed and its key settled', async () => {
    const { objects, journal, storage, pending } = fakes();

    await expect(
      storeThenRecord({ storage, pending }, [{ key: 'k1', source }], async () => {
        throw new Error('insert failed');
      }),
    ).rejects.toThrow('insert failed');

    expect([[...objects], [...journal.keys()]]).toEqual([[], []]);
  });

  it('when the record reports nothing inserted, then the object is removed', async () => {
    const { objects, storage, pending } = fakes();

    const result = await storeThenRecord({ storage, pending }, [{ key: 'k1', source }], async () => ({ outcome: 'item_closed' }));

    expect([result.outcome, [...objects]]).toEqual(['item_closed', []]);
  });

  it('when storage is down, then the error is raised and the key stays announced for the sweeper', async () => {
    const { objects, journal, storage, pending } = fakes({ putFails: true, removeFails: true });

    await expect(storeThenRecord({ storage, pending }, [{ key: 'k1', source }], async () => ({ outcome: 'stored' }))).rejects.toMatchObject({
      kind: 'unavailable',
    });

    expect([[...objects], [...journal.keys()]]).toEqual([[], ['k1']]);
  });

  it('when the database cannot tell whether the row committed, then the object is kept for the sweeper to decide', async () => {
    const { objects, journal, storage, pending } = fakes({ journalDown: true });

    await expect(
      storeThenRecord({ storage, pending }, [{ key: 'k1', source }], async () => {
        throw new Error('connection lost during commit');
      }),
    ).rejects.toThrow('connection lost');

    expect([[...objects], [...journal.keys()]]).toEqual([['k1'], ['k1']]);
  });
});

describe('sweepPendingObjects', () => {
  it('when keys are left in the journal, then unreferenced objects are removed and referenced ones kept', async () => {
    const { objects, journal, storage, pending } = fakes({ referenced: ['kept'] });
    for (const key of ['orphan', 'kept']) {
      objects.add(key);
      journal.set(key, 'upload');
    }

    const result = await sweepPendingObjects({ storage, pending, now: () => new Date(Date.now() + ABANDONED_UPLOAD_MS) });

    expect(result).toEqual({ removed: 1, kept: 1 });
    expect([[...objects], [...journal.keys()]]).toEqual([['kept'], []]);
  });
});
