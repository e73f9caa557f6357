import { OperationRouter, pageWindow } from '@rental/http';
import { isDomainError, zodViolations } from '@rental/problem';
import { CalculationDependencies, calculationNotPossible, emptyCalculation, priceCalculation, violationsOf } from '../../domain/calculation';
import { calculationRequest } from '../../domain/calculation-request';
import type { Category } from '../../domain/model';
import { memoizedConditions } from '../../domain/conditions';
import { sectorsForPartner } from '../../domain/catalog';
import type { CalculationStore, CatalogReader, HubClient, PartnerProfileReader } from '../../domain/ports';
import { slaFilesForPartner } from '../../domain/sla-files';
import { calculateAndStore, findCalculation } from '../../domain/stored-calculation';
import { bulkEstimate, calculate, estimate, getCalculation, listProductCategories, listProductSectors, listSlaFiles } from './contract';
import { calculationPath, partnerReference, presentCalculation } from './presenters';

export interface PricingRouteDependencies {
  catalog: CatalogReader;
  calculation: CalculationDependencies;
  calculations: CalculationStore;
  listCategories(limit: number, offset: number): Promise<Category[]>;
  partners: PartnerProfileReader;
  hub: HubClient;
}

export function pricingRoutes(deps: PricingRouteDependencies): OperationRouter {
  return new OperationRouter()
    .handle(calculate, async ({ body, partner }) => {
      try {
        const calculation = await calculateAndStore(body, partner.id, { ...deps.calculation, store: deps.calculations });
        return { status: 201, body: presentCalculation(calculation), headers: { Location: calculationPath(calculation.id) } };
      } catch (error) {
        // The forced sandbox failure answers in the shape of a calculation without offers.
        if (isDomainError(error) && error.code === 'calculation.not_possible') {
          throw calculationNotPossible({
            '@id': null,
            '@type': 'Calculation',
            id: null,
            uri: null,
            requestFormUri: null,
            quote: null,
            partner: partnerReference(partner.id),
            category: null,
            createdAt: new Date().toISOString(),
            response: emptyCalculation(body),
          });
        }
        throw error;
      }
    })
    .handle(estimate, async ({ body, partner }) => {
      const priced = await priceCalculation(body, partner.id, deps.calculation);
      return { status: 201, body: priced.response };
    })
    .handle(bulkEstimate, async ({ body, partner }) => {
      const calculation = { ...deps.calculation, conditions: memoizedConditions(deps.calculation.conditions) };
      const results = await Promise.all(
        body.items.map(async (item, index) => {
          const parsed = calculationRequest.safeParse(item ?? {});
          if (!parsed.success) return { index, success: false, response: null, error: zodViolations(parsed.error, item) };
          try {
            const priced = await priceCalculation(parsed.data, partner.id, calculation);
            return { index, success: true, response: priced.response, error: null };
          } catch (error) {
            if (isDomainError(error) && (error.kind === 'rule_violation' || error.code === 'calculation.not_possible')) {
              return { index, success: false, response: null, error: violationsOf(error) };
            }
            throw error;
          }
        }),
      );
      return { status: 200, body: { results } };
    })
    .handle(getCalculation, async ({ params, partner }) => {
      const calculation = await findCalculation(deps.calculations, partner.id, params.id);
      return { status: 200, body: presentCalculation(calculation) };
    })
    .handle(listProductSectors, async ({ partner, query }) => {
      const { limit, offset } = pageWindow(query.page);
      const sectors = await sectorsForPartner(deps.catalog, partner.id);
      return { status: 200, body: sectors.slice(offset, offset + limit) };
    })
    .handle(listProductCategories, async ({ query }) => {
      const { limit, offset } = pageWindow(query.page);
      const categories = await deps.listCategories(limit, offset);
      return { status: 200, body: categories.map(({ id, slug, name, hasPrintPlanCapability }) => ({ id, slug, name, hasPrintPlanCapability })) };
    })
    .handle(listSlaFiles, async ({ partner, query }) => {
      const { limit, offset } = pageWindow(query.page);
      const files = await slaFilesForPartner(await deps.partners.findProfile(partner.id), deps.hub);
      return { status: 200, body: files.slice(offset, offset + limit) };
    });
}
