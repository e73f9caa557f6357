import type { Category, FactorList, PartnerConditions, SectorRange } from './model';
import type { ConditionsReader } from './ports';

/** The tier used when the caller names none: 0 when the partner has a 0 % list, else the lowest. */
export function preselectedTier(conditions: PartnerConditions, financingType: string): number | undefined {
  const tiers = conditions.rentalFactors.get(financingType);
  if (!tiers || tiers.size === 0) return undefined;
  if (tiers.has(0)) return 0;
  return Math.min(...tiers.keys());
}

export function factorListOf(conditions: PartnerConditions, financingType: string, tier: number): FactorList | undefined {
  return conditions.rentalFactors.get(financingType)?.get(tier);
}

export function isSectorAllowed(conditions: PartnerConditions, sector: string): boolean {
  return conditions.allowedSectors === null || conditions.allowedSectors.includes(sector);
}

/** The depreciation range every product of a set allows: the sector's range narrowed by each category. */
export function durationRange(
  sectors: SectorRange[],
  categories: Pick<Category, 'sector' | 'durationMin' | 'durationMax'>[],
  sectorValue?: string,
): { min: number; max: number } {
  let min = 0;
  let max = Number.MAX_SAFE_INTEGER;
  const sectorValues = new Set([...categories.map((category) => category.sector), ...(sectorValue ? [sectorValue] : [])]);
  for (const value of sectorValues) {
    const sector = sectors.find((candidate) => candidate.value === value);
    if (sector) {
      min = Math.max(min, sector.durationMin);
      max = Math.min(max, sector.durationMax);
    }
  }
  for (const category of categories) {
    min = Math.max(min, category.durationMin);
    max = Math.min(max, category.durationMax);
  }
  return { min, max };
}

/** A reader that loads each partner's conditions once: a bulk request prices many items for one partner. */
export function memoizedConditions(reader: ConditionsReader): ConditionsReader {
  const byPartner = new Map<string, Promise<PartnerConditions | undefined>>();
  return {
    conditionsOf(partnerId) {
      const cached = byPartner.get(partnerId) ?? reader.conditionsOf(partnerId);
      byPartner.set(partnerId, cached);
      return cached;
    },
    sectors: () => reader.sectors(),
  };
}
