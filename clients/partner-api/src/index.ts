import createClient, { type Client } from 'openapi-fetch';
import type { components, paths, webhooks } from './generated/schema';

export type { components, paths, webhooks };
export type PartnerApiClient = Client<paths>;

/** A client whose every call carries the partner's API key and is typed by the API description. */
export function createPartnerApiClient(baseUrl: string, apiKey: string, headers: Record<string, string> = {}): PartnerApiClient {
  return createClient<paths>({ baseUrl, headers: { 'X-Api-Key': apiKey, ...headers } });
}
