import type { PartnerProfile } from './partner-profile';

export interface SlaFile {
  fileId: string;
  name: string;
}

export interface HubSlaFile extends SlaFile {
  deleted: boolean;
}

/** The distribution hub's SLA API; rejects when the hub does not answer in time. */
export interface HubClient {
  slaFilesOf(hubId: string): Promise<HubSlaFile[]>;
}

export type SlaLookup =
  | { outcome: 'files'; files: SlaFile[] }
  | { outcome: 'no_hub' }
  | { outcome: 'hub_unavailable' };

/** The partner's custom SLA files without soft-deleted ones, or why there are none. */
export async function lookUpSlaFiles(profile: PartnerProfile, hub: HubClient): Promise<SlaLookup> {
  if (!profile.distributionHub || !profile.distributionHub.connected) return { outcome: 'no_hub' };
  try {
    const files = await hub.slaFilesOf(profile.distributionHub.id);
    return { outcome: 'files', files: files.filter((file) => !file.deleted).map(({ fileId, name }) => ({ fileId, name })) };
  } catch {
    return { outcome: 'hub_unavailable' };
  }
}

/** The catalog answer: an empty list whenever the hub cannot give one, never an error. */
export async function slaFilesForPartner(profile: PartnerProfile | undefined, hub: HubClient): Promise<SlaFile[]> {
  if (!profile) return [];
  const lookup = await lookUpSlaFiles(profile, hub);
  return lookup.outcome === 'files' ? lookup.files : [];
}
