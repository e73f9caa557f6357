import { detectFileType } from './file-type';
import { renderTextPdf } from './pdf';

describe('renderTextPdf', () => {
  it('when a page is rendered, then it is a PDF whose cross-reference table points at each object', () => {
    const pdf = renderTextPdf('Selbstauskunft (Vorlage)', ['Fall 01J', 'Bitte ausfüllen \\ zurücksenden', '契約']);
    const text = pdf.toString('latin1');
    expect(detectFileType(pdf)).toBe('application/pdf');
    const offsets = [...text.matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((offset, index) => expect(text.slice(offset).startsWith(`${index + 1} 0 obj\n`)).toBe(true));
    const startxref = Number(/startxref\n(\d+)/.exec(text)?.[1]);
    expect(text.slice(startxref, startxref + 4)).toBe('xref');
    expect(text).toContain('(Selbstauskunft \\(Vorlage\\)) Tj');
    expect(text).toContain('(Bitte ausfüllen \\\\ zurücksenden) Tj');
    expect(text).toContain('(??) Tj');
  });
});
