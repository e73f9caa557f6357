import { ESCAPE_HTML_MODULE, escapeHtml } from './index';

const SAMPLES = [`<a href="x" title='y'>Tom & Jerry</a>`, 'Grüße – ½ € 🚲', '', 42, null, undefined];

describe('escapeHtml', () => {
  it('when text holds markup characters, then each becomes a numeric character reference and the rest stays', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe('&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;Tom &#38; Jerry&#60;/a&#62;');
    expect(escapeHtml('Grüße – ½ € 🚲')).toBe('Grüße – ½ € 🚲');
  });

  it('when the value is missing or a number, then it is written as text (nothing for null and undefined)', () => {
    expect([null, undefined, 42].map(escapeHtml)).toEqual(['', '', '42']);
  });

  it('when a page imports the served module, then it escapes exactly as the servers do', () => {
    expect(ESCAPE_HTML_MODULE.startsWith('export const escapeHtml = ')).toBe(true);
    const served = new Function(ESCAPE_HTML_MODULE.replace('export const escapeHtml = ', 'return '))() as (value: unknown) => string;
    expect(SAMPLES.map(served)).toEqual(SAMPLES.map(escapeHtml));
  });
});
