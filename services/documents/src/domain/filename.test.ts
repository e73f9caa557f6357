import { contentDisposition, sanitizeOriginalName } from './filename';

describe('sanitizeOriginalName', () => {
  it.each([
    ['offer.pdf', 'offer.pdf'],
    ['C:\\Users\\erika\\Angebot März.pdf', 'Angebot März.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['evil\r\nX-Injected: 1.pdf', 'evilX-Injected: 1.pdf'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['  spaced.png  ', 'spaced.png'],
  ])('when the client names the file %j, then %j is kept', (raw, expected) => {
    expect(sanitizeOriginalName(raw, 'application/pdf')).toBe(expected);
  });

  it('when nothing usable is left, then the name follows the detected type', () => {
    expect(sanitizeOriginalName(undefined, 'image/png')).toBe('document.png');
    expect(sanitizeOriginalName('..', 'image/jpeg')).toBe('document.jpg');
    expect(sanitizeOriginalName('dir/', 'application/pdf')).toBe('document.pdf');
  });

  it('when the name is longer than 255 characters, then it is cut at 255 characters, not bytes', () => {
    expect([...sanitizeOriginalName('ü'.repeat(300), 'application/pdf')]).toHaveLength(255);
  });
});

describe('contentDisposition', () => {
  it('when the name is plain ASCII, then both parameters carry it', () => {
    expect(contentDisposition('offer-2024.pdf')).toBe('attachment; filename="offer-2024.pdf"; filename*=UTF-8\'\'offer-2024.pdf');
  });

  it('when the name has umlauts and spaces, then the fallback drops the accents and filename* keeps them encoded', () => {
    expect(contentDisposition('Angebot März (final).pdf')).toBe(
      'attachment; filename="Angebot Marz (final).pdf"; filename*=UTF-8\'\'Angebot%20M%C3%A4rz%20%28final%29.pdf',
    );
  });

  it('when the name has non-Latin characters, then the fallback replaces them', () => {
    expect(contentDisposition('契約書.pdf')).toBe('attachment; filename="___.pdf"; filename*=UTF-8\'\'%E5%A5%91%E7%B4%84%E6%9B%B8.pdf');
  });

  it('when the name tries to close the quote, add parameters or lines, then it cannot', () => {
    const header = contentDisposition('a"; filename="evil.exe\r\nSet-Cookie: x=1;%22.pdf');
    expect(header).toBe(
      'attachment; filename="a_; filename=_evil.exeSet-Cookie: x=1;_22.pdf"; filename*=UTF-8\'\'a%22%3B%20filename%3D%22evil.exeSet-Cookie%3A%20x%3D1%3B%2522.pdf',
    );
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.match(/"/g)).toHaveLength(2);
  });

  it('when the stored name carries path characters, then only the last segment is offered', () => {
    expect(contentDisposition('../secret/../../x.pdf')).toBe('attachment; filename="x.pdf"; filename*=UTF-8\'\'x.pdf');
  });
});
