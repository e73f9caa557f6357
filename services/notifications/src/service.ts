import { grpcAddressOf, schemaOf } from '@rental/config';
import { sharedRateLimiter } from '@rental/db';
import { RunningService, startServiceHost } from '@rental/service-host';
import { PROBLEM_CATALOGUE } from '@rental/proto';
import type { NotificationsConfig } from './config';
import { DeliveryRepository } from './data-access/delivery-repository';
import { DnsResolver } from './data-access/dns-resolver';
import { EndpointRepository } from './data-access/endpoint-repository';
import { HttpWebhookTransport } from './data-access/http-transport';
import { MailRepository } from './data-access/mail-repository';
import { RequestedMailRepository } from './data-access/requested-mail-repository';
import { GrpcPartnerDirectory } from './data-access/partner-directory';
import { SmtpMailer } from './data-access/smtp-mailer';
import { consumeMailRequests } from './entry-points/bus/mail-requested-consumer';
import { consumeStatusChanges } from './entry-points/bus/status-changed-consumer';
import { webhookEndpointGrpcService } from './entry-points/grpc/server';
import { notificationsRoutes } from './entry-points/http/routes';
import { deliveryWorker } from './entry-points/workers/delivery-worker';
import { inboxCleanup } from './entry-points/workers/inbox-cleanup';
import { mailWorker } from './entry-points/workers/mail-worker';
import { handingOverTo, requestedMailWorker } from './entry-points/workers/requested-mail-worker';
import type { ToolBudget } from './domain/ports';
import { migrations } from './migrations';

const UNLIMITED_BUDGET: ToolBudget = { take: async () => ({ allowed: true }) };

export function startNotifications(config: NotificationsConfig): Promise<RunningService> {
  return startServiceHost({
    name: 'notifications',
    migrations,
    config,
    usesBus: true,
    problems: PROBLEM_CATALOGUE,
    build: async ({ db, bus, log }) => {
      const policy = { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS };
      const resolver = new DnsResolver();
      const endpoints = new EndpointRepository(db);
      const deliveries = new DeliveryRepository(db);
      const transport = new HttpWebhookTransport();
      const directory = new GrpcPartnerDirectory(grpcAddressOf('pricing', config.SERVICE_PORT_BASE), config.GRPC_DEADLINE_MS);
      const mailer = config.SMTP_URL ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM) : undefined;
      if (!mailer) log.warn('SMTP_URL is not set: mail is written to the log and the mail log only');

      const webhooks = deliveryWorker(
        { store: deliveries, transport, resolver, policy, timeoutMs: config.WEBHOOK_TIMEOUT_MS },
        { concurrency: config.WEBHOOK_CONCURRENCY, partnerShare: config.WEBHOOK_PARTNER_CONCURRENCY ?? Math.ceil(config.WEBHOOK_CONCURRENCY / 2), log },
      );
      const perMinute = (prefix: string, points: number): ToolBudget =>
        points > 0 ? sharedRateLimiter(db, { schema: schemaOf('notifications'), prefix, points, windowSeconds: 60 }) : UNLIMITED_BUDGET;
      const mail = mailWorker({ store: new MailRepository(db), directory, mailer }, { log });
      const requestedMails = new RequestedMailRepository(db);
      const requestedMail = requestedMailWorker({ store: requestedMails, directory, mailer }, { log });
      consumeMailRequests({ bus, store: handingOverTo(requestedMail, requestedMails), environment: config.API_ENVIRONMENT, log });
      consumeStatusChanges({
        bus,
        inbox: deliveries,
        environment: config.API_ENVIRONMENT,
        log,
        // A worker woken for nothing still runs its claim statement, once per event.
        onStored: (queued) => {
          if (queued.deliveries > 0) webhooks.wake();
          if (queued.mails > 0) mail.wake();
        },
      });
      const endpointOperations = {
        store: endpoints,
        resolver,
        policy,
        history: deliveries,
        rotation: endpoints,
        redeliveries: deliveries,
        environment: config.API_ENVIRONMENT,
        onQueued: () => webhooks.wake(),
        budgets: {
          testEvents: perMinute('test_event', config.WEBHOOK_TEST_EVENTS_PER_MINUTE),
          redeliveries: perMinute('redelivery', config.WEBHOOK_REDELIVERIES_PER_MINUTE),
        },
      };
      return {
        router: notificationsRoutes(endpointOperations),
        // The same operations for the partner portal.
        grpc: [webhookEndpointGrpcService(endpointOperations, log)],
        workers: [webhooks, mail, requestedMail, inboxCleanup(deliveries, log)],
        close: async () => {
          transport.close();
          directory.close();
          mailer?.close();
        },
      };
    },
  });
}
