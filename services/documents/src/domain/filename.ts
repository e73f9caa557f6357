import { EXTENSION_OF, StoredMimeType } from './file-type';

const MAX_NAME_LENGTH = 255;
// C0 and C1 controls, and the bidirectional overrides that make "cod.exe" look like "exe.doc".
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The name kept for a partner's file: the last path segment only (a client may send
 * "C:\\Users\\x\\offer.pdf" or "../../etc/passwd"), without control characters, at most 255
 * characters. A name left empty becomes "document.<extension of the detected type>".
 */
export function sanitizeOriginalName(raw: string | undefined, mimeType: StoredMimeType): string {
  const lastSegment = (raw ?? '').normalize('NFC').split(/[/\\]/).pop() ?? '';
  const cleaned = lastSegment.replace(UNSAFE_CHARACTERS, '').trim();
  const name = /^\.*$/.test(cleaned) ? '' : cleaned;
  const truncated = [...name].slice(0, MAX_NAME_LENGTH).join('');
  return truncated || `document.${EXTENSION_OF[mimeType]}`;
}

/** An ASCII stand-in for old clients: accents dropped, anything else outside printable ASCII (and quotes, backslashes, percent signs) replaced. */
function asciiFallback(name: string): string {
  const fallback = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return fallback || 'download';
}

/** RFC 5987 value: percent-encoded UTF-8, where only attr-chars stay literal. */
function rfc5987(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Content-Disposition of a download (RFC 6266): an ASCII filename for old clients and the exact
 * name as filename*. Nothing of the name can end the header or add a parameter.
 */
export function contentDisposition(originalName: string): string {
  const name = originalName.replace(UNSAFE_CHARACTERS, '').split(/[/\\]/).pop() || 'download';
  return `attachment; filename="${asciiFallback(name)}"; filename*=UTF-8''${rfc5987(name)}`;
}
