import { type Logger, inTraceOf } from '@rental/logger';
import { PeriodicJob, periodicJob } from '@rental/service-host';
import { SubmissionDependencies, submitDueSubmissions } from '../../domain/lender-submission';
import { lenderSubmissions } from './metrics';

/**
 * Hands queued lender submissions to the lender, a round of claimed submissions at a time: at
 * once when one is queued here (wake), again at once after a round that found work, else every
 * poll interval.
 */
export function lenderSubmissionJob(deps: SubmissionDependencies, pollMs: number, log: Logger): PeriodicJob {
  // Each attempt continues the trace of the request that queued the submission.
  const traced: SubmissionDependencies = { ...deps, onBehalfOf: inTraceOf };
  return periodicJob({
    name: 'lender-submission',
    everyMs: pollMs,
    log,
    run: async () => {
      const round = await submitDueSubmissions(traced);
      lenderSubmissions.inc({ outcome: 'submitted' }, round.submitted);
      lenderSubmissions.inc({ outcome: 'failed' }, round.failed);
      if (round.failed > 0) log.warn(round, 'lender submissions failed; they will be retried');
      return round.submitted + round.failed > 0;
    },
  });
}
