import type { Knex } from '@rental/db';
import type { Category } from '../domain/model';

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

/** The whole category catalog in id order (it is small; CachedCategoryReader searches it). */
export class CategoryRepository {
  constructor(private readonly db: Knex) {}

  async allCategories(): Promise<Category[]> {
    const rows: CategoryRow[] = await this.db('categories').orderBy('id');
    return rows.map(toCategory);
  }
}
