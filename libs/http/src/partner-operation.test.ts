import { z } from 'zod';
import type { OperationSpec } from './operation';
import { operationsOn } from './partner-operation';

const params = z.object({ id: z.string() });
const schema = z.object({ id: z.string() });

describe('a family of partner operations that names its resource', () => {
  const carts = operationsOn({ tags: ['Carts'], params, noun: 'cart' });

  it('when a read leaves its answer to the noun, then it answers "The <noun>" and says another partner\'s resource is hidden', () => {
    const read = carts.read({ operationId: 'getCart', path: '/api/carts/{id}', summary: 'A cart', description: 'With its status.', returns: { schema } });
    expect(read.description).toBe("With its status. Another partner's cart answers 404.");
    expect(read.responses[200]).toEqual({ description: 'The cart', schema });
  });

  it('when the family refuses another partner with 403, then a read does not say 404', () => {
    const contracts = operationsOn({ tags: ['Contracts'], params, noun: 'contract', problems: [403] });
    const read = contracts.read({ operationId: 'getContract', path: '/api/contracts/{id}', summary: 'A contract', returns: { schema } });
    expect((read as OperationSpec).description).toBeUndefined();
    expect(Object.keys(read.responses).map(Number).sort()).toEqual([200, 401, 403, 404, 503]);
  });

  it('when a resource is created, then 201 with the Location of the noun and no path parameters', () => {
    const create = carts.create({
      operationId: 'createCart',
      path: '/api/carts',
      summary: 'Create a cart',
      returns: { description: 'The priced cart', schema },
    });
    expect(create.responses[201]).toEqual({
      description: 'The priced cart',
      schema,
      headers: { Location: { description: 'Path of the cart', schema: expect.any(z.ZodString) } },
    });
    expect((create as OperationSpec).params).toBeUndefined();
  });

  it('when a family without a noun creates, then defining the operation fails and names it', () => {
    const unnamed = operationsOn({ tags: ['Things'] });
    expect(() => unnamed.create({ operationId: 'createThing', path: '/api/things', summary: 'Create', returns: { description: 'The thing', schema } })).toThrow(
      'createThing: create needs a family that names its resource (noun)',
    );
  });
});
