import { waitFor } from '@rental/testkit';
import { PartnerWithCase, download, partnerWithCase, query, sampleFile, sharedStack, upload, uploadAnswer } from './support/kit';
import { problemInstanceOf } from '../support/problems';

/** The document scenarios of POST /api/sandbox/financing_cases/{id}/simulate, end to end through case-workflow. */
const simulate = (owner: PartnerWithCase, scenario: string, data?: Record<string, unknown>) =>
  owner.api.post(`/api/sandbox/financing_cases/${owner.caseId}/simulate`, { scenario, ...(data ? { data } : {}) });
const requests = async (owner: PartnerWithCase) =>
  (await owner.api.get(`/api/financing-cases/${owner.caseId}/document-requests`)).json as {
    id: number;
    type: string;
    status: string;
    label: string;
    category: string;
    templateDownloadUrl: string | null;
  }[];
const documents = async (owner: PartnerWithCase) =>
  (await owner.api.get(`/api/financing-cases/${owner.caseId}/documents`)).json as { id: number; category: string; mimeType: string; downloadUrl: string }[];

describe('sandbox document scenarios', () => {
  it('when information_requested runs, then the partner sees the questions and can answer them', async () => {
    const owner = await partnerWithCase();

    const single = await simulate(owner, 'information_requested', { question: 'How many employees?' });
    const several = await simulate(owner, 'information_requested', { items: [{ question: 'Founding date?' }, { question: 'Tax number?' }] });
    const listed = await requests(owner);
    const answered = await owner.api.post(`/api/financing-cases/${owner.caseId}/document-requests/information/${listed[0]?.id}/respond`, { response: '12' });

    expect([single.status, several.status]).toEqual([204, 204]);
    expect(listed.map(({ type, label, status }) => [type, label, status])).toEqual([
      ['information', 'How many employees?', 'pending'],
      ['information', 'Founding date?', 'pending'],
      ['information', 'Tax number?', 'pending'],
    ]);
    expect([answered.status, answered.json.status, answered.json.response]).toEqual([200, 'provided', '12']);
  });

  it('when requested_document runs, then an open request appears that an upload fulfils; another category is 422 listing the allowed ones', async () => {
    const owner = await partnerWithCase();

    const created = await simulate(owner, 'requested_document', { label: 'Commercial register extract', category: 'business_registration' });
    const refused = await simulate(owner, 'requested_document', { label: 'Invoice', category: 'partner_invoice' });
    const [item] = await requests(owner);
    const uploaded = await uploadAnswer(owner, item?.id, 'business_registration', 'register.pdf');

    expect(created.status).toBe(204);
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.json.violations)).toContain('business_registration, annual_financial_statement');
    expect(item).toMatchObject({ type: 'document', label: 'Commercial register extract', category: 'business_registration', status: 'pending' });
    expect(uploaded.status).toBe(201);
    expect((await requests(owner))[0]).toMatchObject({ id: item?.id, status: 'provided' });
  });

  it('when requested_fill_and_return runs, then the request carries a downloadable PDF template', async () => {
    const owner = await partnerWithCase();

    const created = await simulate(owner, 'requested_fill_and_return', { items: [{ label: 'Self disclosure', category: 'self_disclosure_template' }] });
    const [item] = await requests(owner);
    const template = await download(sharedStack(), owner.partner.key, item?.templateDownloadUrl ?? '');

    expect(created.status).toBe(204);
    expect(item).toMatchObject({ type: 'fill_and_return', category: 'self_disclosure_template', status: 'pending' });
    expect([template.status, template.headers.get('content-type'), template.bytes.subarray(0, 5).toString('latin1')]).toEqual([
      200,
      'application/pdf',
      '%PDF-',
    ]);
  });

  it('when document_rejected runs on a pending upload, then it is REJECTED and its request open again; twice is 422, a foreign id 404', async () => {
    const owner = await partnerWithCase();
    const stranger = await partnerWithCase();
    await simulate(owner, 'requested_document', { label: 'Annual statement', category: 'annual_financial_statement' });
    const [item] = await requests(owner);
    const uploaded = await uploadAnswer(owner, item?.id, 'annual_financial_statement', 'statement.pdf');
    const foreignUpload = await upload(stranger.api, stranger.caseId, { file: { bytes: sampleFile('pdf'), name: 'theirs.pdf' }, category: 'other' });

    const rejected = await simulate(owner, 'document_rejected', { documentId: uploaded.json.id, reason: 'Unreadable scan' });
    const again = await simulate(owner, 'document_rejected', { documentId: uploaded.json.id });
    const foreign = await simulate(owner, 'document_rejected', { documentId: foreignUpload.json.id });

    expect(rejected.status).toBe(204);
    expect((await owner.api.get(`/api/documents/${uploaded.json.id}`)).json).toMatchObject({ reviewStatus: 'REJECTED', rejectionReason: 'Unreadable scan' });
    expect((await requests(owner))[0]).toMatchObject({ id: item?.id, status: 'pending' });
    expect([again.status, foreign.status]).toEqual([422, 404]);
  });

  it('when upload_rejected_type or _size runs, then the answer is 400 with the payload a real refused upload gets; a closed request is 422', async () => {
    const owner = await partnerWithCase();
    await simulate(owner, 'requested_document', {
      items: [
        { label: 'Offer', category: 'purchase_offer' },
        { label: 'Optional', category: 'self_disclosure', optional: true },
      ],
    });
    const [open, closed] = await requests(owner);
    await owner.api.post(`/api/financing-cases/${owner.caseId}/document-requests/document/${closed?.id}/not-available`);
    const realType = await uploadAnswer(owner, open?.id, 'purchase_offer', 'offer.pdf', sampleFile('text'));
    const realSize = await uploadAnswer(owner, open?.id, 'purchase_offer', 'offer.pdf', sampleFile('pdf', 10_000_001));

    const type = await simulate(owner, 'upload_rejected_type', { documentId: open?.id });
    const size = await simulate(owner, 'upload_rejected_size', { documentId: open?.id });
    const onClosed = await simulate(owner, 'upload_rejected_type', { documentId: closed?.id });

    expect([type.status, type.contentType]).toEqual([400, 'application/problem+json; charset=utf-8']);
    expect(type.json).toEqual({ ...realType.json, status: 400, title: 'File type not allowed', instance: problemInstanceOf(type) });
    expect(size.json).toEqual({ ...realSize.json, status: 400, title: 'File too large', instance: problemInstanceOf(size) });
    expect(onClosed.status).toBe(422);
  });

  it('when signed runs, then one signed-contract PDF is listed and downloadable, however often it runs', async () => {
    const owner = await partnerWithCase();
    expect((await simulate(owner, 'finance_accepted')).status).toBe(204);

    const first = await simulate(owner, 'signed');
    const second = await simulate(owner, 'signed');
    const listed = await documents(owner);
    const pdf = await download(sharedStack(), owner.partner.key, listed[0]?.downloadUrl ?? '');

    expect([first.status, second.status]).toEqual([204, 204]);
    expect(listed.map(({ category, mimeType }) => [category, mimeType])).toEqual([['signed_contract', 'application/pdf']]);
    expect([pdf.status, pdf.headers.get('content-type'), pdf.bytes.subarray(0, 5).toString('latin1')]).toEqual([200, 'application/pdf', '%PDF-']);
  });

  it("when reset runs, then open requests and the simulated contract are gone and the partner's uploads stay", async () => {
    const owner = await partnerWithCase();
    await simulate(owner, 'finance_accepted');
    await simulate(owner, 'signed');
    await simulate(owner, 'information_requested', { question: 'Still there?' });
    const own = await upload(owner.api, owner.caseId, { file: { bytes: sampleFile('png'), name: 'photo.png' }, category: 'delivery_proof' });

    const reset = await simulate(owner, 'reset', { targetStatus: 'finance_accepted' });

    expect(reset.status).toBe(204);
    expect(await requests(owner)).toEqual([]);
    expect((await documents(owner)).map(({ id }) => id)).toEqual([own.json.id]);
  });

  it('when the case is canceled, then its document tokens are invalidated and its open callback requests closed', async () => {
    const owner = await partnerWithCase();
    await query(sharedStack(), 'INSERT INTO callback_requests (financing_case_id, partner_id) VALUES ($1, $2)', [owner.caseId, owner.partner.id]);
    await query(
      sharedStack(),
      "INSERT INTO document_tokens (token_hash, financing_case_id, partner_id, purpose) VALUES (md5(random()::text), $1, $2, 'customer_upload')",
      [owner.caseId, owner.partner.id],
    );

    const canceled = await simulate(owner, 'canceled');

    expect(canceled.status).toBe(204);
    await waitFor(
      async () =>
        (await query(sharedStack(), "SELECT 1 FROM callback_requests WHERE financing_case_id = $1 AND status = 'open'", [owner.caseId])).length === 0
          ? true
          : undefined,
      { what: 'callback requests closed', timeoutMs: 15_000 },
    );
    expect(await query(sharedStack(), 'SELECT 1 FROM document_tokens WHERE financing_case_id = $1 AND invalidated_at IS NULL', [owner.caseId])).toEqual([]);
  });
});
