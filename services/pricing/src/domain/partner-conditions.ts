import { type PartnerConditionsDocument, type ReferenceViolation, conditionReferenceViolations, partnerConditionsSchema } from '@rental/proto';
import { notFound, validationFailed, zodViolations } from '@rental/problem';

export interface PartnerConditionsStore {
  find(partnerId: string): Promise<PartnerConditionsDocument | undefined>;
  /** Writes unless `check` finds violations against the lenders, hubs and sectors that exist; returns them. */
  replace(
    partner: { id: string; name: string; contactEmail: string | null },
    conditions: PartnerConditionsDocument,
    check: (references: { lenders: Set<string>; hubs: Set<string>; sectors: Set<string> }) => ReferenceViolation[],
  ): Promise<ReferenceViolation[]>;
}

export async function partnerConditionsOf(store: PartnerConditionsStore, partnerId: string): Promise<PartnerConditionsDocument> {
  const conditions = await store.find(partnerId);
  if (!conditions) throw notFound('partner.not_found', `No partner ${partnerId}.`);
  return conditions;
}

/**
 * Replaces a partner's conditions (creating the partner when new), validated as the seed file
 * is: the shape by the shared schema, then every lender, hub and sector named must exist.
 * Nothing is written when one does not.
 */
export async function replacePartnerConditions(
  store: PartnerConditionsStore,
  partner: { id: string; name: string; contactEmail: string | null },
  input: unknown,
): Promise<PartnerConditionsDocument> {
  const parsed = partnerConditionsSchema.safeParse(input);
  if (!parsed.success) throw validationFailed(zodViolations(parsed.error, input));
  const violations = await store.replace(partner, parsed.data, (references) => conditionReferenceViolations(parsed.data, references));
  if (violations.length) throw validationFailed(violations);
  return partnerConditionsOf(store, partner.id);
}
