import type { Knex } from '@rental/db';
import type { Category } from '../domain/categories';
import type { CategoryReader } from '../domain/ports';

interface CategoryRow {
  id: number;
  slug: string;
  name: string;
  sector: string;
  duration_min: number;
  duration_max: number;
  has_print_plan_capability: boolean;
}

function toCategory(row: CategoryRow): Category {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    sector: row.sector,
    durationMin: row.duration_min,
    durationMax: row.duration_max,
    hasPrintPlanCapability: row.has_print_plan_capability,
  };
}

export class CategoryRepository implements CategoryReader {
  constructor(private readonly db: Knex) {}

  async findCategories(ids: number[], slugs: string[]): Promise<Category[]> {
    const rows: CategoryRow[] = await this.db('categories').whereIn('id', ids).orWhereIn('slug', slugs);
    return rows.map(toCategory);
  }

  async findBySlug(slug: string): Promise<Category | undefined> {
    const row: CategoryRow | undefined = await this.db('categories').where({ slug }).first();
    return row ? toCategory(row) : undefined;
  }

  async listCategories(limit: number, offset: number): Promise<Category[]> {
    const rows: CategoryRow[] = await this.db('categories').orderBy('id').limit(limit).offset(offset);
    return rows.map(toCategory);
  }
}
