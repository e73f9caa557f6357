import { WriteBatcher } from './write-batcher';

describe('WriteBatcher', () => {
  it('when writes come while one is being written, then they go together in the next batch', async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const batcher = new WriteBatcher<number>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });

    const first = batcher.add(1);
    const rest = [batcher.add(2), batcher.add(3), batcher.add(4)];
    release();
    await Promise.all([first, ...rest]);

    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('when a batch fails, then every write of it is rejected and later writes still go out', async () => {
    const batcher = new WriteBatcher<number>(async (items) => {
      if (items.includes(1)) throw new Error('database down');
    });

    await expect(batcher.add(1)).rejects.toThrow('database down');
    await expect(batcher.add(2)).resolves.toBeUndefined();
  });

  it('when more writes wait than a batch holds, then they are split', async () => {
    const sizes: number[] = [];
    let release: () => void = () => undefined;
    const batcher = new WriteBatcher<number>(async (items) => {
      sizes.push(items.length);
      if (sizes.length === 1) await new Promise<void>((resolve) => (release = resolve));
    }, 2);

    const writes = [1, 2, 3, 4, 5, 6].map((n) => batcher.add(n));
    release();
    await Promise.all(writes);

    expect(sizes).toEqual([1, 2, 2, 1]);
  });
});
