import { Knex, openDatabase } from '@rental/db';
import { CART_CHECKOUT_SCHEMA, cartCheckoutMigrations } from '@rental/cart-checkout';
import { createLogger } from '@rental/logger';
import { dropDatabase } from '@rental/testkit';

const POSTGRES = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const RENAME = '0014_cart_option_rate_names';

const option = (rateKey: string) => ({ financingType: 'leasing', duration: 36, commission: 0, [rateKey]: '34.30', rentalFactor: '3.180' });
const pricing = (rateKey: string) => ({
  purchasePrice: '1000.00',
  financingOptions: [option(rateKey)],
  items: [{ position: 1, total: '1000.00', financingOptions: [option(rateKey)] }],
  recurringServiceFee: null,
});

describe('migration 0014 of cart-checkout', () => {
  const databaseUrl = `${POSTGRES}/rental_migration_${process.pid}_${Date.now()}`;
  const log = createLogger('migration-test', 'silent');
  const open = (migrations: typeof cartCheckoutMigrations) => openDatabase({ url: databaseUrl, schema: CART_CHECKOUT_SCHEMA, migrations, log });
  let db: Knex | undefined;

  afterAll(async () => {
    await db?.destroy();
    await dropDatabase(databaseUrl);
  });

  it('when carts were priced before it, then their options carry monthlyRateAllIn afterwards, and down gives the old name back', async () => {
    const before = Object.fromEntries(Object.entries(cartCheckoutMigrations).filter(([name]) => name < RENAME));
    const old = await open(before);
    const items = [{ productNumber: 'P-1', quantity: 1, price: 1000, categorySlug: 'laptops' }];
    await old('carts').insert({
      id: '01JCARTBEFORERENAME0000000',
      partner_id: 'acme',
      status: 'active',
      items: JSON.stringify(items),
      pricing: JSON.stringify(pricing('monthlyRate')),
      created_at: new Date(),
      updated_at: new Date(),
    });
    await old.destroy();

    db = await open(cartCheckoutMigrations);
    const migrated = await db('carts').where({ id: '01JCARTBEFORERENAME0000000' }).first();
    expect(migrated.pricing).toEqual(pricing('monthlyRateAllIn'));
    expect(migrated.items).toEqual(items);

    await (cartCheckoutMigrations[RENAME] as { down(db: Knex): Promise<void> }).down(db);
    expect((await db('carts').where({ id: '01JCARTBEFORERENAME0000000' }).first()).pricing).toEqual(pricing('monthlyRate'));
  });
});
