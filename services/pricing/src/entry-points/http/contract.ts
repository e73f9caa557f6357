import { z } from 'zod';
import { operationsOn, problemResponses, ulid } from '@rental/http';
import { calculationRequest } from '../../domain/calculation-request';

export const offerSchema = z
  .object({
    duration: z.number().int().describe('Months'),
    calculationType: z.string(),
    rate: z.number().describe('Monthly rate in EUR; includes the monthly surcharge when paymentInterval is monthly and the service cost for rent'),
    rentalFactor: z.string().describe('Percent of the financed amount per month, three decimals'),
    commission: z.number().int().describe('Commission tier in percent the offer is priced with'),
    residualValue: z.string().nullable().describe('Residual value in percent, three decimals; null when the type has none'),
    paymentInterval: z.string(),
  })
  .meta({ id: 'Offer' });

export const calculationResponseSchema = z
  .object({
    offers: z.array(offerSchema),
    request: calculationRequest,
    currency: z.string().describe('Always EUR'),
    selectedOffer: offerSchema.nullable().describe('The offer picked by selectedCalculationTypes and selectedDurations, or the only offer'),
  })
  .meta({ id: 'CalculationResponse' });

const partnerReference = z.object({ '@id': z.string(), '@type': z.string(), id: z.string() });
const categoryReference = z
  .object({
    id: z.number().int().nullable().describe('Id of the product category sent as categorySlug; null when none was sent'),
    slug: z.string().nullable().describe('The categorySlug sent; null when none was sent'),
    name: z.string().nullable().describe('Name of that category; null when none was sent'),
    productSector: z.string().describe('The product sector the calculation was priced for: productSector as sent, else the sector of the category'),
  })
  .meta({ id: 'CalculationCategory' });

export const calculationSchema = z
  .object({
    '@id': z.string().nullable(),
    '@type': z.literal('Calculation'),
    id: z.string().nullable(),
    uri: z.string().nullable().describe('IRI of the calculation; pass it as calculation when filing a quote request'),
    requestFormUri: z.string().nullable(),
    quote: z.object({}).catchall(z.unknown()).nullable(),
    partner: partnerReference,
    category: categoryReference.describe('What the calculation was priced for; always present, its category fields null when no categorySlug was sent'),
    createdAt: z.string(),
    response: calculationResponseSchema,
  })
  .meta({ id: 'Calculation' });

/** What pricing a calculation request may answer in the sandbox besides its offers. */
const calculationNotPossible = {
  500: {
    ...problemResponses(500)[500],
    description: 'Sandbox only: sandboxScenario calculation_not_possible answers with the empty-calculation shape (zero offers) as problem+json',
  },
};

const calculations = operationsOn({ tags: ['Calculation'] });
const catalogs = operationsOn({ tags: ['Catalogs'], problems: [403] });

export const calculate = calculations.post({
  operationId: 'calculate',
  path: '/api/calculate',
  summary: 'Calculate offers and keep the calculation',
  description:
    "Prices every requested calculation type and duration at the partner's preselected commission tier (or the one named) and stores the result; refer to it by its uri when filing a quote request.",
  body: { schema: calculationRequest },
  returns: {
    201: {
      description: 'The stored calculation',
      schema: calculationSchema,
      headers: { Location: { description: 'Path of the calculation', schema: z.string() } },
    },
    ...calculationNotPossible,
  },
});

export const estimate = calculations.post({
  operationId: 'estimate',
  path: '/api/calculate/estimate',
  summary: 'Calculate offers without keeping them',
  description: 'The same pricing as calculate; nothing is stored.',
  body: { schema: calculationRequest },
  returns: {
    201: { description: 'The offers', schema: calculationResponseSchema },
    ...calculationNotPossible,
  },
});

export const BULK_MIN = 2;
export const BULK_MAX = 50;

export const bulkEstimateRequest = z.object({
  items: z
    .array(z.unknown())
    .min(BULK_MIN, `Between ${BULK_MIN} and ${BULK_MAX} items are required.`)
    .max(BULK_MAX, `Between ${BULK_MIN} and ${BULK_MAX} items are required.`)
    .describe(`${BULK_MIN} to ${BULK_MAX} calculation requests, each priced on its own`),
});

const violation = z.object({ propertyPath: z.string(), message: z.string(), code: z.string() });

export const bulkEstimateResult = z
  .object({
    results: z.array(
      z.object({
        index: z.number().int().describe('Position of the item in the request, from 0'),
        success: z.boolean(),
        response: calculationResponseSchema.nullable(),
        error: z.array(violation).nullable().describe('Violations of this item; propertyPath is relative to the item'),
      }),
    ),
  })
  .meta({ id: 'BulkEstimateResult' });

export const bulkEstimate = calculations.post({
  operationId: 'bulkEstimate',
  path: '/api/calculate/estimate/bulk',
  summary: 'Estimate 2 to 50 calculation requests at once',
  description: 'Each item is priced on its own: a bad item gives success false with its violations and does not fail the others.',
  body: { schema: bulkEstimateRequest },
  returns: { 200: { description: 'One result per item, in request order', schema: bulkEstimateResult } },
});

export const getCalculation = calculations.read({
  operationId: 'getCalculation',
  path: '/api/calculations/{id}',
  summary: 'A stored calculation',
  description: "A calculation of the calling partner; another partner's calculation answers 404.",
  params: z.object({ id: ulid() }),
  returns: { description: 'The calculation', schema: calculationSchema },
});

export const productSector = z.object({
  value: z.string().describe('Machine-readable sector; use it as productSector'),
  label: z.string().describe('Human-readable name'),
});

export const listProductSectors = catalogs.list({
  operationId: 'listProductSectors',
  path: '/api/product-sectors',
  summary: 'Product sectors the partner may use',
  description: 'The sectors allowed for the partner; a partner without an allowlist receives all.',
  items: { description: 'The allowed sectors', schema: productSector },
});

export const productCategory = z.object({
  id: z.number().int(),
  slug: z.string().describe('Use it as categorySlug'),
  name: z.string(),
  hasPrintPlanCapability: z.boolean(),
});

export const listProductCategories = catalogs.list({
  operationId: 'listProductCategories',
  path: '/api/product-categories',
  summary: 'Product categories',
  description: 'Use slug as categorySlug for precise depreciation-range validation; Print-Plan financing needs categories with hasPrintPlanCapability.',
  items: { description: 'The categories', schema: productCategory },
});

export const slaFile = z.object({
  fileId: z.string().describe('File identifier; use it as customSlaFileName at checkout'),
  name: z.string(),
});

export const listSlaFiles = catalogs.list({
  operationId: 'listSlaFiles',
  path: '/api/sla-files',
  summary: "Custom SLA files of the partner's distribution hub",
  description: 'Soft-deleted files are left out. An empty list when the partner has no hub, the hub is not connected, or the hub does not answer in time.',
  items: { description: 'The SLA files', schema: slaFile },
});

export const operations = [calculate, estimate, bulkEstimate, getCalculation, listProductSectors, listProductCategories, listSlaFiles];
