import { grpcAddressOf } from '@rental/config';
import { NotificationListener } from '@rental/db';
import { RunningService, startServiceHost } from '@rental/service-host';
import { PROBLEM_CATALOGUE } from '@rental/proto';
import type { PricingConfig } from './config';
import { CaseWorkflowClient } from './data-access/case-workflow-client';
import { CalculationRepository } from './data-access/calculation-repository';
import {
  CONDITIONS_CHANGED_CHANNEL,
  CachedCategoryReader,
  CachedConditionsReader,
  CachedPartnerProfileReader,
  ReadThroughCache,
  catalogOf,
} from './data-access/cached-readers';
import { CategoryRepository } from './data-access/category-repository';
import { ConditionsRepository } from './data-access/conditions-repository';
import { HttpHubClient } from './data-access/hub-client';
import { PartnerRepository } from './data-access/partner-repository';
import { PartnerConditionsRepository } from './data-access/partner-conditions-repository';
import { pricingGrpcService } from './entry-points/grpc/server';
import { pricingRoutes } from './entry-points/http/routes';
import { migrations } from './migrations';

export function startPricing(config: PricingConfig): Promise<RunningService> {
  return startServiceHost({
    name: 'pricing',
    migrations,
    config,
    usesBus: false,
    problems: PROBLEM_CATALOGUE,
    build: async ({ db, log }) => {
      const cache = new ReadThroughCache(config.PRICING_CONDITIONS_CACHE_TTL_MS);
      // The cache serves only while this connection listens; the seed's NOTIFY empties it.
      const changes = new NotificationListener({
        url: config.DATABASE_URL,
        channel: CONDITIONS_CHANGED_CHANNEL,
        log,
        onNotification: () => cache.clear(),
        onListening: (listening) => (listening ? cache.resume() : cache.suspend()),
      });
      await changes.start();
      const categories = new CachedCategoryReader(new CategoryRepository(db), cache);
      const conditions = new CachedConditionsReader(new ConditionsRepository(db), cache);
      const partners = new CachedPartnerProfileReader(new PartnerRepository(db), cache);
      const calculations = new CalculationRepository(db);
      const hub = new HttpHubClient(config.HUB_URL, config.HUB_TIMEOUT_MS);
      const caseWorkflow = new CaseWorkflowClient(grpcAddressOf('case-workflow', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const cartPricing = { conditions, categories };
      return {
        router: pricingRoutes({
          catalog: catalogOf(conditions),
          calculation: {
            conditions,
            frozenFactors: caseWorkflow,
            findCategoryBySlug: (slug) => categories.findBySlug(slug),
            sandbox: config.API_ENVIRONMENT === 'sandbox',
          },
          calculations,
          listCategories: (limit, offset) => categories.listCategories(limit, offset),
          partners,
          hub,
        }),
        grpc: [
          pricingGrpcService(
            {
              categories,
              partners,
              cartPricing,
              checkoutTerms: { ...cartPricing, profileOf: (partnerId) => partners.findProfile(partnerId), hub },
              calculations,
              frozenFactors: caseWorkflow,
              conditionsAdmin: new PartnerConditionsRepository(db),
            },
            log,
          ),
        ],
        close: async () => {
          await changes.stop();
          await caseWorkflow.close();
        },
      };
    },
  });
}
