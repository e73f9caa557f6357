import type { CaseCleanup } from './ports';

/** The members of financing_case.status_changed this service acts on. */
export interface StatusChange {
  id: string;
  data: { financingCaseId: string; resourceType: string; transition: string };
}

/**
 * A canceled quote ends the case's document exchange: its document tokens stop working and its
 * open callback requests close. Applied once per event id, so a redelivery changes nothing.
 */
export async function onStatusChanged(
  deps: { cleanup: CaseCleanup; now(): Date },
  event: StatusChange,
): Promise<{ applied: boolean; invalidatedTokens: number; closedCallbacks: number }> {
  if (event.data.resourceType !== 'quote' || event.data.transition !== 'cancel') return { applied: false, invalidatedTokens: 0, closedCallbacks: 0 };
  return deps.cleanup.applyCancel(event.id, event.data.financingCaseId, deps.now().toISOString());
}
