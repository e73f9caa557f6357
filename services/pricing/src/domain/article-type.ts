/** Article type of a product sector (the specification derives it from the sector, never from the category). */
export type ArticleType = 'ITK' | 'VENDOR' | 'NON_ITK';

const ITK_SECTORS = new Set(['IT_AND_OFFICE_EQUIPMENT', 'HOME_AND_ENTERTAINMENT_ELECTRONICS']);

export function articleTypeOf(sector: string): ArticleType {
  if (ITK_SECTORS.has(sector)) return 'ITK';
  if (sector === 'VENDOR_ENERGY_STORAGE') return 'VENDOR';
  return 'NON_ITK';
}
