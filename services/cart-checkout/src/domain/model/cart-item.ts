import { z } from 'zod';
import { nonBlankText } from '@rental/problem';
import { hasAtMostDecimals } from '@rental/money';

const amount = z
  .number()
  .min(0, 'This value should be 0 or more.')
  .max(1_000_000_000, 'This value should be 1000000000 or less.')
  .refine((value) => hasAtMostDecimals(value, 2), { message: 'This value must have at most two decimals.', params: { code: 'validation.format' } });
const clickPrice = z
  .number()
  .min(0, 'This value should be 0 or more.')
  .max(1000, 'This value should be 1000 or less.')
  .refine((value) => hasAtMostDecimals(value, 4), { message: 'This value must have at most four decimals.', params: { code: 'validation.format' } });
const clickCount = z.number().int().min(0).max(100_000_000);

export const device = z
  .object({
    bwBaselineCount: clickCount.optional(),
    bwBaselinePrice: clickPrice.optional(),
    bwOveragePrice: clickPrice.optional(),
    colorBaselineCount: clickCount.optional(),
    colorBaselinePrice: clickPrice.optional(),
    colorOveragePrice: clickPrice.optional(),
    scanBaselineCount: clickCount.optional(),
    scanBaselinePrice: clickPrice.optional(),
    scanOveragePrice: clickPrice.optional(),
    locked: z.boolean().optional(),
  })
  .meta({ id: 'Device' });

export const cartItem = z
  .object({
    productNumber: nonBlankText().max(100),
    productName: z.string().max(300).optional(),
    productSku: z.string().max(100).optional(),
    quantity: z.number().int().min(1, 'This value should be a positive integer.').max(10_000),
    price: amount.describe('Price per item in EUR, at most two decimals'),
    productOptions: z.record(z.string().max(100), z.string().max(1000)).optional(),
    categoryId: z.number().int().positive().optional(),
    categorySlug: z.string().min(1).max(120).optional(),
    devices: z.array(device).max(1000).optional().describe('Print-Plan click-billing data, one entry per device'),
  })
  .meta({ id: 'CartItem' });

export const cartBody = z
  .object({
    items: z.array(cartItem).min(1, 'A cart needs at least one item.').max(200),
  })
  .meta({ id: 'CartRequest' });

export type CartItem = z.infer<typeof cartItem>;
export type Device = z.infer<typeof device>;
