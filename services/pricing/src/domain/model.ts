import type { CalculationRequest } from './calculation-request';
export interface Sector {
  value: string;
  label: string;
}

export interface Category {
  id: number;
  slug: string;
  name: string;
  sector: string;
  durationMin: number;
  durationMax: number;
  hasPrintPlanCapability: boolean;
}

/** duration in months → factor in thousandths of a percent per month */
export type FactorList = ReadonlyMap<number, number>;

export interface PartnerConditions {
  partnerId: string;
  partnerName: string;
  /** null: every sector */
  allowedSectors: string[] | null;
  financingPartnerId: string | null;
  distributionHubId: string | null;
  monthlySurchargeCents: bigint;
  paymentIntervals: string[];
  /** financing type → commission tier → list */
  rentalFactors: ReadonlyMap<string, ReadonlyMap<number, FactorList>>;
  /** financing type → residual value in thousandths of a percent */
  residualValues: ReadonlyMap<string, number>;
}

export interface SectorRange {
  value: string;
  label: string;
  durationMin: number;
  durationMax: number;
}

export interface Contact {
  id: string;
  name: string;
  contactEmail: string | null;
}

export interface PartnerProfile {
  id: string;
  name: string;
  contactEmail: string | null;
  financingPartner: Contact | null;
  distributionHub: (Contact & { connected: boolean }) | null;
  paymentIntervals: string[];
}

export interface SlaFile {
  fileId: string;
  name: string;
}

export interface HubSlaFile extends SlaFile {
  deleted: boolean;
}

export interface StoredCalculation {
  id: string;
  partnerId: string;
  createdAt: string;
  productSector: string;
  category: Pick<Category, 'id' | 'slug' | 'name'> | null;
  response: CalculationResponse;
}

export interface Offer {
  duration: number;
  calculationType: string;
  /** the monthly rate all in (base rate, rent's service cost, the monthly surcharge), EUR */
  rate: number;
  rentalFactor: string;
  commission: number;
  residualValue: string | null;
  paymentInterval: string;
}

export interface CalculationResponse {
  offers: Offer[];
  request: CalculationRequest;
  currency: string;
  selectedOffer: Offer | null;
}
