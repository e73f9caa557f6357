import { ArticleType, articleTypeOf } from './article-type';
import type { CategoryReader } from './ports';
import type { Category } from './model';

export interface CategoryReference {
  categoryId?: number;
  categorySlug?: string;
}

export type CategoryResolution = { found: true; category: Category; articleType: ArticleType } | { found: false; conflicting: boolean };

/**
 * The category an item refers to by id or slug. When both are given they must name the same
 * category; two categories of different sectors are a conflict.
 */
export async function resolveCategories(reader: CategoryReader, references: CategoryReference[]): Promise<CategoryResolution[]> {
  const ids = references.flatMap((ref) => (ref.categoryId ? [ref.categoryId] : []));
  const slugs = references.flatMap((ref) => (ref.categorySlug ? [ref.categorySlug] : []));
  const categories = ids.length || slugs.length ? await reader.findCategories(ids, slugs) : [];
  return references.map((ref): CategoryResolution => {
    const byId = ref.categoryId ? categories.find((c) => c.id === ref.categoryId) : undefined;
    const bySlug = ref.categorySlug ? categories.find((c) => c.slug === ref.categorySlug) : undefined;
    if ((ref.categoryId && !byId) || (ref.categorySlug && !bySlug) || (!byId && !bySlug)) return { found: false, conflicting: false };
    if (byId && bySlug && byId.id !== bySlug.id) return { found: false, conflicting: byId.sector !== bySlug.sector };
    const category = (byId ?? bySlug) as Category;
    return { found: true, category, articleType: articleTypeOf(category.sector) };
  });
}
