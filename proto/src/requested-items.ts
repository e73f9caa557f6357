import type { RequestItem, RequestItem__Output } from './generated/rental/documents/v1/RequestItem';

export const REQUESTED_ITEM_TYPES = ['information', 'document', 'fill_and_return'] as const;
export type RequestedItemType = (typeof REQUESTED_ITEM_TYPES)[number];

/** A requested item of a case in the list shape documents answers it in; null where absent. */
export interface ListedRequestItem {
  id: number;
  type: RequestedItemType;
  label: string;
  status: string;
  category: string;
  templateDownloadUrl: string | null;
  callbackRequestId: number | null;
  callbackStatus: string;
  requestedAt: string;
  dueAt: string | null;
  optional: boolean;
  /** What an information item asks; null for other types. */
  question: string | null;
}

/**
 * The item as a RequestItem message: an empty string or 0 stands for null. Fields of a fuller
 * list shape that the message does not name are left out when it is encoded.
 */
export function requestItemMessageOf(item: ListedRequestItem): RequestItem {
  return {
    ...item,
    templateDownloadUrl: item.templateDownloadUrl ?? '',
    callbackRequestId: item.callbackRequestId ?? 0,
    dueAt: item.dueAt ?? '',
    question: item.question ?? '',
  };
}

/** A type named in a message; one this side does not know is read as a document. */
export function requestedItemTypeOf(type: string): RequestedItemType {
  return (REQUESTED_ITEM_TYPES as readonly string[]).includes(type) ? (type as RequestedItemType) : 'document';
}

/** The item a RequestItem message carries (the reverse of requestItemMessageOf). */
export function listedRequestItemOf(message: RequestItem__Output): ListedRequestItem {
  return {
    ...message,
    type: requestedItemTypeOf(message.type),
    templateDownloadUrl: message.templateDownloadUrl || null,
    callbackRequestId: message.callbackRequestId || null,
    dueAt: message.dueAt || null,
    question: message.question || null,
  };
}
