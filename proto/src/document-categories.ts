/** The specification lists the financing-review categories first (FINANCING_STAGE_CATEGORIES). */
const FINANCING_STAGE = [
  'business_registration',
  'annual_financial_statement',
  'business_assessment',
  'self_disclosure',
  'medical_license',
  'purchase_offer',
  'notarized_transfer_contract',
  'land_register_extract',
  'property_owner_consent',
  'partnership_agreement',
] as const;

/** Every document category of the specification; an upload or a requested document names one of them. */
export const DOCUMENT_CATEGORIES = [
  ...FINANCING_STAGE,
  'birth_date',
  'private_address',
  'founding_date',
  'employee_count',
  'self_disclosure_template',
  'default_guarantee',
  'articles_of_association',
  'sale_leaseback_invoice',
  'power_of_attorney',
  'representative_id_cards',
  'organization_chart',
  'shareholder_list',
  'vehicle_title',
  'rate_adjustment_letter',
  'partner_invoice',
  'lender_invoice',
  'delivery_proof',
  'delivery_note',
  'handover_confirmation',
  'signed_contract',
  'private_guarantee',
  'corporate_guarantee',
  'supplementary_prepayment',
  'supplementary_free_start',
  'supplementary_vending',
  'revocation_notice',
  'voucher',
  'supplementary_third_party',
  'gwg_form_correction',
  'schufa_guarantee_notice',
  'print_plan_contract_draft',
  'other',
] as const;

export type DocumentCategory = (typeof DOCUMENT_CATEGORIES)[number];

/** Categories a requested document may have while the case is in financing review (also what a lender may ask for). */
export const FINANCING_STAGE_CATEGORIES: readonly DocumentCategory[] = FINANCING_STAGE;

/** Categories of the forms a customer fills in and returns. */
export const FILL_AND_RETURN_CATEGORIES: readonly DocumentCategory[] = ['self_disclosure_template', 'default_guarantee'];

export function isDocumentCategory(value: unknown): value is DocumentCategory {
  return typeof value === 'string' && (DOCUMENT_CATEGORIES as readonly string[]).includes(value);
}

/**
 * The only file types the platform stores (documents and templates, decided by their first
 * bytes): what every download answers with, and what an operator's template may be.
 */
export const STORED_FILE_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;

export type StoredFileType = (typeof STORED_FILE_TYPES)[number];
