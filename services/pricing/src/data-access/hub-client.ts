import { z } from 'zod';
import { traceHeaders } from '@rental/logger';
import type { HubSlaFile } from '../domain/model';
import type { HubClient } from '../domain/ports';

const hubAnswer = z.array(z.object({ fileId: z.string(), name: z.string(), deleted: z.boolean() }));

/** The distribution hub's HTTP API; a slow hub is cut off after `timeoutMs`. */
export class HttpHubClient implements HubClient {
  constructor(
    private readonly baseUrl: string | undefined,
    private readonly timeoutMs: number,
  ) {}

  async slaFilesOf(hubId: string): Promise<HubSlaFile[]> {
    if (!this.baseUrl) throw new Error('no distribution hub URL is configured');
    const response = await fetch(new URL(`/hubs/${encodeURIComponent(hubId)}/sla-files`, this.baseUrl), {
      headers: traceHeaders(),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!response.ok) throw new Error(`distribution hub answered ${response.status}`);
    return hubAnswer.parse(await response.json());
  }
}
