import type { Knex } from '@rental/db';
import type { StoredCalculation } from '../domain/model';
import type { CalculationStore } from '../domain/ports';

interface CalculationRow {
  id: string;
  partner_id: string;
  created_at: Date;
  product_sector: string;
  category: StoredCalculation['category'];
  response: StoredCalculation['response'];
}

const toCalculation = (row: CalculationRow): StoredCalculation => ({
  id: row.id,
  partnerId: row.partner_id,
  createdAt: row.created_at.toISOString(),
  productSector: row.product_sector,
  category: row.category,
  response: row.response,
});

export class CalculationRepository implements CalculationStore {
  constructor(private readonly db: Knex) {}

  async save(calculation: StoredCalculation): Promise<void> {
    await this.db('calculations').insert({
      id: calculation.id,
      partner_id: calculation.partnerId,
      created_at: calculation.createdAt,
      product_sector: calculation.productSector,
      category: calculation.category === null ? null : JSON.stringify(calculation.category),
      response: JSON.stringify(calculation.response),
    });
  }

  async find(partnerId: string, id: string): Promise<StoredCalculation | undefined> {
    const row: CalculationRow | undefined = await this.db('calculations').where({ id, partner_id: partnerId }).first();
    return row ? toCalculation(row) : undefined;
  }
}
