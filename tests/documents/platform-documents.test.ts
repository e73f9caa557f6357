/**
 * Documents of the platform (signed contract, signed handover confirmation): superseded ones are
 * hidden, and partners cannot upload in their categories.
 */
import { download, insertDocument, partnerWithCase, sampleFile, upload } from './support/kit';
import { expectViolationAt } from '../support/partner-requests';
import { problemTypeOf } from '../support/problems';
import { sharedStack } from '../support/shared-stack';

describe('platform documents', () => {
  it('when a signed contract or signed handover confirmation is superseded, then it is left out of the list and answers 404', async () => {
    const withCase = await partnerWithCase();
    const superseded = await insertDocument(sharedStack(), withCase, { category: 'signed_contract', uploadedBy: 'system', reviewStatus: 'SUPERSEDED' });
    const supersededHandover = await insertDocument(sharedStack(), withCase, {
      category: 'handover_confirmation',
      uploadedBy: 'customer',
      signed: true,
      reviewStatus: 'SUPERSEDED',
    });
    const current = await insertDocument(sharedStack(), withCase, { category: 'signed_contract', uploadedBy: 'system' });
    const listed = await withCase.api.get(`/api/financing-cases/${withCase.caseId}/documents`);
    expect(listed.json.map((document: { id: number }) => document.id)).toEqual([current]);
    for (const hidden of [superseded, supersededHandover]) {
      const metadata = await withCase.api.get(`/api/documents/${hidden}`);
      const content = await download(sharedStack(), withCase.partner.key, `/api/documents/${hidden}/download`);
      expect([metadata.status, metadata.json.type, content.status]).toEqual([404, problemTypeOf('document.not_found'), 404]);
    }
  });

  it.each(['signed_contract', 'handover_confirmation'])(
    'when a partner uploads in the platform category %s, then 422 at category and nothing is stored',
    async (category) => {
      const withCase = await partnerWithCase();
      const response = await upload(withCase.api, withCase.caseId, { file: { bytes: sampleFile('pdf'), name: 'mine.pdf' }, category });
      expectViolationAt(response, 422, 'category', 'document.category_reserved');
      expect((await withCase.api.get(`/api/financing-cases/${withCase.caseId}/documents`)).json).toEqual([]);
    },
  );
});
