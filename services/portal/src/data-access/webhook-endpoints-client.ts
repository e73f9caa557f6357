import { TypedClient, createGrpcClient } from '@rental/grpc';
import { DomainError, notFound } from '@rental/problem';
import { loadNotificationsPackage } from '@rental/proto';
import type { WebhookCall, WebhookEndpoints, WebhookOperation } from '../domain/ports';

type NotificationsClient = InstanceType<ReturnType<typeof loadNotificationsPackage>['WebhookEndpointService']>;

/**
 * notifications' WebhookEndpointService: /api/webhook_endpoints's use cases, body checks and
 * answers for the user's partner, so the portal keeps no second copy of the rules.
 */
export class GrpcWebhookEndpoints implements WebhookEndpoints {
  private readonly client: TypedClient<NotificationsClient>;

  constructor(address: string, deadlineMs: number) {
    this.client = new TypedClient(createGrpcClient(loadNotificationsPackage().WebhookEndpointService, address), deadlineMs);
  }

  async call(partnerId: string, operation: WebhookOperation, call: WebhookCall): Promise<unknown> {
    try {
      const answer = await this.client.call(
        operation,
        {
          endpointId: call.endpointId ?? '',
          eventId: call.eventId ?? '',
          page: call.page ?? 0,
          bodyJson: call.body === undefined ? '' : JSON.stringify(call.body),
        },
        { partnerId },
      );
      return answer.bodyJson ? (JSON.parse(answer.bodyJson) as unknown) : undefined;
    } catch (error) {
      // The partner API answers another partner's endpoint 403; in the portal it does not exist.
      if (error instanceof DomainError && error.code === 'webhook_endpoint.forbidden')
        throw notFound('webhook_endpoint.not_found', `No webhook endpoint ${call.endpointId}.`);
      throw error;
    }
  }

  close(): void {
    this.client.close();
  }
}
