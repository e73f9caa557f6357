import type { Sector, Category, PartnerConditions, SectorRange, PartnerProfile, HubSlaFile, StoredCalculation } from './model';

/** What pricing's domain needs from outside it: data-access implements each against its tables or another service. */
export interface CalculationStore {
  save(calculation: StoredCalculation): Promise<void>;
  find(partnerId: string, id: string): Promise<StoredCalculation | undefined>;
}

export interface CatalogReader {
  listSectors(): Promise<Sector[]>;
  allowedSectorsOf(partnerId: string): Promise<string[] | null>;
}

export interface CategoryReader {
  findCategories(ids: number[], slugs: string[]): Promise<Category[]>;
}

export interface PartnerProfileReader {
  findProfile(partnerId: string): Promise<PartnerProfile | undefined>;
}

/** Rental factors frozen on a partner's quotes (case-workflow owns quotes). */
export interface FrozenFactorReader {
  /** Whether one of the partner's quotes of this calculation type and duration froze the factor (a decimal with 3 places). */
  isFrozenOnQuote(partnerId: string, rentalFactor: string, term: { calculationType: string; duration: number }): Promise<boolean>;
}

export interface ConditionsReader {
  conditionsOf(partnerId: string): Promise<PartnerConditions | undefined>;
  sectors(): Promise<SectorRange[]>;
}

/** The distribution hub's SLA API; rejects when the hub does not answer in time. */
export interface HubClient {
  slaFilesOf(hubId: string): Promise<HubSlaFile[]>;
}
