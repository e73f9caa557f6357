import { OperationRouter, deprecationHeaders, pageWindow } from '@rental/http';
import { PROBLEM_CONTENT_TYPE } from '@rental/problem';
import { changeableCase } from '../../domain/shared/access';
import { cancelCase } from '../../domain/case/cancel';
import { editContractNumber as editContractNumberUseCase, editableContract } from '../../domain/contract/contracts';
import { startEsignature as startEsignatureUseCase } from '../../domain/signing/esignature';
import type { EsignatureDependencies } from '../../domain/signing/esignature';
import { CustomerChannelSettings, sendToCustomer as sendToCustomerUseCase } from '../../domain/customer/customer';
import type { DocumentsPort, PartnerNames } from '../../domain/shared/ports';
import type { CaseStore } from '../../domain/case/ports';
import type { SigningStatementSource } from '../../domain/signing/ports';
import { listCases, readCase, readContract, readQuote } from '../../domain/case/reads';
import { financeDecision, sandboxCase, simulate } from '../../domain/sandbox/sandbox';
import { advanceClock } from '../../domain/sandbox/sandbox-clock';
import type { ClockSettings } from '../../domain/case/clock';
import { formatDuration } from '@rental/config';
import {
  cancelFinancingCase,
  editContractNumber,
  getContract,
  getFinancingCase,
  getQuote,
  listFinancingCases,
  sandboxAdvanceClock,
  sandboxFinanceDecision,
  sandboxSimulate,
  sendToCustomer,
  startEsignature,
} from './contract';
import { customerRoutes } from './customer-routes';
import { casePath, presentCase, presentCaseListJson, presentContract, presentContractNumber, presentQuote } from './presenters';

export interface CaseWorkflowRouteDependencies {
  store: CaseStore;
  documents: DocumentsPort;
  signingStatements: SigningStatementSource;
  /** Production: start-esignature goes through the signing provider. */
  signing?: EsignatureDependencies['signing'];
  /** API_ENVIRONMENT is sandbox: the sandbox operations exist. */
  sandbox: boolean;
  partners: PartnerNames;
  customer: CustomerChannelSettings;
  clock: ClockSettings;
}

export function caseWorkflowRoutes(deps: CaseWorkflowRouteDependencies): OperationRouter {
  const sandbox = { store: deps.store, documents: deps.documents, sandbox: deps.sandbox };
  const router = new OperationRouter()
    .handle(listFinancingCases, async ({ query, partner, requestId }) => {
      const views = await listCases(deps, pageWindow(query.page), { partnerId: partner.id, requestId });
      return { status: 200, json: presentCaseListJson(views) };
    })
    .handle(getFinancingCase, async ({ params, partner, requestId }) => ({
      status: 200,
      body: presentCase(await readCase(deps, params.id, { partnerId: partner.id, requestId })),
    }))
    .handle(cancelFinancingCase, async ({ params, partner }) => {
      await cancelCase(deps.store, params.id, partner);
      return { status: 204 };
    })
    .handle(sendToCustomer, async ({ params, body, partner }) => ({ status: 200, body: await sendToCustomerUseCase(deps, params.id, body, partner) }))
    .handle(getQuote, async ({ params, partner }) => {
      const details = await readQuote(deps.store, params.id, partner.id);
      return { status: 200, body: presentQuote(details), headers: deprecationHeaders({ successor: casePath(details.quote.financingCaseId) }) };
    })
    .handle(getContract, async ({ params, partner }) => ({ status: 200, body: presentContract(await readContract(deps.store, params.id, partner.id)) }))
    .handle(editContractNumber, {
      before: ({ params, partner }) => editableContract(deps.store, params.id, partner.id),
      handle: async ({ body, guarded: contract }) => ({
        status: 200,
        body: presentContractNumber(await editContractNumberUseCase(deps.store, contract, body.contractNumber)),
      }),
    })
    .handle(startEsignature, {
      before: ({ params, partner }) => changeableCase(deps.store, params.financingCaseId, partner.id),
      handle: async ({ body, guarded: financingCase }) => ({ status: 200, body: await startEsignatureUseCase(deps, financingCase, body) }),
    })
    .handle(sandboxFinanceDecision, {
      before: ({ params, partner, requestId }) => sandboxCase(sandbox, params.id, { ...partner, requestId }),
      handle: async ({ body, guarded: financingCase }) => {
        await financeDecision(sandbox, financingCase, body);
        return { status: 204 };
      },
    })
    .handle(sandboxSimulate, {
      before: ({ params, partner, requestId }) => sandboxCase(sandbox, params.id, { ...partner, requestId }),
      handle: async ({ body, partner, requestId, guarded: financingCase }) => {
        const result = await simulate(sandbox, financingCase, body, { ...partner, requestId });
        if (result.kind === 'upload_rejected') return { status: result.problem.status, body: result.problem, contentType: PROBLEM_CONTENT_TYPE };
        return { status: 204 };
      },
    })
    .handle(sandboxAdvanceClock, {
      before: ({ params, partner, requestId }) => sandboxCase(sandbox, params.financingCaseId, { ...partner, requestId }),
      handle: async ({ body, partner, requestId, guarded: financingCase }) => {
        const { clockOffsetMs, ...advanced } = await advanceClock(deps, financingCase, body, { ...partner, requestId });
        return {
          status: 200,
          body: { financingCaseId: advanced.financingCaseId, clockOffset: formatDuration(clockOffsetMs), applied: advanced.applied, status: advanced.status },
        };
      },
    });
  return customerRoutes(deps, router);
}
