import { ExpiringMap, loadThrough } from './index';

function clock(start = 1_000) {
  const time = { now: start };
  return { time, now: () => time.now };
}

describe('ExpiringMap', () => {
  it('when a value is read before its time to live has passed, then it is answered, and from then on it is not', () => {
    const { time, now } = clock();
    const map = new ExpiringMap<string, number>({ ttlMs: 100, now });
    map.set('a', 1);
    time.now += 99;
    expect(map.get('a')).toBe(1);
    time.now += 1;
    expect(map.get('a')).toBeUndefined();
    expect(map.size).toBe(0);
  });

  it('when a value is set with its own expiry, then that expiry counts, not the time to live', () => {
    const { time, now } = clock();
    const map = new ExpiringMap<string, string>({ ttlMs: 100, now });
    map.set('token', 'identity', 1_500);
    time.now = 1_499;
    expect(map.get('token')).toBe('identity');
    time.now = 1_500;
    expect(map.get('token')).toBeUndefined();
  });

  it('when a new key would pass the size bound, then the map is emptied first, and replacing a kept key empties nothing', () => {
    const map = new ExpiringMap<string, number>({ ttlMs: 1_000, maxEntries: 2 });
    map.set('a', 1);
    map.set('b', 2);
    map.set('b', 3);
    expect([map.get('a'), map.get('b'), map.size]).toEqual([1, 3, 2]);
    map.set('c', 4);
    expect([map.get('a'), map.get('b'), map.get('c'), map.size]).toEqual([undefined, undefined, 4, 1]);
  });

  it('when a key is deleted only if it still holds a value, then a newer value stays', () => {
    const map = new ExpiringMap<string, string>({ ttlMs: 1_000 });
    map.set('a', 'old');
    map.set('a', 'new');
    map.delete('a', 'old');
    expect(map.get('a')).toBe('new');
    map.delete('a', 'new');
    expect(map.get('a')).toBeUndefined();
    map.set('b', 'any');
    map.delete('b');
    map.set('c', 'any');
    map.clear();
    expect([map.get('b'), map.get('c'), map.size]).toEqual([undefined, undefined, 0]);
  });
});

describe('loadThrough', () => {
  it('when two reads miss at once, then one load serves both, and a later read within the time to live loads nothing', async () => {
    const map = new ExpiringMap<string, Promise<number>>({ ttlMs: 1_000 });
    let loads = 0;
    const load = async () => ++loads;
    const both = await Promise.all([loadThrough(map, 'k', load), loadThrough(map, 'k', load)]);
    expect(both).toEqual([1, 1]);
    expect(await loadThrough(map, 'k', load)).toBe(1);
    expect(loads).toBe(1);
  });

  it('when a load fails, then it is forgotten and the next read loads again', async () => {
    const map = new ExpiringMap<string, Promise<string>>({ ttlMs: 1_000 });
    await expect(loadThrough(map, 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(map.size).toBe(0);
    expect(await loadThrough(map, 'k', async () => 'up')).toBe('up');
  });

  it('when a load fails after the key was emptied and loaded again, then the newer load stays kept', async () => {
    const map = new ExpiringMap<string, Promise<string>>({ ttlMs: 1_000 });
    let fail!: (error: Error) => void;
    const failing = loadThrough(
      map,
      'k',
      () =>
        new Promise<string>((_, reject) => {
          fail = reject;
        }),
    );
    map.clear();
    const fresh = loadThrough(map, 'k', async () => 'fresh');
    fail(new Error('stale'));
    await expect(failing).rejects.toThrow('stale');
    expect(map.get('k')).toBe(fresh);
  });
});
