import type { DeliveryHistoryReader, EndpointStore } from './ports';
import { findEndpoint } from './endpoints';
import type { DeliveryHistory } from './model';

export async function deliveryHistory(
  deps: { endpoints: EndpointStore; history: DeliveryHistoryReader },
  partnerId: string,
  endpointId: string,
  window: { limit: number; offset: number },
): Promise<DeliveryHistory[]> {
  await findEndpoint(deps.endpoints, partnerId, endpointId);
  return deps.history.history(partnerId, endpointId, window.limit, window.offset);
}
