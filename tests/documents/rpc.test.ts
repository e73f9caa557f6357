import { DomainError } from '@rental/problem';
import {
  PartnerWithCase,
  createItems,
  documentsRpc,
  partnerWithCase,
  query,
  sampleFile,
  sharedStack,
  storedObjects,
  upload,
  uploadAnswer,
} from './support/kit';

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error as DomainError,
  );

describe('documents gRPC for case-workflow', () => {
  const rpc = documentsRpc();
  let owner: PartnerWithCase;

  beforeAll(async () => {
    owner = await partnerWithCase();
  });
  afterAll(() => rpc.close());

  describe('CreateRequestItems and ListRequestItems', () => {
    it('when a requested document has a category outside the financing stage, then 422 lists the allowed ones and nothing is created', async () => {
      const failure = await failureOf(createItems(rpc, owner, 'document', [{ label: 'Invoice', category: 'partner_invoice' }]));

      expect(failure).toBeInstanceOf(DomainError);
      expect(failure).toMatchObject({ kind: 'rule_violation', code: 'validation_failed' });
      expect(failure.violations).toEqual([
        {
          propertyPath: 'items[0].category',
          code: 'validation.choice',
          message:
            'The value you selected is not a valid choice. Allowed values: business_registration, annual_financial_statement, business_assessment, self_disclosure, medical_license, purchase_offer, notarized_transfer_contract, land_register_extract, property_owner_consent, partnership_agreement.',
        },
      ]);
    });

    it('when a fill-and-return has another category, or information no question, then each violation names its item', async () => {
      const form = await failureOf(
        createItems(rpc, owner, 'fill_and_return', [
          { label: 'Form', category: 'default_guarantee' },
          { label: 'Form', category: 'business_registration' },
        ]),
      );
      const info = await failureOf(createItems(rpc, owner, 'information', [{ question: ' ' }]));

      expect(form.violations).toEqual([
        expect.objectContaining({
          propertyPath: 'items[1].category',
          message: expect.stringContaining('Allowed values: self_disclosure_template, default_guarantee.'),
        }),
      ]);
      expect(info.violations).toEqual([{ propertyPath: 'items[0].question', code: 'validation.required', message: 'This value is required.' }]);
    });

    it('when the case does not exist, then NOT_FOUND', async () => {
      const failure = await failureOf(
        rpc.call('CreateRequestItems', { financingCaseId: '01ARZ3NDEKTSV4RRFFQ69G5FAV', itemType: 'information', items: [{ question: 'x' }] }, {}),
      );

      expect(failure).toMatchObject({ kind: 'not_found', code: 'financing_case.not_found' });
    });

    it('when items are listed over gRPC, then the partner-visible ones come in list-item shape', async () => {
      const subject = await partnerWithCase();
      const [form] = await createItems(rpc, subject, 'fill_and_return', [{ label: 'Self disclosure', category: 'self_disclosure_template', optional: true }]);
      await createItems(rpc, subject, 'information', [{ question: 'Internal', targetAudience: 'operator' }]);

      const listed = await rpc.call('ListRequestItems', { financingCaseId: subject.caseId }, { partnerId: subject.partner.id });

      expect(listed.items).toEqual([
        {
          id: form?.id,
          type: 'fill_and_return',
          label: 'Self disclosure',
          status: 'pending',
          category: 'self_disclosure_template',
          templateDownloadUrl: `/api/financing-cases/${subject.caseId}/document-requests/fill-and-return-templates/${form?.id}/download`,
          callbackRequestId: 0,
          callbackStatus: 'none',
          requestedAt: expect.any(String),
          dueAt: '',
          optional: true,
          question: '',
        },
      ]);
    });

    it('when an item is created with a due date, then gRPC and the partner list show it, and a date that is not one names its item', async () => {
      const subject = await partnerWithCase();
      const [item] = await createItems(rpc, subject, 'document', [{ label: 'Register', category: 'business_registration', dueAt: '2030-01-02T03:04:05Z' }]);
      const failure = await failureOf(createItems(rpc, subject, 'document', [{ label: 'Register', category: 'business_registration', dueAt: 'next week' }]));
      const listed = await subject.api.get(`/api/financing-cases/${subject.caseId}/document-requests`);

      expect(item?.dueAt).toBe('2030-01-02T03:04:05.000Z');
      expect(listed.json).toEqual([expect.objectContaining({ id: item?.id, dueAt: '2030-01-02T03:04:05.000Z' })]);
      expect(failure.violations).toEqual([
        { propertyPath: 'items[0].dueAt', code: 'validation.format', message: 'This value is not a valid ISO 8601 date-time.' },
      ]);
    });
  });

  describe('RejectDocument', () => {
    it('when a pending document that answered a request is rejected, then it is REJECTED with the reason and the request reopens', async () => {
      const [item] = await createItems(rpc, owner, 'document', [{ label: 'Register', category: 'business_registration' }]);
      const uploaded = await uploadAnswer(owner, item?.id, 'business_registration', 'register.pdf');

      const rejected = await rpc.call(
        'RejectDocument',
        { financingCaseId: owner.caseId, documentId: uploaded.json.id, reason: 'Older than three months' },
        { partnerId: owner.partner.id },
      );
      const metadata = await owner.api.get(`/api/documents/${uploaded.json.id}`);
      const requests = await owner.api.get(`/api/financing-cases/${owner.caseId}/document-requests`);

      expect(rejected).toEqual({ documentId: uploaded.json.id, reopenedItemId: item?.id });
      expect(metadata.json).toMatchObject({ reviewStatus: 'REJECTED', rejectionReason: 'Older than three months' });
      expect(requests.json.find((entry: { id: number }) => entry.id === item?.id)).toMatchObject({
        status: 'pending',
        providedAt: null,
        editable: true,
        activeResponseDocuments: [],
        responseDocuments: [`/api/documents/${uploaded.json.id}`],
      });
    });

    it('when the document is already rejected, then FAILED_PRECONDITION (422); a foreign or missing id is NOT_FOUND (404)', async () => {
      const uploaded = await upload(owner.api, owner.caseId, { file: { bytes: sampleFile('png'), name: 'a.png' }, category: 'other' });
      await rpc.call('RejectDocument', { financingCaseId: owner.caseId, documentId: uploaded.json.id, reason: '' }, {});
      const stranger = await partnerWithCase();

      const again = await failureOf(rpc.call('RejectDocument', { financingCaseId: owner.caseId, documentId: uploaded.json.id, reason: '' }, {}));
      const foreign = await failureOf(rpc.call('RejectDocument', { financingCaseId: stranger.caseId, documentId: uploaded.json.id, reason: '' }, {}));
      const missing = await failureOf(rpc.call('RejectDocument', { financingCaseId: owner.caseId, documentId: 999999999, reason: '' }, {}));

      expect(again).toMatchObject({
        kind: 'rule_violation',
        code: 'document.not_rejectable',
        message: `Document ${uploaded.json.id} is REJECTED; only a PENDING_REVIEW document can be rejected.`,
      });
      expect(foreign).toMatchObject({ kind: 'not_found', code: 'document.not_found' });
      expect(missing).toMatchObject({ kind: 'not_found', code: 'document.not_found' });
    });
  });

  describe('DescribeUploadRejection', () => {
    it('when the scenario asks for a real rejection payload, then it is what a real upload gets, with status 400', async () => {
      const [item] = await createItems(rpc, owner, 'fill_and_return', [{ label: 'Guarantee', category: 'default_guarantee' }]);
      const realType = await uploadAnswer(owner, item?.id, 'other', 'x.pdf', sampleFile('text'));
      const realSize = await uploadAnswer(owner, item?.id, 'other', 'x.pdf', sampleFile('pdf', 10_000_001));

      const type = await rpc.call(
        'DescribeUploadRejection',
        { financingCaseId: owner.caseId, itemId: item?.id, reason: 'type' },
        { partnerId: owner.partner.id },
      );
      const size = await rpc.call(
        'DescribeUploadRejection',
        { financingCaseId: owner.caseId, itemId: item?.id, reason: 'size' },
        { partnerId: owner.partner.id },
      );

      // The payload names no request: the answer that sends it adds its own instance.
      const { instance: _typeInstance, ...realTypeProblem } = realType.json;
      const { instance: _sizeInstance, ...realSizeProblem } = realSize.json;
      expect(JSON.parse(type.problemJson)).toEqual({ ...realTypeProblem, status: 400, title: 'File type not allowed' });
      expect(JSON.parse(size.problemJson)).toEqual({ ...realSizeProblem, status: 400, title: 'File too large' });
    });

    it('when the item is missing, foreign or closed, then FAILED_PRECONDITION (422)', async () => {
      const stranger = await partnerWithCase();
      const [closed] = await createItems(rpc, owner, 'document', [{ label: 'Optional', category: 'self_disclosure', optional: true }]);
      await owner.api.post(`/api/financing-cases/${owner.caseId}/document-requests/document/${closed?.id}/not-available`);
      const [foreign] = await createItems(rpc, stranger, 'document', [{ label: 'Theirs', category: 'self_disclosure' }]);
      const [information] = await createItems(rpc, owner, 'information', [{ question: 'Not an upload' }]);

      for (const itemId of [999999999, foreign?.id, closed?.id, information?.id]) {
        const failure = await failureOf(rpc.call('DescribeUploadRejection', { financingCaseId: owner.caseId, itemId, reason: 'type' }, {}));
        expect(failure).toMatchObject({ kind: 'rule_violation', code: 'document_request.not_open' });
      }
    });
  });

  describe('AttachSignedContract and ResetCase', () => {
    it('when the signed contract is attached twice, then one document exists and the second call returns it', async () => {
      const subject = await partnerWithCase();

      const first = await rpc.call('AttachSignedContract', { financingCaseId: subject.caseId, contractId: 'C-1' }, {});
      const second = await rpc.call('AttachSignedContract', { financingCaseId: subject.caseId, contractId: 'C-1' }, {});
      const listed = await subject.api.get(`/api/financing-cases/${subject.caseId}/documents`);

      expect(first).toEqual({ documentId: expect.any(Number), created: true });
      expect(second).toEqual({ documentId: first.documentId, created: false });
      expect(listed.json.map((document: { id: number }) => document.id)).toEqual([first.documentId]);
      expect(await storedObjects(sharedStack(), `signed-contracts/${subject.caseId}/`)).toHaveLength(1);
    });

    it('when the signed contract is attached concurrently, then still one document and one object', async () => {
      const subject = await partnerWithCase();

      const results = await Promise.all([1, 2, 3].map(() => rpc.call('AttachSignedContract', { financingCaseId: subject.caseId, contractId: '' }, {})));

      expect(new Set(results.map((result) => result.documentId)).size).toBe(1);
      expect(results.filter((result) => result.created)).toHaveLength(1);
      expect(await storedObjects(sharedStack(), `signed-contracts/${subject.caseId}/`)).toHaveLength(1);
    });

    it("when a case is reset, then open requests, their templates and the simulated contract go; the partner's uploads and closed requests stay", async () => {
      const subject = await partnerWithCase();
      const [, answered] = await createItems(rpc, subject, 'document', [
        { label: 'Open', category: 'business_registration' },
        { label: 'Answered', category: 'purchase_offer' },
      ]);
      const [closed] = await createItems(rpc, subject, 'information', [{ question: 'Optional', optional: true }]);
      await createItems(rpc, subject, 'fill_and_return', [{ label: 'Form', category: 'default_guarantee' }]);
      await subject.api.post(`/api/financing-cases/${subject.caseId}/document-requests/information/${closed?.id}/not-available`);
      const uploaded = await uploadAnswer(subject, answered?.id, 'purchase_offer', 'offer.pdf');
      await rpc.call('AttachSignedContract', { financingCaseId: subject.caseId, contractId: 'C-2' }, {});

      const reset = await rpc.call('ResetCase', { financingCaseId: subject.caseId }, {});
      const requests = await subject.api.get(`/api/financing-cases/${subject.caseId}/document-requests`);
      const documents = await subject.api.get(`/api/financing-cases/${subject.caseId}/documents`);

      expect(reset).toEqual({ removedItems: 3, removedDocuments: 1 });
      expect(requests.json.map((item: { id: number }) => item.id)).toEqual([closed?.id]);
      expect(documents.json.map((document: { id: number }) => document.id)).toEqual([uploaded.json.id]);
      expect(await storedObjects(sharedStack(), `signed-contracts/${subject.caseId}/`)).toEqual([]);
      expect(await storedObjects(sharedStack(), `templates/${subject.caseId}/`)).toEqual([]);
      expect(await query(sharedStack(), 'SELECT object_key FROM pending_objects WHERE object_key LIKE $1', [`%/${subject.caseId}/%`])).toEqual([]);
    });
  });
});
