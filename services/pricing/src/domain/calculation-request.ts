import { z } from 'zod';
import { hasAtMostTwoDecimals } from '@rental/money';
import { FINANCING_TYPES, PAYMENT_INTERVALS } from '@rental/proto';

export const PRODUCT_SECTORS = [
  'IT_AND_OFFICE_EQUIPMENT',
  'VENDOR_ENERGY_STORAGE',
  'RENEWABLE_ENERGY_AND_ENERGY_STORAGE',
  'FURNITURE_AND_HOME_ACCESSORIES',
  'MEDICAL_DEVICES',
  'KITCHEN_AND_GASTRONOMY_EQUIPMENT',
  'EVENT_TECHNOLOGY',
  'HOME_AND_ENTERTAINMENT_ELECTRONICS',
  'CONSTRUCTION_MACHINERY_AND_TOOLS',
  'TRANSPORT_AND_LOGISTICS_EQUIPMENT',
  'PHOTO_AND_VIDEO_TECHNOLOGY',
  'FITNESS_AND_SPORTS_EQUIPMENT',
  'SECURITY_EQUIPMENT',
  'POINT_OF_SALES',
  'OTHERS',
] as const;

const MAX_AMOUNT = 1_000_000_000;

/** An amount in EUR: not negative, at most two decimals. */
export const amount = z
  .number()
  .min(0, 'This value should be 0 or more.')
  .max(MAX_AMOUNT, `This value should be ${MAX_AMOUNT} or less.`)
  .refine(hasAtMostTwoDecimals, { message: 'This value must have at most two decimals.', params: { code: 'validation.format' } });

export const SANDBOX_SCENARIOS = ['calculation_not_possible'] as const;

/**
 * Body of calculate and estimate. Properties the specification lists beyond the main ones are
 * accepted with their types; other unknown properties are ignored (new optional parameters must
 * not break older clients, and older clients send fields we no longer read).
 */
export const calculationRequest = z
  .object({
    durations: z.array(z.number().int().min(1).max(600)).min(1, 'At least one duration is required.').max(50).describe('Durations in months'),
    calculationTypes: z
      .array(z.enum(FINANCING_TYPES))
      .min(1, 'At least one calculation type is required.')
      .max(FINANCING_TYPES.length * 2),
    acquisitionCost: amount.nullable().optional(),
    serviceCost: amount.nullable().optional().describe('Monthly service fee, added to the rate of rent offers'),
    installationCost: amount.nullable().optional(),
    paymentInterval: z.enum(PAYMENT_INTERVALS).default('monthly').describe("monthly adds the partner's monthly surcharge to the rate; quarterly does not"),
    productSector: z.enum(PRODUCT_SECTORS).nullable().optional(),
    categorySlug: z.string().max(120).nullable().optional().describe('Narrows the depreciation range; its sector is used when productSector is absent'),
    userType: z.enum(['customer', 'partner']).optional(),
    sandboxScenario: z.enum(SANDBOX_SCENARIOS).optional().describe('Sandbox only: calculation_not_possible forces the empty-calculation failure (500)'),
    allowedProductSectors: z
      .array(z.string().max(60))
      .max(20)
      .optional()
      .describe('Echoed in request only: the sectors enabled for the calling partner decide'),
    type: z.number().int().min(0).max(2).nullable().optional(),
    partner: z.unknown().optional().describe('Echoed in request only: the calculation always belongs to the calling partner'),
    margin: z.number().optional().describe("Echoed in request only: rates come from the partner's rental-factor lists and surcharge"),
    category: z.unknown().optional(),
    public: z.boolean().optional(),
    active: z.boolean().optional(),
    distributionHub: z.string().max(100).nullable().optional(),
    distributionHubOverride: z.string().max(100).nullable().optional().describe("Echoed in request only: the partner's own distribution hub is used"),
    persistedRentalFactor: z
      .string()
      .regex(/^\d{1,7}(\.\d{1,3})?$/, 'This value must be a decimal with up to 7 digits and 3 decimals.')
      .nullable()
      .optional()
      .describe(
        "Frozen rental factor of a source quote; when given it replaces the live factor. Honoured only when, for every calculation type and duration priced, it is the live factor of that type, duration and tier or frozen on one of the calling partner's quotes of that calculation type and duration, else 422 calculation.validation.rental_factor_not_frozen at persistedRentalFactor",
      ),
    commission: z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .describe("Commission tier in percent; default is the preselected tier. Only tiers of the calling partner's own lists are accepted"),
    requestType: z.number().int().min(0).max(2).optional(),
    completeAcquisitionCost: z.number().optional(),
    partnerCalculation: z.boolean().optional(),
    selectedCalculationTypes: z.array(z.string().max(60)).max(20).optional(),
    selectedDurations: z.array(z.number().int()).max(50).optional(),
    complete: z.boolean().optional(),
  })
  .meta({ id: 'CalculationRequest' });

export type CalculationRequest = z.infer<typeof calculationRequest>;
