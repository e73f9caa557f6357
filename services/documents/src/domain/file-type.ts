import type { StoredFileType } from '@rental/proto';

/** The only file types the platform stores, decided by the file's first bytes. */
export type StoredMimeType = StoredFileType;

/** 10 MB: the specification's upload limit, in bytes. */
export const MAX_UPLOAD_BYTES = 10_000_000;

/** Bytes needed to decide the type; fewer suffice when the file is shorter. */
export const MAGIC_BYTES_NEEDED = 8;

const SIGNATURES: { mimeType: StoredMimeType; bytes: number[] }[] = [
  { mimeType: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { mimeType: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mimeType: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
];

/**
 * The type of a file from its leading bytes, or undefined when it is none of PDF, PNG and JPEG.
 * The name and the content type a client sends are never consulted: both are trivially forged.
 */
export function detectFileType(head: Uint8Array): StoredMimeType | undefined {
  return SIGNATURES.find(({ bytes }) => head.length >= bytes.length && bytes.every((byte, index) => head[index] === byte))?.mimeType;
}

export const EXTENSION_OF: Record<StoredMimeType, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
};
