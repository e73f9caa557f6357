import {
  PartnerWithCase,
  anotherCase,
  createItems,
  documentsRpc,
  download,
  partnerWithCase,
  query,
  rawMultipart,
  sampleFile,
  sharedStack,
  storedObjects,
  upload,
  uploadAnswer,
  uploadForm,
} from './support/kit';
import { problemInstanceOf, problemTypeOf } from '../support/problems';

const MAX = 10_000_000;

describe('document upload', () => {
  let owner: PartnerWithCase;
  const rpc = documentsRpc();

  beforeAll(async () => {
    owner = await partnerWithCase();
  });
  afterAll(() => rpc.close());

  it.each([
    ['pdf', 'offer.pdf', 'application/pdf', 'application/pdf'],
    ['png', 'photo.png', 'image/png', 'image/png'],
    ['jpeg', 'scan.jpg', 'image/jpeg', 'image/jpeg'],
  ] as const)('when a partner uploads a %s file, then it is stored with its metadata and the type of its content', async (kind, name, clientType, mimeType) => {
    const bytes = sampleFile(kind, 3000);

    const response = await upload(owner.api, owner.caseId, {
      file: { bytes, name, type: clientType },
      category: 'business_registration',
      description: 'Handelsregisterauszug',
    });

    expect(response.status).toBe(201);
    const id = response.json.id as number;
    expect(response.headers.get('location')).toBe(`/api/documents/${id}`);
    expect(response.json).toEqual({
      '@id': `/api/documents/${id}`,
      '@type': 'FinancingDocument',
      id,
      financingCaseId: owner.caseId,
      originalName: name,
      mimeType,
      fileSize: 3000,
      category: 'business_registration',
      description: 'Handelsregisterauszug',
      uploadedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      downloadUrl: `/api/documents/${id}/download`,
      reviewStatus: 'PENDING_REVIEW',
      rejectionReason: null,
    });
    const fetched = await download(sharedStack(), owner.partner.key, `/api/documents/${id}/download`);
    expect(fetched.bytes.equals(bytes)).toBe(true);
  });

  it('when a PNG is named .pdf and labelled application/pdf, then the content decides: it is stored as image/png', async () => {
    const response = await upload(owner.api, owner.caseId, {
      file: { bytes: sampleFile('png'), name: 'contract.pdf', type: 'application/pdf' },
      category: 'other',
    });

    expect(response.status).toBe(201);
    expect(response.json).toMatchObject({ originalName: 'contract.pdf', mimeType: 'image/png' });
  });

  it('when a text file is named .pdf, then 422 at file and neither a row nor an object is left', async () => {
    const caseId = await anotherCase(owner);

    const response = await upload(owner.api, caseId, { file: { bytes: sampleFile('text'), name: 'offer.pdf', type: 'application/pdf' }, category: 'other' });

    expect(response.status).toBe(422);
    expect(response.contentType).toMatch(/^application\/problem\+json/);
    expect(response.json).toEqual({
      type: problemTypeOf('document.file_type_not_allowed'),
      title: 'File type not allowed',
      status: 422,
      detail: 'file: The file must be a PDF, PNG or JPEG; its content is none of them.',
      instance: problemInstanceOf(response),
      violations: [
        { propertyPath: 'file', code: 'document.file_type_not_allowed', message: 'The file must be a PDF, PNG or JPEG; its content is none of them.' },
      ],
    });
    expect(await query(sharedStack(), 'SELECT id FROM documents WHERE financing_case_id = $1', [caseId])).toEqual([]);
    expect(await storedObjects(sharedStack(), `documents/${caseId}/`)).toEqual([]);
  });

  it('when the file is 10 MB and one byte, then 422 at file and neither a row nor an object is left', async () => {
    const caseId = await anotherCase(owner);

    const response = await upload(owner.api, caseId, { file: { bytes: sampleFile('pdf', MAX + 1), name: 'big.pdf' }, category: 'other' });

    expect(response.status).toBe(422);
    expect(response.json.violations).toEqual([
      { propertyPath: 'file', code: 'document.file_too_large', message: 'The file is larger than 10 MB (10000000 bytes).' },
    ]);
    expect(await query(sharedStack(), 'SELECT id FROM documents WHERE financing_case_id = $1', [caseId])).toEqual([]);
    expect(await query(sharedStack(), 'SELECT object_key FROM pending_objects WHERE object_key LIKE $1', [`documents/${caseId}/%`])).toEqual([]);
    expect(await storedObjects(sharedStack(), `documents/${caseId}/`)).toEqual([]);
  });

  it('when the whole body is larger than the gateway forwards (11 MiB), then the gateway answers 413 and the service never sees it', async () => {
    const caseId = await anotherCase(owner);

    const response = await upload(owner.api, caseId, { file: { bytes: sampleFile('pdf', 12 * 1024 * 1024), name: 'huge.pdf' }, category: 'other' });

    expect([response.status, response.json.type]).toEqual([413, problemTypeOf('request.too_large')]);
    expect(await query(sharedStack(), 'SELECT object_key FROM pending_objects WHERE object_key LIKE $1', [`documents/${caseId}/%`])).toEqual([]);
  });

  it('when the file is exactly 10,000,000 bytes, then it is accepted and downloads byte for byte', async () => {
    const bytes = sampleFile('pdf', MAX);

    const response = await upload(owner.api, owner.caseId, { file: { bytes, name: 'exactly-10mb.pdf' }, category: 'annual_financial_statement' });

    expect(response.status).toBe(201);
    expect(response.json.fileSize).toBe(MAX);
    const fetched = await download(sharedStack(), owner.partner.key, response.json.downloadUrl);
    expect(fetched.headers.get('content-length')).toBe(String(MAX));
    expect(fetched.bytes.equals(bytes)).toBe(true);
  });

  it('when an empty file is sent, then 422 at file', async () => {
    const response = await upload(owner.api, owner.caseId, { file: { bytes: Buffer.alloc(0), name: 'empty.pdf' }, category: 'other' });

    expect(response.status).toBe(422);
    expect(response.json.violations).toEqual([{ propertyPath: 'file', code: 'document.file_empty', message: 'The file is empty.' }]);
  });

  it('when the file and the category are missing, then 422 names both fields', async () => {
    const response = await upload(owner.api, owner.caseId, { description: 'no file' });

    expect(response.status).toBe(422);
    expect(response.json.violations).toEqual([
      { propertyPath: 'file', code: 'validation.required', message: 'A file (PDF, PNG or JPEG, at most 10 MB) is required.' },
      { propertyPath: 'category', code: 'validation.required', message: 'This value is required.' },
    ]);
  });

  it('when the category is not a document category, then 422 at category lists the allowed values', async () => {
    const response = await upload(owner.api, owner.caseId, { file: { bytes: sampleFile('pdf'), name: 'a.pdf' }, category: 'holiday_photos' });

    expect(response.status).toBe(422);
    expect(response.json.violations).toEqual([
      {
        propertyPath: 'category',
        code: 'validation.choice',
        message: expect.stringContaining('Allowed values: business_registration, annual_financial_statement,'),
      },
    ]);
  });

  it('when the file is sent as a text part, or with unknown parts, then 422 names them', async () => {
    const form = new FormData();
    form.append('file', 'not a file');
    form.append('category', 'other');
    form.append('colour', 'blue');

    const response = await owner.api.request('POST', `/api/financing-cases/${owner.caseId}/documents`, { rawBody: form });

    expect(response.status).toBe(422);
    expect(response.json.violations).toEqual([
      { propertyPath: 'file', code: 'validation.type', message: 'The file must be sent as a file part (with a filename).' },
      { propertyPath: 'colour', code: 'validation.unknown_field', message: 'This field is not allowed.' },
    ]);
  });

  it('when the body is JSON instead of multipart/form-data, then 400', async () => {
    const response = await owner.api.post(`/api/financing-cases/${owner.caseId}/documents`, { category: 'other' });

    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ type: problemTypeOf('document.not_multipart'), status: 400 });
  });

  it('when the multipart body has no boundary, or ends in the middle of a part, then 400 and nothing is stored', async () => {
    const caseId = await anotherCase(owner);
    const path = `/api/financing-cases/${caseId}/documents`;
    const complete = rawMultipart([
      { name: 'category', value: 'other' },
      { name: 'file', file: { bytes: sampleFile('pdf', 50_000), disposition: 'filename="a.pdf"' } },
    ]);

    const noBoundary = await owner.api.request('POST', path, { rawBody: 'whatever', headers: { 'Content-Type': 'multipart/form-data' } });
    const truncated = await owner.api.request('POST', path, { rawBody: complete.body.subarray(0, 20_000), headers: { 'Content-Type': complete.contentType } });

    expect([noBoundary.status, noBoundary.json.type]).toEqual([400, problemTypeOf('document.not_multipart')]);
    expect([truncated.status, truncated.json.type]).toEqual([400, problemTypeOf('document.malformed_multipart')]);
    expect(await query(sharedStack(), 'SELECT id FROM documents WHERE financing_case_id = $1', [caseId])).toEqual([]);
    expect(await storedObjects(sharedStack(), `documents/${caseId}/`)).toEqual([]);
  });

  it('when two files are sent, then 422 and nothing is stored', async () => {
    const caseId = await anotherCase(owner);
    const form = uploadForm({ file: { bytes: sampleFile('pdf'), name: 'a.pdf' }, category: 'other' });
    form.append('file', new Blob([sampleFile('png')]), 'b.png');

    const response = await owner.api.request('POST', `/api/financing-cases/${caseId}/documents`, { rawBody: form });

    expect(response.status).toBe(422);
    expect(response.json.violations).toEqual([
      { propertyPath: '', code: 'document.too_many_parts', message: 'Send one file and at most the parts category, description and requestedDocumentId.' },
    ]);
    expect(await query(sharedStack(), 'SELECT id FROM documents WHERE financing_case_id = $1', [caseId])).toEqual([]);
  });

  it('when requestedDocumentId is unknown, or a request of another case, then 404 and nothing is stored', async () => {
    const otherCase = await anotherCase(owner);
    const [foreignItem] = await createItems(rpc, owner, 'document', [{ label: 'Register extract', category: 'business_registration' }], otherCase);

    const unknown = await uploadAnswer(owner, 999999999, 'other', 'a.pdf');
    const foreign = await uploadAnswer(owner, foreignItem?.id, 'other', 'a.pdf');

    expect([unknown.status, unknown.json.type]).toEqual([404, problemTypeOf('document_request.not_found')]);
    expect([foreign.status, foreign.json.type]).toEqual([404, problemTypeOf('document_request.not_found')]);
    expect(await query(sharedStack(), 'SELECT id FROM documents WHERE financing_case_id = $1', [otherCase])).toEqual([]);
  });

  it('when requestedDocumentId is not an integer, then 422 at requestedDocumentId', async () => {
    const response = await uploadAnswer(owner, '12abc', 'other', 'a.pdf');

    expect(response.status).toBe(422);
    expect(response.json.violations).toEqual([
      { propertyPath: 'requestedDocumentId', code: 'validation.type', message: 'This value should be of type integer.' },
    ]);
  });

  it('when the case belongs to another partner, then 403; when it does not exist, then 404', async () => {
    const stranger = await partnerWithCase();

    const foreign = await upload(stranger.api, owner.caseId, { file: { bytes: sampleFile('pdf'), name: 'a.pdf' }, category: 'other' });
    const unknown = await upload(owner.api, '01ARZ3NDEKTSV4RRFFQ69G5FAV', { file: { bytes: sampleFile('pdf'), name: 'a.pdf' }, category: 'other' });

    expect([foreign.status, foreign.json.type]).toEqual([403, problemTypeOf('financing_case.forbidden')]);
    expect([unknown.status, unknown.json.type]).toEqual([404, problemTypeOf('financing_case.not_found')]);
  });
});
