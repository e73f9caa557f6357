import type { StoredCalculation } from '../../domain/model';

// The API's JSON shape of a stored calculation, with its path.

export const calculationPath = (id: string) => `/api/calculations/${id}`;
export const partnerReference = (partnerId: string) => ({ '@id': `/api/partners/${partnerId}`, '@type': 'Partner', id: partnerId });

export function presentCalculation(calculation: StoredCalculation) {
  return {
    '@id': calculationPath(calculation.id),
    '@type': 'Calculation' as const,
    id: calculation.id,
    uri: calculationPath(calculation.id),
    requestFormUri: null,
    quote: null,
    partner: partnerReference(calculation.partnerId),
    category: {
      id: calculation.category?.id ?? null,
      slug: calculation.category?.slug ?? null,
      name: calculation.category?.name ?? null,
      productSector: calculation.productSector,
    },
    createdAt: calculation.createdAt,
    response: calculation.response,
  };
}
