import type { Category } from '../domain/model';
import { CachedCategoryReader, ReadThroughCache } from './cached-readers';

/** A load that counts its calls and answers what `value` holds at the time of the call. */
function counter<T>(initial: T) {
  const state = { value: initial, calls: 0 };
  return {
    state,
    load: async () => {
      state.calls += 1;
      return state.value;
    },
  };
}

describe('ReadThroughCache', () => {
  let clock = 0;
  const cache = () => new ReadThroughCache(1000, () => clock);

  beforeEach(() => {
    clock = 0;
  });

  it('when nobody listens yet, then every read loads', async () => {
    const reads = cache();
    const { state, load } = counter('a');
    expect([await reads.read('k', load), await reads.read('k', load)]).toEqual(['a', 'a']);
    expect(state.calls).toBe(2);
  });

  /** A listening cache that has read 'a' for key k, after which the rows changed to 'b'. */
  async function readThenChanged() {
    const reads = cache();
    reads.resume();
    const { state, load } = counter('a');
    await reads.read('k', load);
    state.value = 'b';
    return { reads, state, read: () => reads.read('k', load) };
  }

  it('when listening, then a second read within the TTL is served from memory', async () => {
    const { state, read } = await readThenChanged();
    clock = 999;
    expect(await read()).toBe('a');
    expect(state.calls).toBe(1);
  });

  it('when the TTL has passed, then the value is loaded again', async () => {
    const { state, read } = await readThenChanged();
    clock = 1000;
    expect(await read()).toBe('b');
    expect(state.calls).toBe(2);
  });

  it('when a change is announced, then the next read loads the new value', async () => {
    const { reads, state, read } = await readThenChanged();
    reads.clear();
    expect(await read()).toBe('b');
    expect(state.calls).toBe(2);
  });

  it('when a change is announced while a load is in flight, then that load is not kept', async () => {
    const reads = cache();
    reads.resume();
    let finish!: (value: string) => void;
    const inFlight = reads.read(
      'k',
      () =>
        new Promise<string>((resolve) => {
          finish = resolve;
        }),
    );
    reads.clear();
    finish('old');
    expect(await inFlight).toBe('old');
    const { state, load } = counter('new');
    expect(await reads.read('k', load)).toBe('new');
    expect(state.calls).toBe(1);
  });

  it('when concurrent reads miss, then they share one load', async () => {
    const reads = cache();
    reads.resume();
    const { state, load } = counter('a');
    expect(await Promise.all([reads.read('k', load), reads.read('k', load)])).toEqual(['a', 'a']);
    expect(state.calls).toBe(1);
  });

  it('when the listener is lost, then reads load until it listens again, and it starts empty', async () => {
    const { reads, state, read } = await readThenChanged();
    reads.suspend();
    expect([await read(), await read()]).toEqual(['b', 'b']);
    expect(state.calls).toBe(3);
    state.value = 'c';
    reads.resume();
    expect([await read(), await read()]).toEqual(['c', 'c']);
    expect(state.calls).toBe(4);
  });

  it('when a load fails, then it is not kept', async () => {
    const reads = cache();
    reads.resume();
    await expect(reads.read('k', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    const { state, load } = counter('a');
    expect(await reads.read('k', load)).toBe('a');
    expect(state.calls).toBe(1);
  });
});

describe('CachedCategoryReader', () => {
  const category = (id: number, slug: string): Category => ({
    id,
    slug,
    name: slug,
    sector: 'IT_AND_OFFICE_EQUIPMENT',
    durationMin: 12,
    durationMax: 60,
    hasPrintPlanCapability: false,
  });
  const all = [category(1, 'laptops'), category(2, 'printers'), category(3, 'phones')];

  function reader() {
    const reads = new ReadThroughCache(60_000);
    reads.resume();
    const { state, load } = counter(all);
    return { state, categories: new CachedCategoryReader({ allCategories: load }, reads) };
  }

  it('when categories are looked up by id, slug, page, then one load answers all from the whole catalog', async () => {
    const { state, categories } = reader();
    expect(await categories.findCategories([3], ['laptops', 'unknown'])).toEqual([all[0], all[2]]);
    expect(await categories.findBySlug('printers')).toEqual(all[1]);
    expect(await categories.findBySlug('unknown')).toBeUndefined();
    expect(await categories.listCategories(2, 1)).toEqual([all[1], all[2]]);
    expect(state.calls).toBe(1);
  });
});
