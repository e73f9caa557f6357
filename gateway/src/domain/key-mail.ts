import type { KeyMail } from './partner-access';

const EVENT_WORDS: Record<KeyMail['event'], string> = {
  created: 'was created',
  rolled: 'was rolled (a new key replaces it)',
  revoked: 'was revoked',
  expiring: 'will expire within 7 days',
};

/** The mail to a partner's contact about a key: its name, prefix and who acted, never the key. */
export function keyMailOf(mail: KeyMail, environment: string): { kind: string; subject: string; text: string } {
  const { key, actor } = mail;
  const subject = `API key "${key.name}" (prefix ${key.prefix}) ${EVENT_WORDS[mail.event]}`;
  const lines = [
    `Your ${environment} API key "${key.name}" (prefix ${key.prefix}) ${EVENT_WORDS[mail.event]}.`,
    mail.event === 'expiring'
      ? `It expires at ${key.expiresAt?.toISOString()}. Roll it in the partner portal before then.`
      : `By: ${actor.name} (${actor.type.replace('_', ' ')}).`,
    '',
    'If you did not expect this, revoke the key in the partner portal and contact us.',
  ];
  return { kind: `api_key_${mail.event}`, subject, text: lines.join('\n') };
}
