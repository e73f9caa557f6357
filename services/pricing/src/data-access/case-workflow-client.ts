import { TypedClient, createGrpcClient } from '@rental/grpc';
import { loadCaseWorkflowPackage } from '@rental/proto';
import type { FrozenFactorReader } from '../domain/ports';

/** case-workflow's quote lookup behind the calculation's port. */
export class CaseWorkflowClient implements FrozenFactorReader {
  private readonly client: TypedClient<InstanceType<ReturnType<typeof loadCaseWorkflowPackage>['CaseWorkflowService']>>;

  constructor(address: string, deadlineMs: number) {
    this.client = new TypedClient(createGrpcClient(loadCaseWorkflowPackage().CaseWorkflowService, address), deadlineMs);
  }

  async isFrozenOnQuote(partnerId: string, rentalFactor: string, term: { calculationType: string; duration: number }): Promise<boolean> {
    const answer = await this.client.call(
      'HasQuoteWithRentalFactor',
      { rentalFactor, calculationType: term.calculationType, duration: term.duration },
      { partnerId, requestId: 'pricing-persisted-factor' },
    );
    return answer.exists;
  }

  close(): void {
    this.client.close();
  }
}
