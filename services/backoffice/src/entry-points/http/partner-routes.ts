import type { OperationRouter } from '@rental/http';
import { type PartnerAccessPort, partners } from '../../domain/partners';
import { created, ok, operatorOf } from './replies';
import {
  conditionsOperation,
  createKeyOperation,
  createPartnerOperation,
  listPartnersOperation,
  partnerAuditOperation,
  partnerOperation,
  reactivateOperation,
  revokeKeyOperation,
  suspendOperation,
} from './partner-contract';

/** Partners in the back office: each route calls one use case of domain/partners.ts. */
export function partnerRoutes(router: OperationRouter, access: PartnerAccessPort): OperationRouter {
  return router
    .handle(listPartnersOperation, async ({ query }) =>
      ok(await partners.list(access, { query: query.q?.trim() ?? '', status: query.status ?? '', page: query.page })),
    )
    .handle(partnerOperation, async ({ params }) => ok(await partners.show(access, params.id)))
    .handle(partnerAuditOperation, async ({ params, query }) => ok(await partners.audit(access, params.id, query.page)))
    .handle(createPartnerOperation, async ({ body, res }) => created(await partners.create(access, operatorOf(res), body)))
    .handle(conditionsOperation, async ({ params, body, res }) => {
      const { reason, ...conditions } = body;
      return ok(await partners.updateConditions(access, operatorOf(res), params.id, conditions, reason ?? ''));
    })
    .handle(suspendOperation, async ({ params, body, res }) => ok(await partners.suspend(access, operatorOf(res), params.id, body.reason)))
    .handle(reactivateOperation, async ({ params, body, res }) => ok(await partners.reactivate(access, operatorOf(res), params.id, body.reason)))
    .handle(createKeyOperation, async ({ params, body, res }) =>
      created(await partners.createKey(access, operatorOf(res), params.id, { name: body.name, role: body.role, expiresAt: body.expiresAt ?? null })),
    )
    .handle(revokeKeyOperation, async ({ params, body, res }) => ok(await partners.revokeKey(access, operatorOf(res), params.id, params.keyId, body.reason)));
}
