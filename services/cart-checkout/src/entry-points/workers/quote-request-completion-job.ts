import type { Logger } from '@rental/logger';
import { PeriodicJob, periodicJob } from '@rental/service-host';
import { completeInterruptedQuoteRequests } from '../../domain/quote-request';
import type { CaseWorkflowPort, QuoteRequestStore } from '../../domain/ports';

/** How often the job looks for interrupted filings. */
const EVERY_MS = 10_000;

/**
 * Completes quote requests whose filing was interrupted (still new well past the call's
 * deadline). Replicas may run it side by side: case-workflow creates one case per quote request
 * and only one link of a quote request writes its event.
 */
export function quoteRequestCompletionJob(deps: { store: QuoteRequestStore; caseWorkflow: CaseWorkflowPort }, log: Logger): PeriodicJob {
  return periodicJob({
    name: 'quote-request-completion',
    everyMs: EVERY_MS,
    // It calls case-workflow, which may not listen yet at start.
    firstRoundAfterInterval: true,
    log,
    run: async () => {
      const round = await completeInterruptedQuoteRequests(deps, new Date());
      if (round.completed > 0) log.info(round, 'interrupted quote requests completed');
      if (round.failed > 0) log.warn(round, 'interrupted quote requests could not be completed: refused ones were removed, the others are tried again');
      return false;
    },
  });
}
