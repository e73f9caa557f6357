import type { Knex } from '@rental/db';
import type { PendingObjects } from '../domain/ports';

export class PendingObjectsRepository implements PendingObjects {
  constructor(private readonly db: Knex) {}

  async announce(key: string): Promise<void> {
    await this.db('pending_objects').insert({ object_key: key, reason: 'upload' });
  }

  async settle(keys: string[]): Promise<void> {
    if (keys.length > 0) await this.db('pending_objects').whereIn('object_key', keys).delete();
  }

  async isReferenced(key: string): Promise<boolean> {
    const found = await this.db.raw<{ rows: unknown[] }>(
      'SELECT 1 FROM documents WHERE object_key = ? UNION ALL SELECT 1 FROM requested_items WHERE template_object_key = ? LIMIT 1',
      [key, key],
    );
    return found.rows.length > 0;
  }

  async due(uploadsAnnouncedBefore: string, limit: number): Promise<string[]> {
    const rows: { object_key: string }[] = await this.db('pending_objects')
      .where({ reason: 'delete' })
      .orWhere((query) => query.where({ reason: 'upload' }).where('announced_at', '<', uploadsAnnouncedBefore))
      .orderBy('announced_at')
      .limit(limit)
      .select('object_key');
    return rows.map((row) => row.object_key);
  }
}
