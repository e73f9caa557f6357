import type { CatalogReader } from './ports';
import type { Sector } from './model';

/** The sectors a partner may use: its allowlist, or every sector when it has none. */
export async function sectorsForPartner(catalog: CatalogReader, partnerId: string): Promise<Sector[]> {
  const [sectors, allowed] = await Promise.all([catalog.listSectors(), catalog.allowedSectorsOf(partnerId)]);
  return allowed === null ? sectors : sectors.filter((sector) => allowed.includes(sector.value));
}
