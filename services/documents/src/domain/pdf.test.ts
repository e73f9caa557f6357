import { inflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { detectFileType } from './file-type';
import { renderTextPdf } from './pdf';

/** The text a page shows, as the hex strings of its (deflated) content streams. */
function shownHex(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  return [...text.matchAll(/\/FlateDecode[^]*?stream\r?\n/g)]
    .map((match) => {
      const start = (match.index ?? 0) + match[0].length;
      const raw = pdf.subarray(start, text.indexOf('endstream', start));
      try {
        return inflateSync(raw).toString('latin1');
      } catch {
        return '';
      }
    })
    .join('\n');
}

const hexOf = (value: string) => `<${Buffer.from(value, 'latin1').toString('hex').toUpperCase()}> Tj`;

describe('renderTextPdf', () => {
  it('when a page is rendered, then it is a one-page A4 PDF showing the title and every line, with characters outside Latin-1 as "?", and its subject in plain bytes', async () => {
    const pdf = await renderTextPdf({
      title: 'Selbstauskunft (Vorlage)',
      subject: 'Fall (01J)',
      lines: ['Fall 01J', 'Bitte ausfüllen \\ zurücksenden', '契約'],
    });

    expect(detectFileType(pdf)).toBe('application/pdf');
    const parsed = await PDFDocument.load(pdf);
    expect(parsed.getPages().map((page) => [page.getWidth(), page.getHeight()])).toEqual([[595, 842]]);
    expect([parsed.getTitle(), parsed.getSubject()]).toEqual(['Selbstauskunft (Vorlage)', 'Fall (01J)']);
    expect(pdf.toString('latin1')).toContain('/Subject (Fall \\(01J\\))');
    const shown = shownHex(pdf);
    for (const text of ['Selbstauskunft (Vorlage)', 'Fall 01J', 'Bitte ausfüllen \\ zurücksenden', '??']) expect(shown).toContain(hexOf(text));
  });
});
