export interface Sector {
  value: string;
  label: string;
}

export interface CatalogReader {
  listSectors(): Promise<Sector[]>;
  allowedSectorsOf(partnerId: string): Promise<string[] | null>;
}

/** The sectors a partner may use: its allowlist, or every sector when it has none. */
export async function sectorsForPartner(catalog: CatalogReader, partnerId: string): Promise<Sector[]> {
  const [sectors, allowed] = await Promise.all([catalog.listSectors(), catalog.allowedSectorsOf(partnerId)]);
  return allowed === null ? sectors : sectors.filter((sector) => allowed.includes(sector.value));
}
