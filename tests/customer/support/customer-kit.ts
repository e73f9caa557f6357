import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { grpcAddressOf } from '@rental/config';
import { TypedClient, createGrpcClient } from '@rental/grpc';
import { loadDocumentsPackage } from '@rental/proto';
import { ManagedProcess } from '@rental/stack';
import { freePort } from '@rental/testkit';
import type { ReceivedMail, Stack } from '@rental/testkit';
import { CaseOptions, createCaseViaGrpc } from '../../support/cases';
import type { Owner } from '../../case-workflow/support/kit';
import type { StackAddress } from '../../support/shared-stack';

/** A customer address of its own per test, so mail of other tests never counts. */
export const customerEmail = () => `kunde-${randomBytes(4).toString('hex')}@customer.example`;

/** The customer of the customer-facing tests (a company, Kunde GmbH) at that address, as checkout takes it. */
export const customerWith = (email: string) => ({
  firstName: 'Mara',
  lastName: 'Keller',
  email,
  street: 'Hauptstrasse',
  houseNumber: '1',
  zipCode: '10115',
  city: 'Berlin',
  country: 'DE',
  phone: '+49301',
  company: 'Kunde GmbH',
  vatId: 'DE1',
});

/** A case of the owner with its quote in_progress (a checkout without submitFinancing), for a customer of its own. */
export async function quoteInProgress(
  owner: Owner,
  stack: StackAddress & { portBase: number },
  options: CaseOptions & { email?: string | null } = {},
): Promise<{ caseId: string; quoteId: string; email: string | null }> {
  const email = options.email === undefined ? customerEmail() : options.email;
  const created = await createCaseViaGrpc(stack, owner.partner.id, {
    submitFinancing: false,
    customer: { ...customerWith(email ?? ''), customerType: 'company' },

    ...options,
  });
  return { caseId: created.financingCaseId, quoteId: created.quoteId, email };
}

export async function mailOf(stack: { controlUrl: string }): Promise<ReceivedMail[]> {
  return (await (await fetch(`${stack.controlUrl}/mail`)).json()) as ReceivedMail[];
}

export async function mailsTo(address: string, stack: { controlUrl: string }): Promise<ReceivedMail[]> {
  return (await mailOf(stack)).filter((mail) => mail.to.includes(address));
}

/** The customer link a mail carries: {PUBLIC_BASE_URL}/c/{token}. */
export function linkIn(mail: ReceivedMail): string {
  const match = /(https?:\/\/\S+\/c\/[A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no customer link in: ${mail.text}`);
  return match[1];
}

export const tokenOf = (customerUrl: string) => new URL(customerUrl).pathname.split('/').pop() as string;

/** Requested items created the way the approval team and the lender create them (documents' gRPC call). */
export async function requestItems(
  stack: { portBase: number },
  partnerId: string,
  financingCaseId: string,
  itemType: 'document' | 'information',
  items: { label: string; category: string; question?: string; optional?: boolean; targetAudience: 'partner' | 'customer'; dueAt?: string }[],
): Promise<{ id: number; type: string }[]> {
  const client = new TypedClient(createGrpcClient(loadDocumentsPackage().DocumentsService, grpcAddressOf('documents', stack.portBase, {})), 10_000);
  try {
    const response = await client.call(
      'CreateRequestItems',
      {
        financingCaseId,
        itemType,
        items: items.map((item) => ({
          label: item.label,
          category: item.category,
          question: item.question ?? '',
          optional: item.optional ?? false,
          targetAudience: item.targetAudience,
          dueAt: item.dueAt ?? '',
        })),
      },
      { partnerId, requestId: 'test-request-items' },
    );
    return response.items.map((item) => ({ id: item.id, type: item.type }));
  } finally {
    client.close();
  }
}

/** A second process of a service on the same stack (same database and bus), on ports of its own. */
export async function startReplica(stack: Stack, name: 'case-workflow' | 'documents' | 'notifications'): Promise<ManagedProcess> {
  const original = stack.processes[name];
  const httpPort = await freePort();
  const grpcPort = await freePort();
  // Readiness is served on the admin port only; the original holds the default one.
  const adminPort = await freePort();
  const replica = new ManagedProcess({
    ...original.options,
    name: `${name}-replica`,
    env: { ...original.options.env, HTTP_PORT: String(httpPort), GRPC_PORT: String(grpcPort), ADMIN_PORT: String(adminPort) },
    logFile: path.join(stack.logDirectory, `${name}-replica.log`),
    readyUrl: `http://127.0.0.1:${adminPort}/readyz`,
    restartOnCrash: false,
  });
  replica.start();
  await replica.waitReady();
  return replica;
}

export const PDF_FILE = Buffer.from(`%PDF-1.4\n${'% customer document\n'.repeat(20)}%%EOF\n`);

export function uploadForm(fields: Record<string, string>, file: Buffer = PDF_FILE): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([file], { type: 'application/pdf' }), 'id-card.pdf');
  return form;
}
