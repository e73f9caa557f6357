import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { conditionReferenceViolations, partnerFields } from '@rental/proto';

const durationRange = z.tuple([z.number().int().positive(), z.number().int().positive()]);

/** A person who signs in at the dev identity provider (password) and a program of theirs (client credentials). */
const account = <const Roles extends readonly [string, ...string[]]>(roles: Roles) =>
  z.object({
    id: z.string().min(1).max(100),
    name: z.string().min(1),
    email: z.string().email(),
    password: z.string().min(8),
    roles: z.array(z.enum(roles)),
    clientId: z.string().min(1).max(100),
    clientSecret: z.string().min(16),
  });

/** The shape of a seed file (fixtures/seed.json): partners, keys, catalog, conditions, lenders, hubs, operators. */
export const seedFileSchema = z
  .object({
    sectors: z.array(z.object({ value: z.string(), label: z.string(), durationRange })),
    categories: z.array(
      z.object({
        id: z.number().int().positive(),
        slug: z.string(),
        name: z.string(),
        sector: z.string(),
        durationRange,
        hasPrintPlanCapability: z.boolean(),
      }),
    ),
    lenders: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        contactEmail: z.string().nullable(),
        /** Signs what we send the lender and verifies what it sends us; never logged. */
        webhookSecret: z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, 'must be a whsec_ secret'),
        /** null: the lender simulator of the local stack. */
        intakeUrl: z.url().nullable(),
      }),
    ),
    /** The approval team, loaded into the dev identity provider. */
    operators: z.array(account(['viewer', 'reviewer', 'approver'])).default([]),
    distributionHubs: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        connected: z.boolean(),
        contactEmail: z.string().nullable(),
        slaFiles: z.array(z.object({ fileId: z.string(), name: z.string(), deleted: z.boolean() })),
        /** Test knob of the local hub stub: answer this much later. */
        responseDelayMs: z.number().int().nonnegative().optional(),
      }),
    ),
    /** Each partner as POST /ops/v1/partners takes it (one validation for both), with its keys. */
    partners: z.array(
      z.object({
        ...partnerFields,
        apiKeys: z.array(z.object({ key: z.string().min(16), environment: z.enum(['sandbox', 'production']), roles: z.array(z.string()) })),
        /** People at the partner (and their programs), loaded into the dev identity provider for the portal. */
        users: z.array(account(['viewer', 'developer', 'admin'])).default([]),
      }),
    ),
  })
  .superRefine((seed, context) => {
    // Lenders, hubs and sectors a partner names must be in the same file (the seed loads them first).
    const references = {
      lenders: new Set(seed.lenders.map((lender) => lender.id)),
      hubs: new Set(seed.distributionHubs.map((hub) => hub.id)),
      sectors: new Set(seed.sectors.map((sector) => sector.value)),
    };
    seed.partners.forEach((partner, index) => {
      for (const found of conditionReferenceViolations(partner, references)) {
        context.addIssue({
          code: 'custom',
          path: [
            'partners',
            index,
            ...found.propertyPath
              .split(/[.[\]]/)
              .filter(Boolean)
              .map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
          ],
          message: found.message,
        });
      }
    });
  });

export type SeedFile = z.infer<typeof seedFileSchema>;

export function readSeedFile(file: string): SeedFile {
  const parsed = seedFileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file} is not a seed file: ${issue?.path.join('.')} ${issue?.message}`);
  }
  return parsed.data;
}

/** The project's own demo fixture, the same shape as the shared one. */
export const DEMO_SEED_FILE = path.resolve(__dirname, '..', '..', '..', 'fixtures', 'seed.json');
