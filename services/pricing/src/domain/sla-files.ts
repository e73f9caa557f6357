import type { PartnerProfile, SlaFile } from './model';
import type { HubClient } from './ports';

export type SlaLookup = { outcome: 'files'; files: SlaFile[] } | { outcome: 'no_hub' } | { outcome: 'hub_unavailable' };

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
