import { isDomainError } from '@rental/problem';
import { normalizeUrl, parseWebhookUrl } from './webhook-url';

const strict = { allowPrivate: false };

function violationOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isDomainError(error)) return { kind: error.kind, violations: error.violations?.map(({ propertyPath, code }) => ({ propertyPath, code })) };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('normalizeUrl', () => {
  it('when URLs differ only in case of scheme and host, default port, trailing slash, trailing dot or fragment, then they normalize alike', () => {
    const forms = ['https://Hooks.Example.COM/In/', 'HTTPS://hooks.example.com:443/In', 'https://hooks.example.com./In//', 'https://hooks.example.com/In#x'];
    expect(new Set(forms.map((form) => normalizeUrl(new URL(form))))).toEqual(new Set(['https://hooks.example.com/In']));
  });

  it('when path case, query or port differ, then the URLs stay different', () => {
    const forms = ['https://hooks.example.com/in', 'https://hooks.example.com/In', 'https://hooks.example.com/in?a=1', 'https://hooks.example.com:8443/in'];
    expect(new Set(forms.map((form) => normalizeUrl(new URL(form)))).size).toBe(4);
  });
});

describe('parseWebhookUrl', () => {
  it('when the URL is http, then it is refused at url unless private URLs are allowed', () => {
    expect(violationOf(() => parseWebhookUrl('http://hooks.example.com/in', strict))).toEqual({
      kind: 'rule_violation',
      violations: [{ propertyPath: 'url', code: 'webhook.url_not_https' }],
    });
    expect(parseWebhookUrl('http://127.0.0.1:9/in', { allowPrivate: true }).ipLiteral).toBe('127.0.0.1');
  });

  it('when the value is no URL, carries credentials or is too long, then it is a format violation', () => {
    expect(violationOf(() => parseWebhookUrl('not a url', strict)).violations).toEqual([{ propertyPath: 'url', code: 'validation.format' }]);
    expect(violationOf(() => parseWebhookUrl('https://user:pw@hooks.example.com/', strict)).violations).toEqual([
      { propertyPath: 'url', code: 'validation.format' },
    ]);
    expect(violationOf(() => parseWebhookUrl(`https://hooks.example.com/${'a'.repeat(2048)}`, strict)).violations).toEqual([
      { propertyPath: 'url', code: 'validation.too_big' },
    ]);
    expect(violationOf(() => parseWebhookUrl('ftp://hooks.example.com/', strict)).violations).toEqual([{ propertyPath: 'url', code: 'webhook.url_not_https' }]);
  });

  it('when the host is an IPv6 literal, then host and literal come without brackets', () => {
    expect(parseWebhookUrl('https://[2606:4700::1111]/in', strict)).toMatchObject({ host: '2606:4700::1111', ipLiteral: '2606:4700::1111' });
  });
});
