import { detectFileType } from './file-type';

const bytes = (...values: number[]) => Uint8Array.from(values);

describe('detectFileType', () => {
  it.each([
    ['a PDF', Buffer.from('%PDF-1.7\n%âãÏÓ'), 'application/pdf'],
    ['a PNG', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13), 'image/png'],
    ['a JPEG (JFIF)', bytes(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10), 'image/jpeg'],
    ['a JPEG (Exif)', bytes(0xff, 0xd8, 0xff, 0xe1), 'image/jpeg'],
    ['a three-byte JPEG start', bytes(0xff, 0xd8, 0xff), 'image/jpeg'],
  ])('when the file starts like %s, then its type is %s', (_name, head, expected) => {
    expect(detectFileType(head)).toBe(expected);
  });

  it.each([
    ['text claiming to be a PDF', Buffer.from('PDF-1.7 but not really')],
    ['a PDF marker not at the start', Buffer.from(' %PDF-1.7')],
    ['a PNG signature cut short', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a)],
    ['a GIF', Buffer.from('GIF89a')],
    ['a ZIP (docx)', bytes(0x50, 0x4b, 0x03, 0x04)],
    ['nothing', bytes()],
  ])('when the file is %s, then no type is allowed', (_name, head) => {
    expect(detectFileType(head)).toBeUndefined();
  });
});
