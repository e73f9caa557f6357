// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069"\\/]/g;

/**
 * Content-Disposition of a document the console opens in the browser (RFC 6266): the exact name
 * as filename* and an ASCII fallback; nothing of the name can end the header.
 */
export function contentDisposition(originalName: string): string {
  const name = originalName.replace(UNSAFE_CHARACTERS, '') || 'document';
  const ascii = name.replace(/[^\x20-\x7e]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
