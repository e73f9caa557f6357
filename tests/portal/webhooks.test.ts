import { WebhookReceiver, waitFor } from '@rental/testkit';
import { createdEndpointView } from '../notifications/support';
import { expectProblem, portalPartner } from './support/kit';

let hook: WebhookReceiver;

beforeAll(async () => {
  hook = await WebhookReceiver.start();
});

afterAll(() => hook.close());

describe('portal: webhook endpoints on the data and rules of /api/webhook_endpoints', () => {
  it('when a developer adds an endpoint in the portal, then the partner API lists it, and one made by the API is in the portal', async () => {
    const { developer, viewer, api } = await portalPartner();
    const created = await developer.post('/portal/v1/webhook-endpoints', { url: 'https://93.184.216.34/hooks/portal' });
    expect(created.status).toBe(201);
    expect(created.json).toEqual(createdEndpointView(created.json.id, 'https://93.184.216.34/hooks/portal'));
    expect(created.headers.get('location')).toBe(`/portal/v1/webhook-endpoints/${created.json.id}`);
    const viaApi = await api.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/hooks/api' });

    const inApi = (await api.get('/api/webhook_endpoints')).json.map((endpoint: { id: string }) => endpoint.id);
    const inPortal = await viewer.get('/portal/v1/webhook-endpoints');
    expect(inApi).toEqual([created.json.id, viaApi.json.id]);
    expect(inPortal.status).toBe(200);
    expect(inPortal.json).toEqual((await api.get('/api/webhook_endpoints')).json);
  });

  it('when the input breaks a rule, then the portal answers what the partner API answers, and nothing is created', async () => {
    const { developer, api } = await portalPartner();
    for (const body of [{}, { url: 'not a url' }, { url: 'https://93.184.216.34/hooks/x', secret: 'mine' }, { url: 42 }]) {
      const portal = await developer.post('/portal/v1/webhook-endpoints', body);
      const partnerApi = await api.post('/api/webhook_endpoints', body);
      expect([portal.status, portal.json.type, portal.json.violations]).toEqual([partnerApi.status, partnerApi.json.type, partnerApi.json.violations]);
      expect(portal.status).toBe(422);
    }
    await developer.post('/portal/v1/webhook-endpoints', { url: 'https://93.184.216.34/hooks/twice' });
    const duplicate = await developer.post('/portal/v1/webhook-endpoints', { url: 'https://93.184.216.34/hooks/twice' });
    expectProblem(duplicate, 409, 'webhook.url_already_registered');
    expect((await api.get('/api/webhook_endpoints')).json).toHaveLength(1);
  });

  it("when another partner's endpoint id is named, then 404 and nothing changes", async () => {
    const mine = await portalPartner();
    const theirs = await portalPartner();
    const endpoint = (await theirs.api.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/hooks/theirs' })).json;
    expectProblem(await mine.viewer.get(`/portal/v1/webhook-endpoints/${endpoint.id}`), 404, 'webhook_endpoint.not_found');
    expectProblem(await mine.developer.patch(`/portal/v1/webhook-endpoints/${endpoint.id}`, { active: false }), 404, 'webhook_endpoint.not_found');
    expectProblem(await mine.developer.delete(`/portal/v1/webhook-endpoints/${endpoint.id}`), 404, 'webhook_endpoint.not_found');
    expectProblem(await mine.developer.post(`/portal/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {}), 404, 'webhook_endpoint.not_found');
    expect((await theirs.api.get(`/api/webhook_endpoints/${endpoint.id}`)).json.active).toBe(true);
  });

  it('when a developer sends a test event and redelivers it, then the deliveries show status, attempts and response code', async () => {
    const { developer, viewer } = await portalPartner();
    const endpoint = (await developer.post('/portal/v1/webhook-endpoints', { url: `${hook.url}/portal-test` })).json;
    const test = await developer.post(`/portal/v1/webhook-endpoints/${endpoint.id}/test-event`);
    expect([test.status, test.json.event]).toEqual([202, 'webhook_endpoint.test']);
    const delivered = await waitFor(
      async () => {
        const deliveries = (await viewer.get(`/portal/v1/webhook-endpoints/${endpoint.id}/deliveries`)).json;
        return deliveries[0]?.status === 'succeeded' ? deliveries : undefined;
      },
      { what: 'the test event delivered' },
    );
    expect(delivered[0]).toEqual(
      expect.objectContaining({ eventId: test.json.eventId, attemptCount: 1, attempts: [expect.objectContaining({ statusCode: 204, succeeded: true })] }),
    );
    const again = await developer.post(`/portal/v1/webhook-endpoints/${endpoint.id}/deliveries/${test.json.eventId}/redeliver`);
    expect(again.status).toBe(202);
    await waitFor(() => (hook.requests.filter((request) => request.path === '/portal-test').length >= 2 ? true : undefined), {
      what: 'the redelivery received',
    });
    expectProblem(await viewer.post(`/portal/v1/webhook-endpoints/${endpoint.id}/test-event`), 403, 'portal.role_required');
  });

  it("when endpoints change in the portal, then the audit names each change with the user and the endpoint's URL", async () => {
    const { developer, viewer, partner } = await portalPartner();
    const endpoint = (await developer.post('/portal/v1/webhook-endpoints', { url: 'https://93.184.216.34/hooks/audited' })).json;
    expect((await developer.patch(`/portal/v1/webhook-endpoints/${endpoint.id}`, { active: false })).status).toBe(200);
    const rotated = await developer.post(`/portal/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    expect((await developer.delete(`/portal/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(204);
    const dieter = partner.users.find((user) => user.roles.at(-1) === 'developer');
    const audit = (await viewer.get('/portal/v1/audit')).json;
    expect(audit.slice(0, 4).map((entry: { action: string; actor: unknown; target: unknown }) => [entry.action, entry.actor, entry.target])).toEqual(
      ['webhook_endpoint.deleted', 'webhook_endpoint.secret_rotated', 'webhook_endpoint.updated', 'webhook_endpoint.created'].map((action) => [
        action,
        { type: 'partner_user', id: dieter?.id, name: 'Dieter Developer' },
        { type: 'webhook_endpoint', id: endpoint.id, name: 'https://93.184.216.34/hooks/audited' },
      ]),
    );
    expect(JSON.stringify(audit)).not.toContain(rotated.json.secret);
  });
});
