import type { DocumentCategory } from '@rental/proto';

/** Documents the platform itself provides (the signed contract, the signed handover confirmation); partners cannot upload them. */
export const PLATFORM_CATEGORIES: readonly DocumentCategory[] = ['signed_contract', 'handover_confirmation'];

/** Requested information has no document; its category only groups it. */
export const INFORMATION_CATEGORY: DocumentCategory = 'other';
