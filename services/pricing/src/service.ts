import { grpcAddressOf } from '@rental/config';
import { RunningService, startServiceHost } from '@rental/service-host';
import { PROBLEM_CATALOGUE } from '@rental/proto';
import type { PricingConfig } from './config';
import { CaseWorkflowClient } from './data-access/case-workflow-client';
import { CalculationRepository } from './data-access/calculation-repository';
import { CatalogRepository } from './data-access/catalog-repository';
import { CategoryRepository } from './data-access/category-repository';
import { ConditionsRepository } from './data-access/conditions-repository';
import { HttpHubClient } from './data-access/hub-client';
import { PartnerRepository } from './data-access/partner-repository';
import { pricingGrpcService } from './entry-points/grpc/server';
import { pricingRoutes } from './entry-points/http/routes';
import { migrations } from './migrations';

export const PRICING_SCHEMA = 'pricing';

export function startPricing(config: PricingConfig): Promise<RunningService> {
  return startServiceHost({
    name: 'pricing',
    schema: PRICING_SCHEMA,
    migrations,
    config,
    usesBus: false,
    problems: PROBLEM_CATALOGUE,
    build: async ({ db, log }) => {
      const categories = new CategoryRepository(db);
      const conditions = new ConditionsRepository(db);
      const partners = new PartnerRepository(db);
      const calculations = new CalculationRepository(db);
      const hub = new HttpHubClient(config.HUB_URL, config.HUB_TIMEOUT_MS);
      const caseWorkflow = new CaseWorkflowClient(grpcAddressOf('case-workflow', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const cartPricing = { conditions, categories };
      return {
        router: pricingRoutes({
          catalog: new CatalogRepository(db),
          calculation: { conditions, frozenFactors: caseWorkflow, findCategoryBySlug: (slug) => categories.findBySlug(slug), sandbox: config.API_ENVIRONMENT === 'sandbox' },
          calculations,
          listCategories: (limit, offset) => categories.listCategories(limit, offset),
          partners,
          hub,
        }),
        grpc: [pricingGrpcService({
          categories,
          partners,
          cartPricing,
          checkoutTerms: { ...cartPricing, profileOf: (partnerId) => partners.findProfile(partnerId), hub },
          calculations,
          frozenFactors: caseWorkflow,
        }, log)],
        close: async () => caseWorkflow.close(),
      };
    },
  });
}
