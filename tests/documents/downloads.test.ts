import { PartnerWithCase, download, partnerWithCase, rawMultipart, sampleFile, sharedStack, upload } from './support/kit';
import { problemTypeOf } from '../support/problems';

describe('document metadata and download', () => {
  let owner: PartnerWithCase;
  let stranger: PartnerWithCase;

  beforeAll(async () => {
    [owner, stranger] = await Promise.all([partnerWithCase(), partnerWithCase()]);
  });

  it('when a document is downloaded, then type, length and disposition are set and the bytes are the uploaded ones', async () => {
    const bytes = sampleFile('jpeg', 12_345);
    const uploaded = await upload(owner.api, owner.caseId, { file: { bytes, name: 'Übergabe Protokoll.jpg', type: 'image/jpeg' }, category: 'delivery_proof' });

    const fetched = await download(sharedStack(), owner.partner.key, `/api/documents/${uploaded.json.id}/download`);

    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('image/jpeg');
    expect(fetched.headers.get('content-length')).toBe('12345');
    expect(fetched.headers.get('content-disposition')).toBe('attachment; filename="Ubergabe Protokoll.jpg"; filename*=UTF-8\'\'%C3%9Cbergabe%20Protokoll.jpg');
    expect(fetched.headers.get('x-content-type-options')).toBe('nosniff');
    expect(fetched.bytes.equals(bytes)).toBe(true);
  });

  it('when the uploaded name carries line breaks, quotes and path segments, then the header holds one safe filename', async () => {
    const { body, contentType } = rawMultipart([
      { name: 'category', value: 'other' },
      { name: 'file', file: { bytes: sampleFile('pdf'), disposition: "filename*=UTF-8''..%2F..%2Fetc%2Fevil%22%3B%20x%3D1%0D%0ASet-Cookie%3A%20a%3Db.pdf" } },
    ]);
    const uploaded = await owner.api.request('POST', `/api/financing-cases/${owner.caseId}/documents`, {
      rawBody: body,
      headers: { 'Content-Type': contentType },
    });
    expect(uploaded.status).toBe(201);
    expect(uploaded.json.originalName).toBe('evil"; x=1Set-Cookie: a=b.pdf');

    const fetched = await download(sharedStack(), owner.partner.key, uploaded.json.downloadUrl);

    expect(fetched.headers.get('content-disposition')).toBe(
      'attachment; filename="evil_; x=1Set-Cookie: a=b.pdf"; filename*=UTF-8\'\'evil%22%3B%20x%3D1Set-Cookie%3A%20a%3Db.pdf',
    );
    expect(fetched.headers.get('set-cookie')).toBeNull();
  });

  it('when the metadata is read, then it matches the upload answer', async () => {
    const uploaded = await upload(owner.api, owner.caseId, { file: { bytes: sampleFile('pdf'), name: 'a.pdf' }, category: 'other' });

    const read = await owner.api.get(`/api/documents/${uploaded.json.id}`);

    expect(read.status).toBe(200);
    expect(read.json).toEqual(uploaded.json);
  });

  it('when another partner reads or downloads the document, then 403; an unknown or malformed id is 404', async () => {
    const uploaded = await upload(owner.api, owner.caseId, { file: { bytes: sampleFile('pdf'), name: 'a.pdf' }, category: 'other' });

    const metadata = await stranger.api.get(`/api/documents/${uploaded.json.id}`);
    const content = await download(sharedStack(), stranger.partner.key, `/api/documents/${uploaded.json.id}/download`);
    const unknown = await owner.api.get('/api/documents/2000000000');
    const malformed = await owner.api.get('/api/documents/abc/download');

    expect([metadata.status, metadata.json.type]).toEqual([403, problemTypeOf('document.forbidden')]);
    expect(content.status).toBe(403);
    expect([unknown.status, malformed.status]).toEqual([404, 404]);
  });

  it('when a document is deleted through the API, then 405 problem+json with Allow, and it stays', async () => {
    const uploaded = await upload(owner.api, owner.caseId, { file: { bytes: sampleFile('pdf'), name: 'a.pdf' }, category: 'other' });

    const response = await owner.api.delete(`/api/documents/${uploaded.json.id}`);

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(response.contentType).toMatch(/^application\/problem\+json/);
    expect(response.json).toMatchObject({ status: 405, title: 'Method not allowed here' });
    expect((await owner.api.get(`/api/documents/${uploaded.json.id}`)).status).toBe(200);
  });
});
