import { PDFDict, PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';

/** Standard fonts encode WinAnsi only; anything else is shown as '?' instead of failing the render. */
const printable = (value: string) => value.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

/**
 * A one-page A4 PDF with a title and lines of text (Helvetica), rendered with pdf-lib, for
 * generated files: fill-and-return templates and the sandbox's signed contract. Characters
 * outside Latin-1 become "?". `subject` (the case it belongs to) is also written as a plain
 * string into the document information, outside any compressed stream, so the file names its
 * case where search tools look.
 */
export async function renderTextPdf(document: { title: string; subject: string; lines: string[] }): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(printable(document.title));
  const info = pdf.context.lookup(pdf.context.trailerInfo.Info, PDFDict);
  info.set(PDFName.of('Subject'), PDFString.of(printable(document.subject).replace(/[\\()]/g, (c) => `\\${c}`)));
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  page.drawText(printable(document.title), { x: 56, y: 780, size: 16, font });
  document.lines.forEach((line, index) => page.drawText(printable(line), { x: 56, y: 750 - index * 16, size: 11, font }));
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}
