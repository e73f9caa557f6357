import { ulid } from 'ulid';
import { notFound } from '@rental/problem';
import { CalculationDependencies, CalculationResponse, priceCalculation } from './calculation';
import type { CalculationRequest } from './calculation-request';
import type { Category } from './categories';

export interface StoredCalculation {
  id: string;
  partnerId: string;
  createdAt: string;
  productSector: string;
  category: Pick<Category, 'id' | 'slug' | 'name'> | null;
  response: CalculationResponse;
}

export interface CalculationStore {
  save(calculation: StoredCalculation): Promise<void>;
  find(partnerId: string, id: string): Promise<StoredCalculation | undefined>;
}

/** POST /api/calculate: prices and keeps the calculation, so a quote request can refer to it. */
export async function calculateAndStore(request: CalculationRequest, partnerId: string, deps: CalculationDependencies & { store: CalculationStore }): Promise<StoredCalculation> {
  const priced = await priceCalculation(request, partnerId, deps);
  const calculation: StoredCalculation = {
    id: ulid(),
    partnerId,
    createdAt: new Date().toISOString(),
    productSector: priced.productSector,
    category: priced.category ? { id: priced.category.id, slug: priced.category.slug, name: priced.category.name } : null,
    response: priced.response,
  };
  await deps.store.save(calculation);
  return calculation;
}

export async function findCalculation(store: CalculationStore, partnerId: string, id: string): Promise<StoredCalculation> {
  const calculation = await store.find(partnerId, id);
  if (!calculation) throw notFound('calculation.not_found', `No calculation ${id}.`);
  return calculation;
}
