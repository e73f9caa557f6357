/**
 * Group commit for small writes: while one batch is being written, the next ones queue up and
 * go together in the following statement. No timer, so a lone write goes out at once.
 */
export class WriteBatcher<T> {
  private queue: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private writing = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxBatch = 200,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        await this.write(batch.map((entry) => entry.item));
        batch.forEach((entry) => entry.resolve());
      } catch (error) {
        batch.forEach((entry) => entry.reject(error));
      }
    }
    this.writing = false;
  }
}
