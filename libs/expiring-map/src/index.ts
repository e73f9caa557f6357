export interface ExpiringMapOptions {
  /** How long a value is kept when `set` names no expiry of its own. */
  ttlMs: number;
  /** When a new key would make the map larger, it is emptied first: a burst of keys cannot grow it without end. */
  maxEntries?: number;
  now?: () => number;
}

/**
 * Values kept for a while in memory. An expired value is never answered; it is dropped when
 * it is next asked for or replaced. No timers run, so nothing keeps a process alive.
 */
export class ExpiringMap<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: ExpiringMapOptions) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries ?? Infinity;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value kept for key, unless it has expired. */
  get(key: K): V | undefined {
    const kept = this.entries.get(key);
    if (!kept) return undefined;
    if (kept.expiresAt > this.now()) return kept.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps value until expiresAt (epoch milliseconds), by default for the map's time to live. */
  set(key: K, value: V, expiresAt: number = this.now() + this.ttlMs): void {
    if (!this.entries.has(key) && this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, expiresAt });
  }

  /** Forgets key; with `onlyValue`, only while that very value is the one kept (a newer one stays). */
  delete(key: K, onlyValue?: V): void {
    if (onlyValue !== undefined && this.entries.get(key)?.value !== onlyValue) return;
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * The kept promise of key, else load's, kept at once: concurrent misses share one load. A load
 * that fails is forgotten, so the next call tries again.
 */
export function loadThrough<K, T>(map: ExpiringMap<K, Promise<T>>, key: K, load: () => Promise<T>): Promise<T> {
  const kept = map.get(key);
  if (kept) return kept;
  const loading = load();
  map.set(key, loading);
  loading.catch(() => map.delete(key, loading));
  return loading;
}
