import { ExpiringMap, loadThrough } from '@rental/expiring-map';
import { TypedClient, createGrpcClient } from '@rental/grpc';
import { DomainError } from '@rental/problem';
import { apiKeyIdentityOf, loadPartnerAccessPackage } from '@rental/proto';
import type { common, partnerAccess } from '@rental/proto';
import type { Actor, ApiKeyView, AuditEntryView, CreatedApiKey, PartnerAccess } from '../domain/ports';

type PartnerAccessClient = InstanceType<ReturnType<typeof loadPartnerAccessPackage>['PartnerAccessService']>;

/** A partner once found stays known this long; an unknown one is asked again each time. */
const KNOWN_PARTNER_MS = 60_000;

const text = (value: string | undefined) => (value ? value : null);

function actorOf(actor: common.Actor__Output | null): Actor {
  return { type: actor?.type ?? '', id: text(actor?.id), name: text(actor?.name) };
}

function keyOf(message: partnerAccess.ApiKey__Output): ApiKeyView {
  return {
    ...apiKeyIdentityOf(message),
    createdBy: actorOf(message.createdBy),
    lastUsedAt: text(message.lastUsedAt),
    expiresAt: text(message.expiresAt),
    revokedAt: text(message.revokedAt),
    status: message.status,
  };
}

function createdOf(message: partnerAccess.CreatedApiKey__Output): CreatedApiKey {
  if (!message.apiKey) throw new DomainError('internal', 'dependency.failed', 'The gateway answered a new key without its representation.');
  return { apiKey: keyOf(message.apiKey), key: message.key };
}

const actorMessage = (actor: Actor) => ({ type: actor.type, id: actor.id ?? '', name: actor.name ?? '' });

/** The gateway's PartnerAccessService: it owns partners, key hashes and the partner audit. */
export class GrpcPartnerAccess implements PartnerAccess {
  private readonly client: TypedClient<PartnerAccessClient>;
  private readonly known = new ExpiringMap<string, Promise<boolean>>({ ttlMs: KNOWN_PARTNER_MS, maxEntries: 10_000 });

  constructor(address: string, deadlineMs: number) {
    this.client = new TypedClient(createGrpcClient(loadPartnerAccessPackage().PartnerAccessService, address), deadlineMs);
  }

  async partnerExists(partnerId: string): Promise<boolean> {
    const exists = await loadThrough(this.known, partnerId, async () => {
      try {
        await this.client.call('GetPartner', { partnerId }, { partnerId });
        return true;
      } catch (error) {
        if (error instanceof DomainError && error.kind === 'not_found') return false;
        throw error;
      }
    });
    // Only a known partner is remembered: one seeded a moment ago is found at once.
    if (!exists) this.known.delete(partnerId);
    return exists;
  }

  async listKeys(partnerId: string, statuses: string[], page: number): Promise<ApiKeyView[]> {
    const answer = await this.client.call('ListApiKeys', { partnerId, statuses, page }, { partnerId });
    return answer.apiKeys.map(keyOf);
  }

  async createKey(partnerId: string, input: { name: string; role: string; expiresAt: string | null }, actor: Actor): Promise<CreatedApiKey> {
    return createdOf(
      await this.client.call(
        'CreateApiKey',
        { partnerId, name: input.name, role: input.role, expiresAt: input.expiresAt ?? '', createdBy: actorMessage(actor) },
        { partnerId },
      ),
    );
  }

  async rollKey(partnerId: string, keyId: string, overlapSeconds: number, actor: Actor): Promise<CreatedApiKey> {
    return createdOf(await this.client.call('RollApiKey', { partnerId, keyId, overlapSeconds, actor: actorMessage(actor) }, { partnerId }));
  }

  async revokeKey(partnerId: string, keyId: string, actor: Actor): Promise<ApiKeyView> {
    return keyOf(await this.client.call('RevokeApiKey', { partnerId, keyId, reason: '', actor: actorMessage(actor) }, { partnerId }));
  }

  async listAudit(partnerId: string, page: number): Promise<AuditEntryView[]> {
    const answer = await this.client.call('ListAudit', { partnerId, page }, { partnerId });
    return answer.entries.map((entry) => ({
      at: entry.at,
      actor: actorOf(entry.actor),
      action: entry.action,
      target: { type: entry.target?.type ?? '', id: entry.target?.id ?? '', name: entry.target?.name ?? '' },
      reason: text(entry.reason),
    }));
  }

  async recordAudit(partnerId: string, entry: { actor: Actor; action: string; target: AuditEntryView['target'] }): Promise<void> {
    await this.client.call(
      'RecordAudit',
      { partnerId, actor: actorMessage(entry.actor), action: entry.action, target: entry.target, reason: '' },
      { partnerId },
    );
  }

  close(): void {
    this.client.close();
  }
}
