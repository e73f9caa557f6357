import type { Knex } from '@rental/db';
import type { Sector } from '../domain/catalog';
import type { CatalogReader } from '../domain/ports';

export class CatalogRepository implements CatalogReader {
  constructor(private readonly db: Knex) {}

  async listSectors(): Promise<Sector[]> {
    return this.db('sectors').select('value', 'label').orderBy('value');
  }

  async allowedSectorsOf(partnerId: string): Promise<string[] | null> {
    const row = await this.db('partners').select('allowed_sectors').where({ id: partnerId }).first();
    return row ? row.allowed_sectors : null;
  }
}
