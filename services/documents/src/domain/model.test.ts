import { sampleDocument as document, sampleRequestItem as item } from '../../test/samples';
import { acceptsUpload, isVisibleItem, isVisibleToPartner, itemState } from './model';

describe('the visibility rule', () => {
  it.each([
    ["the partner's own upload", {}, true],
    ["the partner's own rejected upload", { reviewStatus: 'REJECTED' as const }, true],
    ['a legacy upload without review status', { reviewStatus: null }, true],
    ['a superseded version of its upload', { reviewStatus: 'SUPERSEDED' as const }, false],
    ['a superseded signed contract', { category: 'signed_contract', uploadedBy: 'system' as const, reviewStatus: 'SUPERSEDED' as const }, false],
    ['a customer-provided document', { uploadedBy: 'customer' as const }, false],
    ['an operator document', { uploadedBy: 'operator' as const }, false],
    ['an operator-internal copy of a partner upload', { internalOnly: true }, false],
    ['the signed contract', { category: 'signed_contract', uploadedBy: 'system' as const }, true],
    ['the signed handover confirmation', { category: 'handover_confirmation', uploadedBy: 'customer' as const, signed: true }, true],
    ['an unsigned handover confirmation', { category: 'handover_confirmation', uploadedBy: 'customer' as const }, false],
    ["another partner's upload", { partnerId: 'globex' }, false],
  ])('when the document is %s, then visible is %s', (_name, overrides, visible) => {
    expect(isVisibleToPartner(document(overrides), 'acme')).toBe(visible);
  });

  it('when an item is for the customer, the operator or internal, then the partner does not see it', () => {
    expect([
      isVisibleItem(item()),
      isVisibleItem(item({ targetAudience: 'customer' })),
      isVisibleItem(item({ targetAudience: 'operator' })),
      isVisibleItem(item({ internalOnly: true })),
    ]).toEqual([true, false, false, false]);
  });
});

describe('requested items', () => {
  it.each([
    ['pending', {}, true],
    ['provided (replacing before review)', { status: 'provided' as const }, true],
    ['rejected', { status: 'rejected' as const }, true],
    ['not available', { status: 'not_available' as const }, false],
    ['sent', { status: 'sent' as const }, false],
    ['accepted', { status: 'accepted' as const }, false],
    ['transmitted to the lender', { status: 'provided' as const, transmittedToLenderAt: '2026-01-02T00:00:00.000Z' }, false],
    ['an information request', { itemType: 'information' as const }, false],
  ])('when the item is %s, then an upload can answer it: %s', (_name, overrides, accepted) => {
    expect(acceptsUpload(item(overrides))).toBe(accepted);
  });

  it('when nothing answered a requested document, then it is editable and not fulfilled', () => {
    expect(itemState(item(), [])).toEqual({ fulfilled: false, editable: true, reviewable: false, notAvailable: false, transmittableToLender: false });
  });

  it('when a file awaits review, then the item is fulfilled, reviewable and transmittable, no longer editable', () => {
    expect(itemState(item({ status: 'provided' }), [document()])).toEqual({
      fulfilled: true,
      editable: false,
      reviewable: true,
      notAvailable: false,
      transmittableToLender: true,
    });
  });

  it('when the reviewer rejected the only file, then the item is editable again and nothing is transmittable', () => {
    expect(itemState(item(), [document({ reviewStatus: 'REJECTED' })])).toEqual({
      fulfilled: false,
      editable: true,
      reviewable: false,
      notAvailable: false,
      transmittableToLender: false,
    });
  });

  it('when an information request is answered or declared not available, then its flags follow the status', () => {
    expect(itemState(item({ itemType: 'information', status: 'provided' }), [])).toMatchObject({
      fulfilled: true,
      editable: false,
      transmittableToLender: true,
    });
    expect(itemState(item({ itemType: 'information', status: 'not_available' }), [])).toMatchObject({ fulfilled: false, editable: false, notAvailable: true });
  });
});
