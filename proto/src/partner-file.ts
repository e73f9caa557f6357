import { z } from 'zod';
import { FINANCING_TYPES, PAYMENT_INTERVALS } from './financing';

/**
 * A partner as the seed file gives it (fixtures/seed.json `partners[]`), checked once for both
 * ways a partner arrives: `npm run seed` and the back office's POST /ops/v1/partners (and PUT
 * …/conditions for the conditions fields). Numbers are refused, never rounded, when they carry
 * more places than pricing stores (cents for the surcharge, thousandths for factors and residuals).
 */
const places = (max: number) => (value: number) => Number.isFinite(value) && Math.abs(value * 10 ** max - Math.round(value * 10 ** max)) < 1e-6;
const withPlaces = (schema: z.ZodNumber, max: number) => schema.refine(places(max), { message: `must have at most ${max} decimal places` });
const integerKey = /^(0|[1-9][0-9]{0,3})$/;

const factorList = z.record(z.string().regex(integerKey, 'a duration in months'), withPlaces(z.number().positive(), 3));
const factorTiers = z.record(z.string().regex(integerKey, 'a commission tier in percent'), factorList);

/** The conditions fields pricing keeps, as the seed file writes them. */
export const partnerConditionsFields = {
  /** null: every sector */
  allowedSectors: z.array(z.string().min(1)).nullable(),
  financingPartner: z.string().min(1).nullable(),
  distributionHub: z.string().min(1).nullable(),
  monthlySurcharge: withPlaces(z.number().nonnegative(), 2),
  paymentIntervals: z.array(z.enum(PAYMENT_INTERVALS)).min(1),
  rentalFactors: z.partialRecord(z.enum(FINANCING_TYPES), factorTiers),
  residualValues: z.partialRecord(z.enum(FINANCING_TYPES), withPlaces(z.number().nonnegative().max(100), 3)),
};

/** A partner's identity and conditions: the seed file's partner without apiKeys and users. */
export const partnerFields = {
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,99}$/, 'must be 1 to 100 lower-case letters, digits, - or _'),
  name: z.string().trim().min(1).max(300),
  contactEmail: z.email().nullable(),
  ...partnerConditionsFields,
};

export const partnerConditionsSchema = z.object(partnerConditionsFields).strict();
export const newPartnerSchema = z.object(partnerFields).strict();

export type PartnerConditionsDocument = z.infer<typeof partnerConditionsSchema>;
export type NewPartnerDocument = z.infer<typeof newPartnerSchema>;

/** What a partner's conditions may refer to: the lenders, distribution hubs and sectors that exist. */
export interface ConditionReferences {
  lenders: ReadonlySet<string>;
  hubs: ReadonlySet<string>;
  sectors: ReadonlySet<string>;
}

export interface ReferenceViolation {
  propertyPath: string;
  code: string;
  message: string;
}

/** An unknown lender, hub or sector, each named by its field (`prefix` for a seed file's `partners[2].`). */
export function conditionReferenceViolations(
  conditions: Pick<PartnerConditionsDocument, 'allowedSectors' | 'financingPartner' | 'distributionHub'>,
  references: ConditionReferences,
  prefix = '',
): ReferenceViolation[] {
  const violations: ReferenceViolation[] = [];
  if (conditions.financingPartner !== null && !references.lenders.has(conditions.financingPartner)) {
    violations.push({ propertyPath: `${prefix}financingPartner`, code: 'validation.unknown_reference', message: `No lender ${conditions.financingPartner}.` });
  }
  if (conditions.distributionHub !== null && !references.hubs.has(conditions.distributionHub)) {
    violations.push({
      propertyPath: `${prefix}distributionHub`,
      code: 'validation.unknown_reference',
      message: `No distribution hub ${conditions.distributionHub}.`,
    });
  }
  (conditions.allowedSectors ?? []).forEach((sector, index) => {
    if (!references.sectors.has(sector))
      violations.push({ propertyPath: `${prefix}allowedSectors[${index}]`, code: 'validation.unknown_reference', message: `No product sector ${sector}.` });
  });
  return violations;
}
