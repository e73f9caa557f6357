/**
 * The category of a calculation is always an object: of its sector when it names no category.
 */
import { Owner, newPartner } from '../case-workflow/support/kit';
import { leasing36 } from '../support/partner-requests';

let owner: Owner;

beforeAll(async () => {
  owner = await newPartner();
});

describe('the category of a calculation, declared non-null', () => {
  it('when a calculation names no category, then category is an object of its sector with null category fields; with a slug it names the category', async () => {
    const bare = await owner.api.post('/api/calculate', leasing36);
    expect(bare.json.category).toEqual({ id: null, slug: null, name: null, productSector: 'IT_AND_OFFICE_EQUIPMENT' });
    expect((await owner.api.get(`/api/calculations/${bare.json.id}`)).json.category).toEqual(bare.json.category);
    const narrowed = await owner.api.post('/api/calculate', { ...leasing36, productSector: undefined, categorySlug: 'laptops' });
    expect(narrowed.json.category).toEqual({ id: expect.any(Number), slug: 'laptops', name: expect.any(String), productSector: 'IT_AND_OFFICE_EQUIPMENT' });
  });
});
