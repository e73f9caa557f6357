import {
  PartnerWithCase,
  createItems,
  documentsRpc,
  download,
  insertDocument,
  partnerWithCase,
  sampleFile,
  sharedStack,
  upload,
  uploadAnswer,
} from './support/kit';
import { problemTypeOf } from '../support/problems';

const listIds = async (owner: PartnerWithCase, page?: number) => {
  const response = await owner.api.get(`/api/financing-cases/${owner.caseId}/documents${page ? `?page=${page}` : ''}`);
  expect(response.status).toBe(200);
  return (response.json as { id: number }[]).map((document) => document.id);
};

describe('visibility of documents', () => {
  const rpc = documentsRpc();
  afterAll(() => rpc.close());

  it('when the partner lists a case, then its own uploads, the signed contract and the signed handover confirmation are shown, and nothing else', async () => {
    const owner = await partnerWithCase();
    const own = await upload(owner.api, owner.caseId, { file: { bytes: sampleFile('pdf'), name: 'own.pdf' }, category: 'purchase_offer' });
    const customer = await insertDocument(sharedStack(), owner, { category: 'self_disclosure', uploadedBy: 'customer' });
    const operator = await insertDocument(sharedStack(), owner, { category: 'lender_invoice', uploadedBy: 'operator', internalOnly: true });
    const unsignedHandover = await insertDocument(sharedStack(), owner, { category: 'handover_confirmation', uploadedBy: 'customer', signed: false });
    const signedHandover = await insertDocument(sharedStack(), owner, { category: 'handover_confirmation', uploadedBy: 'customer', signed: true });
    const contract = await rpc.call('AttachSignedContract', { financingCaseId: owner.caseId, contractId: 'CONTRACT-1' }, { partnerId: owner.partner.id });

    const ids = await listIds(owner);

    expect(ids).toEqual([own.json.id, signedHandover, contract.documentId]);
    for (const hidden of [customer, operator, unsignedHandover]) {
      const metadata = await owner.api.get(`/api/documents/${hidden}`);
      const content = await download(sharedStack(), owner.partner.key, `/api/documents/${hidden}/download`);
      expect([metadata.status, metadata.json.type, content.status]).toEqual([404, problemTypeOf('document.not_found'), 404]);
    }
  });

  it('when a request is answered twice, then the first file is superseded: left out of the list and 404', async () => {
    const owner = await partnerWithCase();
    const [item] = await createItems(rpc, owner, 'document', [{ label: 'Business assessment', category: 'business_assessment' }]);
    const first = await uploadAnswer(owner, item?.id, 'business_assessment', 'v1.pdf');
    const second = await uploadAnswer(owner, item?.id, 'business_assessment', 'v2.pdf');

    const ids = await listIds(owner);
    const superseded = await owner.api.get(`/api/documents/${first.json.id}`);
    const superseding = await owner.api.get(`/api/documents/${second.json.id}`);

    expect(ids).toEqual([second.json.id]);
    expect(superseded.status).toBe(404);
    expect(superseding.json.reviewStatus).toBe('PENDING_REVIEW');
  });

  it('when the signed contract is downloaded, then it is a PDF', async () => {
    const owner = await partnerWithCase();
    const contract = await rpc.call('AttachSignedContract', { financingCaseId: owner.caseId, contractId: 'CONTRACT-9' }, { partnerId: owner.partner.id });

    const metadata = await owner.api.get(`/api/documents/${contract.documentId}`);
    const fetched = await download(sharedStack(), owner.partner.key, metadata.json.downloadUrl);

    expect(metadata.json).toMatchObject({
      category: 'signed_contract',
      mimeType: 'application/pdf',
      originalName: 'signed-contract-CONTRACT-9.pdf',
      reviewStatus: 'VERIFIED',
    });
    expect(fetched.headers.get('content-type')).toBe('application/pdf');
    expect(fetched.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(fetched.bytes.length).toBe(metadata.json.fileSize);
  });

  it('when another partner lists the case, then 403; an unknown case is 404', async () => {
    const owner = await partnerWithCase();
    const stranger = await partnerWithCase();

    const foreign = await stranger.api.get(`/api/financing-cases/${owner.caseId}/documents`);
    const unknown = await owner.api.get('/api/financing-cases/01ARZ3NDEKTSV4RRFFQ69G5FAV/documents');

    expect([foreign.status, foreign.json.type]).toEqual([403, problemTypeOf('financing_case.forbidden')]);
    expect([unknown.status, unknown.json.type]).toEqual([404, problemTypeOf('financing_case.not_found')]);
  });

  it('when a case has 31 visible documents, then page 1 holds 30, page 2 the last one; page 0 is 400', async () => {
    const owner = await partnerWithCase();
    const created: number[] = [];
    for (let index = 0; index < 31; index += 1)
      created.push(await insertDocument(sharedStack(), owner, { category: 'other', uploadedBy: 'partner', reviewStatus: 'PENDING_REVIEW' }));

    const first = await listIds(owner);
    const second = await listIds(owner, 2);
    const invalid = await owner.api.get(`/api/financing-cases/${owner.caseId}/documents?page=0`);

    expect(first).toEqual(created.slice(0, 30));
    expect(second).toEqual(created.slice(30));
    expect(invalid.status).toBe(400);
  });
});
