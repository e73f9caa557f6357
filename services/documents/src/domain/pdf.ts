import { PDFDocument, StandardFonts } from 'pdf-lib';

/** Standard fonts encode WinAnsi only; anything else is shown as '?' instead of failing the render. */
const printable = (value: string) => value.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

/**
 * A one-page A4 PDF with a title and lines of text (Helvetica), rendered with pdf-lib, for
 * generated files: fill-and-return templates and the sandbox's signed contract. Characters
 * outside Latin-1 become "?".
 */
export async function renderTextPdf(title: string, lines: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(printable(title));
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  page.drawText(printable(title), { x: 56, y: 780, size: 16, font });
  lines.forEach((line, index) => page.drawText(printable(line), { x: 56, y: 750 - index * 16, size: 11, font }));
  return Buffer.from(await pdf.save());
}
