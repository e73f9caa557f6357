import type { ApiKeyStore } from './ports';

/**
 * When each key was last used, kept in memory and written in one statement per flush
 * (API_KEY_LAST_USED_FLUSH_SECONDS), so an authenticated request costs no database write.
 */
export class LastUseRecorder {
  private pending = new Map<string, Date>();

  constructor(
    private readonly store: Pick<ApiKeyStore, 'recordLastUse'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  touch(keyHash: string): void {
    this.pending.set(keyHash, this.now());
  }

  async flush(): Promise<void> {
    if (!this.pending.size) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.store.recordLastUse([...batch].map(([keyHash, at]) => ({ keyHash, at })));
    } catch (error) {
      // Kept for the next flush, unless a newer use replaced it meanwhile.
      for (const [keyHash, at] of batch) if (!this.pending.has(keyHash)) this.pending.set(keyHash, at);
      throw error;
    }
  }
}
