import type { CatalogReader } from './ports';

export interface Sector {
  value: string;
  label: string;
}

/** The sectors a partner may use: its allowlist, or every sector when it has none. */
export async function sectorsForPartner(catalog: CatalogReader, partnerId: string): Promise<Sector[]> {
  const [sectors, allowed] = await Promise.all([catalog.listSectors(), catalog.allowedSectorsOf(partnerId)]);
  return allowed === null ? sectors : sectors.filter((sector) => allowed.includes(sector.value));
}
