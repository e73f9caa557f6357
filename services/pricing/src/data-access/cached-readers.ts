import { ExpiringMap, loadThrough } from '@rental/expiring-map';
import type { Category, PartnerConditions, SectorRange, PartnerProfile } from '../domain/model';
import type { CatalogReader, CategoryReader, ConditionsReader, PartnerProfileReader } from '../domain/ports';

/**
 * The Postgres channel the seed notifies inside its transaction when it has loaded catalog and
 * conditions (the only writer of those tables); channels are per database, hence the prefix.
 */
export const CONDITIONS_CHANGED_CHANNEL = 'pricing_conditions_changed';

/**
 * Loaded values kept for a TTL (a safety net) and dropped whenever a change is announced. It
 * serves from memory only while announcements are heard: until `resume` and after `suspend`
 * every read goes to the database, so a change made while nobody listened is never hidden.
 * Values are shared between requests and must not be mutated.
 */
export class ReadThroughCache {
  private readonly entries: ExpiringMap<string, Promise<unknown>>;
  private serving = false;

  constructor(ttlMs: number, now: () => number = Date.now) {
    this.entries = new ExpiringMap({ ttlMs, now });
  }

  /** Announcements are heard (again); what was kept before may have missed one, so it starts empty. */
  resume(): void {
    this.entries.clear();
    this.serving = true;
  }

  /** Announcements may go unheard from now on. */
  suspend(): void {
    this.serving = false;
    this.entries.clear();
  }

  /** A change was announced. A load in flight is dropped with the rest: it may have read the old rows. */
  clear(): void {
    this.entries.clear();
  }

  read<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (!this.serving) return load();
    return loadThrough(this.entries, key, load) as Promise<T>;
  }
}

/** A reader answered through the cache from the reader that goes to the database. */
abstract class CachedReader<Inner> {
  constructor(
    protected readonly inner: Inner,
    protected readonly cache: ReadThroughCache,
  ) {}
}

export class CachedConditionsReader extends CachedReader<ConditionsReader> implements ConditionsReader {
  conditionsOf(partnerId: string): Promise<PartnerConditions | undefined> {
    return this.cache.read(`conditions/${partnerId}`, () => this.inner.conditionsOf(partnerId));
  }

  sectors(): Promise<SectorRange[]> {
    return this.cache.read('sectors', () => this.inner.sectors());
  }
}

export class CachedPartnerProfileReader extends CachedReader<PartnerProfileReader> implements PartnerProfileReader {
  findProfile(partnerId: string): Promise<PartnerProfile | undefined> {
    return this.cache.read(`profile/${partnerId}`, () => this.inner.findProfile(partnerId));
  }
}

/**
 * The categories are a small catalog: kept whole and searched in memory, so a request for an
 * unknown slug costs no query and adds no entry.
 */
export class CachedCategoryReader extends CachedReader<{ allCategories(): Promise<Category[]> }> implements CategoryReader {
  private all(): Promise<Category[]> {
    return this.cache.read('categories', () => this.inner.allCategories());
  }

  async findCategories(ids: number[], slugs: string[]): Promise<Category[]> {
    return (await this.all()).filter((category) => ids.includes(category.id) || slugs.includes(category.slug));
  }

  async findBySlug(slug: string): Promise<Category | undefined> {
    return (await this.all()).find((category) => category.slug === slug);
  }

  async listCategories(limit: number, offset: number): Promise<Category[]> {
    return (await this.all()).slice(offset, offset + limit);
  }
}

/** The product-sector list answered from the same (cached) sectors and allowlists as pricing. */
export function catalogOf(conditions: ConditionsReader): CatalogReader {
  return {
    listSectors: async () => (await conditions.sectors()).map(({ value, label }) => ({ value, label })),
    allowedSectorsOf: async (partnerId) => (await conditions.conditionsOf(partnerId))?.allowedSectors ?? null,
  };
}
