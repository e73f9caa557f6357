/** Categories a sandbox request may ask for, as the specification lists them per item type. */
export const FINANCING_STAGE_CATEGORIES = [
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

export const FILL_AND_RETURN_CATEGORIES = ['self_disclosure_template', 'default_guarantee'] as const;
