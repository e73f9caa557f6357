import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { databaseNameOf } from '@rental/config';
import { LOG_FLUSH_INTERVAL_MS } from '@rental/logger';
import { ApiClient, createTestPartner } from '@rental/testkit';
import { apiAs, sharedStack } from '../support/shared-stack';
import { problemTypeOf } from '../support/problems';
import { createdEndpointView, endpointView } from './support';

const PROBLEM = 'application/problem+json; charset=utf-8';

let partner: ApiClient;
let other: ApiClient;

beforeAll(async () => {
  partner = apiAs((await createTestPartner(sharedStack())).key);
  other = apiAs((await createTestPartner(sharedStack())).key);
});

async function freshPartner(): Promise<ApiClient> {
  return apiAs((await createTestPartner(sharedStack())).key);
}

function expectViolation(response: { status: number; contentType: string; json: any }, propertyPath: string, code: string) {
  expect([response.status, response.contentType]).toEqual([422, PROBLEM]);
  expect(response.json.violations).toEqual([{ propertyPath, code, message: expect.any(String) }]);
}

describe('POST /api/webhook_endpoints', () => {
  it('when a URL is registered, then 201 with the endpoint, its secret and a Location', async () => {
    const response = await partner.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/hooks/rental' });
    expect(response.status).toBe(201);
    expect(response.contentType).toBe('application/json; charset=utf-8');
    expect(response.json).toEqual(createdEndpointView(response.json.id, 'https://93.184.216.34/hooks/rental'));
    expect(response.headers.get('location')).toBe(`/api/webhook_endpoints/${response.json.id}`);
  });

  it('when active is false, then the endpoint starts paused', async () => {
    const response = await partner.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/hooks/paused', active: false });
    expect([response.status, response.json.active]).toEqual([201, false]);
  });

  it('when two endpoints are registered, then each gets its own secret', async () => {
    const first = await partner.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/hooks/a' });
    const second = await partner.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/hooks/b' });
    expect(first.json.secret).not.toBe(second.json.secret);
  });

  it('when url is missing, of the wrong type, or an unknown field is sent, then 422 with the violation', async () => {
    expectViolation(await partner.post('/api/webhook_endpoints', {}), 'url', 'validation.required');
    expectViolation(await partner.post('/api/webhook_endpoints', { url: 42 }), 'url', 'validation.type');
    expectViolation(await partner.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/x', active: 'yes' }), 'active', 'validation.type');
    expectViolation(await partner.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/x', secret: 'mine' }), 'secret', 'validation.unknown_field');
  });

  it('when the body is not JSON, then 400', async () => {
    const response = await partner.request('POST', '/api/webhook_endpoints', { rawBody: '{"url":', headers: { 'Content-Type': 'application/json' } });
    expect([response.status, response.contentType]).toEqual([400, PROBLEM]);
  });
});

describe('registration rules', () => {
  it.each([
    ['ftp://93.184.216.34/in', 'webhook.url_not_https'],
    ['not a url', 'validation.format'],
    ['https://user:password@93.184.216.34/in', 'validation.format'],
    ['https://10.0.0.1/in', 'webhook.url_not_public'],
    ['https://172.16.0.1/in', 'webhook.url_not_public'],
    ['https://192.168.1.1/in', 'webhook.url_not_public'],
    ['https://169.254.169.254/latest/meta-data', 'webhook.url_not_public'],
    ['https://100.64.0.1/in', 'webhook.url_not_public'],
    ['https://0.0.0.0/in', 'webhook.url_not_public'],
    ['https://224.0.0.1/in', 'webhook.url_not_public'],
    ['https://255.255.255.255/in', 'webhook.url_not_public'],
    ['https://[fd00::1]/in', 'webhook.url_not_public'],
    ['https://[fe80::1]/in', 'webhook.url_not_public'],
    ['https://[::ffff:10.0.0.1]/in', 'webhook.url_not_public'],
    ['https://[::]/in', 'webhook.url_not_public'],
    ['https://0x0a000001/in', 'webhook.url_not_public'],
    ['https://hooks.unknown-host.invalid/in', 'webhook.url_unresolvable'],
  ])('when the URL is %s, then 422 %s at url, even with private URLs allowed for tests', async (url, code) => {
    expectViolation(await partner.post('/api/webhook_endpoints', { url }), 'url', code);
  });

  it('when the same URL is registered again in another spelling, then 409', async () => {
    const api = await freshPartner();
    expect((await api.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/hooks/in' })).status).toBe(201);
    for (const url of ['https://93.184.216.34/hooks/in', 'HTTPS://93.184.216.34:443/hooks/in/', 'https://93.184.216.34/hooks/in#top']) {
      const response = await api.post('/api/webhook_endpoints', { url });
      expect([url, response.status, response.contentType, response.json.type]).toEqual([url, 409, PROBLEM, problemTypeOf('webhook.url_already_registered')]);
    }
  });

  it('when another partner registers the same URL, then that is allowed', async () => {
    const url = 'https://93.184.216.34/hooks/shared';
    expect((await (await freshPartner()).post('/api/webhook_endpoints', { url })).status).toBe(201);
    expect((await (await freshPartner()).post('/api/webhook_endpoints', { url })).status).toBe(201);
  });

  it('when a partner has 20 endpoints, then the 21st is 409, and after a delete there is room again', async () => {
    const api = await freshPartner();
    const created = [];
    for (let n = 1; n <= 20; n += 1) {
      const response = await api.post('/api/webhook_endpoints', { url: `https://93.184.216.34/hooks/${n}`, active: n % 2 === 0 });
      expect(response.status).toBe(201);
      created.push(response.json.id);
    }
    const refused = await api.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/hooks/21' });
    expect([refused.status, refused.json.type]).toEqual([409, problemTypeOf('webhook.endpoint_limit_reached')]);
    expect((await api.delete(`/api/webhook_endpoints/${created[0]}`)).status).toBe(204);
    expect((await api.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/hooks/21' })).status).toBe(201);
  });

  it('when 25 registrations race, then exactly 20 succeed', async () => {
    const api = await freshPartner();
    const responses = await Promise.all(Array.from({ length: 25 }, (_, n) => api.post('/api/webhook_endpoints', { url: `https://93.184.216.34/race/${n}` })));
    expect(responses.filter((response) => response.status === 201)).toHaveLength(20);
    expect(responses.filter((response) => response.status === 409)).toHaveLength(5);
    expect((await api.get('/api/webhook_endpoints')).json).toHaveLength(20);
  });

  it('when a deleted URL is registered again, then it is a new endpoint with a new secret', async () => {
    const api = await freshPartner();
    const first = await api.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/again' });
    await api.delete(`/api/webhook_endpoints/${first.json.id}`);
    const second = await api.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/again' });
    expect(second.status).toBe(201);
    expect([second.json.id === first.json.id, second.json.secret === first.json.secret]).toEqual([false, false]);
  });
});

describe('reading, pausing and deleting', () => {
  it('when endpoints are listed, then they come oldest first, without secrets, and deleted ones are left out', async () => {
    const api = await freshPartner();
    const ids = [];
    for (const name of ['one', 'two', 'three']) ids.push((await api.post('/api/webhook_endpoints', { url: `https://93.184.216.34/${name}` })).json.id);
    await api.delete(`/api/webhook_endpoints/${ids[1]}`);
    const response = await api.get('/api/webhook_endpoints');
    expect(response.status).toBe(200);
    expect(response.json).toEqual([
      endpointView(ids[0], { url: 'https://93.184.216.34/one', active: true, createdAt: expect.any(String) }),
      endpointView(ids[2], { url: 'https://93.184.216.34/three', active: true, createdAt: expect.any(String) }),
    ]);
    expect((await api.get('/api/webhook_endpoints?page=2')).json).toEqual([]);
    expect((await api.get('/api/webhook_endpoints?page=0')).status).toBe(400);
  });

  it('when one endpoint is read, then 200 with the same shape and no secret', async () => {
    const created = (await partner.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/read' })).json;
    const response = await partner.get(`/api/webhook_endpoints/${created.id}`);
    expect(response.status).toBe(200);
    const { secret: _secret, ...withoutSecret } = created;
    expect(response.json).toEqual(withoutSecret);
  });

  it('when an endpoint is paused and resumed, then 200 with active false and then true, and nothing else changes', async () => {
    const created = (await partner.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/pause' })).json;
    const paused = await partner.patch(`/api/webhook_endpoints/${created.id}`, { active: false });
    expect(paused.status).toBe(200);
    expect(paused.json).toEqual(endpointView(created.id, { '@id': created['@id'], url: created.url, active: false, createdAt: created.createdAt }));
    const resumed = await partner.patch(`/api/webhook_endpoints/${created.id}`, { active: true });
    expect([resumed.status, resumed.json.active, 'secret' in resumed.json]).toEqual([200, true, false]);
  });

  it('when a patch names the URL, the secret, nothing, or a wrong type, then 422', async () => {
    const created = (await partner.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/patch' })).json;
    expectViolation(
      await partner.patch(`/api/webhook_endpoints/${created.id}`, { active: true, url: 'https://93.184.216.34/other' }),
      'url',
      'validation.unknown_field',
    );
    expectViolation(await partner.patch(`/api/webhook_endpoints/${created.id}`, { active: true, secret: 'whsec_x' }), 'secret', 'validation.unknown_field');
    expectViolation(await partner.patch(`/api/webhook_endpoints/${created.id}`, {}), 'active', 'validation.required');
    expectViolation(await partner.patch(`/api/webhook_endpoints/${created.id}`, { active: 'false' }), 'active', 'validation.type');
  });

  it('when an endpoint is deleted, then 204 with no body, and afterwards it is 404 everywhere', async () => {
    const created = (await partner.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/delete' })).json;
    const deleted = await partner.delete(`/api/webhook_endpoints/${created.id}`);
    expect([deleted.status, deleted.text]).toEqual([204, '']);
    for (const response of [
      await partner.get(`/api/webhook_endpoints/${created.id}`),
      await partner.patch(`/api/webhook_endpoints/${created.id}`, { active: true }),
      await partner.delete(`/api/webhook_endpoints/${created.id}`),
      await partner.get(`/api/webhook_endpoints/${created.id}/deliveries`),
    ]) {
      expect([response.status, response.contentType]).toEqual([404, PROBLEM]);
    }
  });

  it("when another partner's endpoint is read, changed, deleted or its deliveries listed, then 403 and nothing changes", async () => {
    const created = (await partner.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/mine' })).json;
    expect((await other.get(`/api/webhook_endpoints/${created.id}`)).status).toBe(403);
    expect((await other.patch(`/api/webhook_endpoints/${created.id}`, { active: false })).status).toBe(403);
    expect((await other.delete(`/api/webhook_endpoints/${created.id}`)).status).toBe(403);
    expect((await other.get(`/api/webhook_endpoints/${created.id}/deliveries`)).status).toBe(403);
    expect((await other.get('/api/webhook_endpoints')).json.map((endpoint: { id: string }) => endpoint.id)).not.toContain(created.id);
    expect((await partner.get(`/api/webhook_endpoints/${created.id}`)).json.active).toBe(true);
  });

  it('when the id is unknown or not a ULID, then 404', async () => {
    for (const id of ['01JABCDEFGHJKMNPQRSTVWXYZ0', 'not-a-ulid', '01jabcdefghjkmnpqrstvwxyz0', '1']) {
      const response = await partner.get(`/api/webhook_endpoints/${id}`);
      expect([id, response.status, response.contentType]).toEqual([id, 404, PROBLEM]);
    }
  });

  it('when no key is sent, then 401', async () => {
    expect((await apiAs().get('/api/webhook_endpoints')).status).toBe(401);
    expect((await apiAs().post('/api/webhook_endpoints', { url: 'https://93.184.216.34/x' })).status).toBe(401);
  });
});

describe('the secret', () => {
  it('when an endpoint was created, then its secret appears in no other response and in no log line of the stack', async () => {
    const api = await freshPartner();
    const created = (await api.post('/api/webhook_endpoints', { url: 'https://93.184.216.34/secret' })).json;
    const others = [
      await api.get('/api/webhook_endpoints'),
      await api.get(`/api/webhook_endpoints/${created.id}`),
      await api.patch(`/api/webhook_endpoints/${created.id}`, { active: false }),
      await api.get(`/api/webhook_endpoints/${created.id}/deliveries`),
    ];
    for (const response of others) expect(response.text).not.toContain(created.secret.slice(6));
    // Processes buffer their lines for up to a flush interval: wait for the lines of these calls to be written.
    await sleep(2 * LOG_FLUSH_INTERVAL_MS);
    const logDirectory = path.join(os.tmpdir(), 'rental-stacks', databaseNameOf(sharedStack().databaseUrl), 'logs');
    const logs = fs.readdirSync(logDirectory).map((file) => fs.readFileSync(path.join(logDirectory, file), 'utf8'));
    expect(logs.length).toBeGreaterThan(0);
    for (const log of logs) expect(log).not.toContain(created.secret.slice(6));
  });
});
