import { gatewayGrpcAddressOf } from '@rental/config';
import { TypedClient, createGrpcClient, useInternalIdentity } from '@rental/grpc';
import { IdentityKeys } from '@rental/identity';
import { loadPartnerAccessPackage } from '@rental/proto';
import { type Stack, actAsInternalCaller, createTestPartner, waitFor } from '@rental/testkit';

type Client = InstanceType<ReturnType<typeof loadPartnerAccessPackage>['PartnerAccessService']>;

/**
 * Run by production/shared-stack.test.ts, on a production stack whose gateway looks for expiring
 * keys every second (API_KEY_EXPIRY_CHECK_EVERY=1s). The suite calls the gateway as the back
 * office does, and gives the file back its own internal identity when it ends.
 */
export function keyMailSuite(production: { readonly stack: Stack }): void {
  describe("mail about API keys to the partner's contact", () => {
    let client: TypedClient<Client>;
    const operator = { type: 'operator', id: 'op-anna', name: 'Anna Approver' };

    beforeAll(() => {
      useInternalIdentity('backoffice', new IdentityKeys(production.stack.identitySecret));
      client = new TypedClient(createGrpcClient(loadPartnerAccessPackage().PartnerAccessService, gatewayGrpcAddressOf(production.stack.portBase, {})), 10_000);
    });

    afterAll(() => {
      client?.close();
      actAsInternalCaller(production.stack.identitySecret);
    });

    /** The mails the stack's SMTP sink received for this address whose text matches (the sink keeps subjects MIME-encoded). */
    function mailTo(address: string, text: RegExp): { to: string[]; subject: string; text: string }[] {
      return production.stack.mail.filter((mail) => mail.to.includes(address) && text.test(mail.text));
    }

    it('when a production key is created and revoked, then the contact gets a mail for each naming the key, its prefix and who acted, never the key', async () => {
      const partner = await createTestPartner(production.stack, { like: 'acme', overrides: { contactEmail: 'keys@mail-test.example' } });
      const created = await client.call(
        'CreateApiKey',
        { partnerId: partner.id, name: 'Shop backend', role: 'api_user', createdBy: operator },
        { partnerId: partner.id },
      );
      await client.call('RevokeApiKey', { partnerId: partner.id, keyId: created.apiKey!.id, reason: 'rotated', actor: operator }, { partnerId: partner.id });

      const [made] = await waitFor(
        () => (mailTo('keys@mail-test.example', /was created/).length ? mailTo('keys@mail-test.example', /was created/) : undefined),
        {
          timeoutMs: 20_000,
          what: 'the creation mail',
        },
      );
      const [revoked] = await waitFor(
        () => (mailTo('keys@mail-test.example', /was revoked/).length ? mailTo('keys@mail-test.example', /was revoked/) : undefined),
        { timeoutMs: 20_000, what: 'the revocation mail' },
      );

      for (const mail of [made!, revoked!]) {
        expect(mail.text).toContain(`"Shop backend" (prefix ${created.key.slice(0, 12)})`);
        expect(mail.text).toContain('Anna Approver (operator)');
        expect(mail.text).not.toContain(created.key);
      }
    });

    it('when a key will expire within 7 days, then the contact is mailed once', async () => {
      const partner = await createTestPartner(production.stack, { like: 'acme', overrides: { contactEmail: 'expiry@mail-test.example' } });
      const expiresAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
      const created = await client.call(
        'CreateApiKey',
        { partnerId: partner.id, name: 'Temporary', role: 'readonly', expiresAt, createdBy: operator },
        { partnerId: partner.id },
      );

      await waitFor(() => (mailTo('expiry@mail-test.example', /will expire within 7 days/).length ? true : undefined), {
        timeoutMs: 20_000,
        what: 'the expiry notice',
      });
      await new Promise((resolve) => setTimeout(resolve, 3000));

      const notices = mailTo('expiry@mail-test.example', /will expire within 7 days/);
      expect(notices).toHaveLength(1);
      expect(notices[0]!.text).toContain(created.apiKey!.prefix);
    });
  });
}
