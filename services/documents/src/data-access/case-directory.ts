import { TypedClient, createGrpcClient } from '@rental/grpc';
import { loadCaseWorkflowPackage } from '@rental/proto';
import type { CallerContext, CaseAccess, CaseDirectory, CustomerLinkAccess } from '../domain/ports';

type CaseWorkflowClient = InstanceType<ReturnType<typeof loadCaseWorkflowPackage>['CaseWorkflowService']>;

/** Case ownership, asked of case-workflow (documents never reads its schema). */
export class GrpcCaseDirectory implements CaseDirectory {
  private readonly client: TypedClient<CaseWorkflowClient>;

  constructor(address: string, deadlineMs: number) {
    this.client = new TypedClient(createGrpcClient(loadCaseWorkflowPackage().CaseWorkflowService, address), deadlineMs);
  }

  async access(financingCaseId: string, context: CallerContext): Promise<CaseAccess> {
    const access = await this.client.call('GetCaseAccess', { financingCaseId }, context);
    return { exists: access.exists, partnerId: access.partnerId, status: access.status, quoteId: access.quoteId };
  }

  async resolveCustomerLink(token: string, context: CallerContext): Promise<CustomerLinkAccess> {
    const access = await this.client.call('ResolveCustomerLink', { token }, context);
    const state = access.state === 'valid' || access.state === 'expired' ? access.state : 'unknown';
    return { state, financingCaseId: access.financingCaseId, partnerId: access.partnerId, viewOnly: access.viewOnly, status: access.status };
  }

  close(): void {
    this.client.close();
  }
}
