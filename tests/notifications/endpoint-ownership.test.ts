/**
 * A partner's webhook endpoint is its own: another partner is refused (403), an unknown one stays 404.
 */
import { Owner, expectProblem, newPartner } from '../case-workflow/support/kit';

let owner: Owner;
let stranger: Owner;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([newPartner(), newPartner()]);
});

describe("another partner's webhook endpoint", () => {
  it('when it is read, changed, deleted or its deliveries listed, then 403; an unknown one stays 404', async () => {
    const created = await owner.api.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/owned-endpoint' });
    expect(created.status).toBe(201);
    const path = `/api/webhook_endpoints/${created.json.id}`;
    for (const response of [
      await stranger.api.get(path),
      await stranger.api.patch(path, { active: false }),
      await stranger.api.get(`${path}/deliveries`),
      await stranger.api.delete(path),
    ]) {
      expectProblem(response, 403, 'webhook_endpoint.forbidden');
    }
    expect((await owner.api.get(path)).json.active).toBe(true);
    expectProblem(await stranger.api.get('/api/webhook_endpoints/01J9ZZZZZZZZZZZZZZZZZZZZZZ'), 404, 'webhook_endpoint.not_found');
  });
});
