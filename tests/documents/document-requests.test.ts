import { PartnerWithCase, createItems, documentsRpc, download, partnerWithCase, query, sharedStack, uploadAnswer } from './support/kit';
import { problemTypeOf } from '../support/problems';

const requestsPath = (owner: PartnerWithCase) => `/api/financing-cases/${owner.caseId}/document-requests`;

describe('document requests', () => {
  const rpc = documentsRpc();
  afterAll(() => rpc.close());

  it("when items of every type and audience exist, then the list shows the partner's ones in list-item shape and omits customer and operator-internal ones", async () => {
    const owner = await partnerWithCase();
    const [info] = await createItems(rpc, owner, 'information', [{ question: 'How many employees does the company have?' }]);
    const [document] = await createItems(rpc, owner, 'document', [{ label: 'Annual statement 2024', category: 'annual_financial_statement', optional: true }]);
    const [form] = await createItems(rpc, owner, 'fill_and_return', [{ label: 'Selbstauskunft', category: 'self_disclosure_template' }]);
    await createItems(rpc, owner, 'fill_and_return', [{ label: 'Default guarantee', category: 'default_guarantee', targetAudience: 'customer' }]);
    await createItems(rpc, owner, 'document', [{ label: 'Internal credit memo', category: 'business_assessment', targetAudience: 'operator' }]);

    const response = await owner.api.get(requestsPath(owner));

    expect(response.status).toBe(200);
    expect(response.json).toHaveLength(3);
    const [infoItem, documentItem, formItem] = response.json;
    expect(infoItem).toEqual(
      expect.objectContaining({
        id: info?.id,
        type: 'information',
        label: 'How many employees does the company have?',
        status: 'pending',
        category: 'other',
        templateDownloadUrl: null,
        callbackStatus: 'none',
        requestedAt: expect.stringMatching(/^\d{4}-/),
        question: 'How many employees does the company have?',
        response: null,
        optional: false,
        editable: true,
        fulfilled: false,
      }),
    );
    expect(infoItem).not.toHaveProperty('callbackRequestId');
    expect(documentItem).toEqual(
      expect.objectContaining({
        id: document?.id,
        type: 'document',
        label: 'Annual statement 2024',
        status: 'pending',
        category: 'annual_financial_statement',
        templateDownloadUrl: null,
        optional: true,
        targetAudience: 'partner',
        internalOnly: false,
        responseDocuments: [],
        activeResponseDocuments: [],
        transmittableResponseDocuments: [],
        latestPendingResponseDocument: null,
        editable: true,
      }),
    );
    expect(formItem).toEqual(
      expect.objectContaining({
        id: form?.id,
        type: 'fill_and_return',
        category: 'self_disclosure_template',
        targetAudience: 'partner',
        templateDownloadUrl: `/api/financing-cases/${owner.caseId}/document-requests/fill-and-return-templates/${form?.id}/download`,
        templateFileName: 'selbstauskunft.pdf',
        templateFileMimeType: 'application/pdf',
      }),
    );
  });

  it('when an item is linked to a callback request, then its id and status are listed', async () => {
    const owner = await partnerWithCase();
    const [item] = await createItems(rpc, owner, 'information', [{ question: 'When can we call you?' }]);
    const [callback] = await query<{ id: number }>(
      sharedStack(),
      'INSERT INTO callback_requests (financing_case_id, partner_id) VALUES ($1, $2) RETURNING id',
      [owner.caseId, owner.partner.id],
    );
    await query(sharedStack(), 'UPDATE requested_items SET callback_request_id = $1 WHERE id = $2', [callback?.id, item?.id]);

    const response = await owner.api.get(requestsPath(owner));

    expect(response.json[0]).toMatchObject({ callbackRequestId: callback?.id, callbackStatus: 'open' });
  });

  it('when the template of a fill-and-return request is downloaded, then it is its PDF; other cases and partners cannot', async () => {
    const owner = await partnerWithCase();
    const stranger = await partnerWithCase();
    const [form] = await createItems(rpc, owner, 'fill_and_return', [{ label: 'Default guarantee', category: 'default_guarantee' }]);
    const [information] = await createItems(rpc, owner, 'information', [{ question: 'Founding date?' }]);
    const path = `${requestsPath(owner)}/fill-and-return-templates/${form?.id}/download`;

    const fetched = await download(sharedStack(), owner.partner.key, path);
    const foreign = await download(sharedStack(), stranger.partner.key, path);
    const notATemplate = await download(sharedStack(), owner.partner.key, `${requestsPath(owner)}/fill-and-return-templates/${information?.id}/download`);

    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-type')).toBe('application/pdf');
    expect(fetched.headers.get('content-disposition')).toBe('attachment; filename="default-guarantee.pdf"; filename*=UTF-8\'\'default-guarantee.pdf');
    expect(fetched.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(fetched.bytes.toString('latin1')).toContain(owner.caseId);
    expect(foreign.status).toBe(403);
    expect(notATemplate.status).toBe(404);
  });

  it('when an information request is answered, then it is provided with the answer; a second answer is 422', async () => {
    const owner = await partnerWithCase();
    const [item] = await createItems(rpc, owner, 'information', [{ question: 'Employee count?' }]);
    const path = `${requestsPath(owner)}/information/${item?.id}/respond`;

    const answered = await owner.api.post(path, { response: '42 employees' });
    const again = await owner.api.post(path, { response: '43' });

    expect(answered.status).toBe(200);
    expect(answered.json).toMatchObject({
      id: item?.id,
      type: 'information',
      status: 'provided',
      response: '42 employees',
      providedAt: expect.any(String),
      fulfilled: true,
      editable: false,
    });
    expect(again.status).toBe(422);
    expect(again.json).toMatchObject({
      type: problemTypeOf('document_request.not_pending'),
      violations: [expect.objectContaining({ code: 'document_request.not_pending' })],
    });
  });

  it('when the respond body is malformed, then 400; null is an answer without text', async () => {
    const owner = await partnerWithCase();
    const [item] = await createItems(rpc, owner, 'information', [{ question: 'Anything else?' }]);
    const path = `${requestsPath(owner)}/information/${item?.id}/respond`;

    const missing = await owner.api.post(path, {});
    const wrongType = await owner.api.post(path, { response: 42 });
    const extra = await owner.api.post(path, { response: 'x', note: 'y' });
    const broken = await owner.api.request('POST', path, { rawBody: '{"response": ', headers: { 'Content-Type': 'application/json' } });
    const nullAnswer = await owner.api.post(path, { response: null });

    expect([missing.status, wrongType.status, extra.status, broken.status]).toEqual([400, 400, 400, 400]);
    expect(wrongType.json.violations).toEqual([{ propertyPath: 'response', code: 'validation.type', message: 'This value should be of type string.' }]);
    expect([nullAnswer.status, nullAnswer.json.status, nullAnswer.json.response]).toEqual([200, 'provided', null]);
  });

  it('when an unknown, internal or non-information item is answered, then 404; another partner gets 403', async () => {
    const owner = await partnerWithCase();
    const stranger = await partnerWithCase();
    const [internal] = await createItems(rpc, owner, 'information', [{ question: 'Operator note', targetAudience: 'operator' }]);
    const [document] = await createItems(rpc, owner, 'document', [{ label: 'Register', category: 'business_registration' }]);
    const [visible] = await createItems(rpc, owner, 'information', [{ question: 'Visible?' }]);

    const statuses = await Promise.all([
      owner.api.post(`${requestsPath(owner)}/information/999999999/respond`, { response: 'x' }),
      owner.api.post(`${requestsPath(owner)}/information/${internal?.id}/respond`, { response: 'x' }),
      owner.api.post(`${requestsPath(owner)}/information/${document?.id}/respond`, { response: 'x' }),
      stranger.api.post(`${requestsPath(owner)}/information/${visible?.id}/respond`, { response: 'x' }),
    ]);

    expect(statuses.map((response) => response.status)).toEqual([404, 404, 404, 403]);
  });

  it('when an optional pending item is declared not available, then it is not_available; the rules give 422, 404 and 403', async () => {
    const owner = await partnerWithCase();
    const stranger = await partnerWithCase();
    const [optional, required] = await createItems(rpc, owner, 'document', [
      { label: 'Optional statement', category: 'annual_financial_statement', optional: true },
      { label: 'Required register', category: 'business_registration' },
    ]);
    const [internal] = await createItems(rpc, owner, 'document', [
      { label: 'Internal', category: 'business_assessment', optional: true, targetAudience: 'operator' },
    ]);
    const [question] = await createItems(rpc, owner, 'information', [{ question: 'Optional question', optional: true }]);
    const notAvailable = (type: string, id: number | undefined, api = owner.api) => api.post(`${requestsPath(owner)}/${type}/${id}/not-available`);

    const foreign = await notAvailable('document', optional?.id, stranger.api);
    const declared = await notAvailable('document', optional?.id);
    const twice = await notAvailable('document', optional?.id);
    const notOptional = await notAvailable('document', required?.id);
    const hidden = await notAvailable('document', internal?.id);
    const unknown = await notAvailable('document', 999999999);
    const wrongType = await notAvailable('fill_and_return', optional?.id);
    const badType = await notAvailable('photos', optional?.id);
    const information = await notAvailable('information', question?.id);

    expect(foreign.status).toBe(403);
    expect(declared.status).toBe(200);
    expect(declared.json).toMatchObject({ id: optional?.id, status: 'not_available', notAvailable: true, editable: false });
    expect([twice.status, twice.json.type]).toEqual([422, problemTypeOf('document_request.not_pending')]);
    expect([notOptional.status, notOptional.json.type]).toEqual([422, problemTypeOf('document_request.not_optional')]);
    expect([hidden.status, unknown.status, wrongType.status, badType.status]).toEqual([404, 404, 404, 404]);
    expect([information.status, information.json.status]).toEqual([200, 'not_available']);
  });

  it('when a requested document is answered by an upload, then the item is provided with the file as its active answer', async () => {
    const owner = await partnerWithCase();
    const [item] = await createItems(rpc, owner, 'document', [{ label: 'Purchase offer', category: 'purchase_offer' }]);

    const uploaded = await uploadAnswer(owner, item?.id, 'purchase_offer', 'offer.pdf');
    const listed = await owner.api.get(requestsPath(owner));

    expect(uploaded.status).toBe(201);
    const path = `/api/documents/${uploaded.json.id}`;
    expect(listed.json[0]).toMatchObject({
      id: item?.id,
      status: 'provided',
      providedAt: expect.any(String),
      fulfilled: true,
      editable: false,
      reviewable: true,
      responseDocuments: [path],
      activeResponseDocuments: [path],
      transmittableResponseDocuments: [path],
      verifiedResponseDocuments: [],
      latestPendingResponseDocument: path,
    });
  });

  it('when another partner lists the requests of a case, then 403; an unknown case is 404', async () => {
    const owner = await partnerWithCase();
    const stranger = await partnerWithCase();

    const foreign = await stranger.api.get(requestsPath(owner));
    const unknown = await owner.api.get('/api/financing-cases/01ARZ3NDEKTSV4RRFFQ69G5FAV/document-requests');

    expect([foreign.status, unknown.status]).toEqual([403, 404]);
  });
});
