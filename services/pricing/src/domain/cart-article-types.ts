import { Violation, validationFailed } from '@rental/problem';
import type { CategoryResolution } from './categories';

/**
 * A cart holds one article type. When its items mix types, every item gets one violation naming
 * its product number and type. Items whose category is unknown take no part (pricing refuses them
 * where it must). Checked here, where the categories are resolved anyway, so that pricing a cart
 * or freezing its terms is one call for cart-checkout.
 */
export function checkArticleTypes(items: { productNumber: string }[], resolved: CategoryResolution[]): CategoryResolution[] {
  const types = new Set(resolved.flatMap((resolution) => (resolution.found ? [resolution.articleType] : [])));
  if (types.size <= 1) return resolved;
  const violations: Violation[] = items.map((item, index) => {
    const resolution = resolved[index];
    const articleType = resolution?.found ? resolution.articleType : 'unknown';
    return {
      propertyPath: `items[${index}]`,
      code: 'MIXED_ARTICLE_TYPES',
      message: `Product ${item.productNumber} has article type ${articleType}; a cart holds items of one article type only (found ${[...types].sort().join(', ')}).`,
    };
  });
  throw validationFailed(violations, 'The cart mixes article types; a cart holds items of one article type only.');
}

/**
 * For the catch of the Promise.all that resolves a cart's categories beside other reads: an
 * article-type violation wins over their failures, as when cart-checkout checked the types
 * before asking pricing for anything else.
 */
export function articleTypesFirst(resolving: Promise<unknown>): (error: unknown) => Promise<never> {
  return async (error) => {
    await resolving;
    throw error;
  };
}
