import type { ProblemCatalogue, ProblemDescription } from '@rental/problem';

/**
 * Every problem code a process of the platform answers with, in its own words: `title` is the
 * problem document's title, `meaning` and `fix` fill the page its `type` URL opens
 * (`/problems/{code}` on the gateway). A code thrown anywhere in the source must have an entry
 * here: the catalogue registers its codes with @rental/problem (below), so tsc rejects any other.
 */
const notFound = (thing: string, where: string): ProblemDescription => ({
  title: `${thing[0]!.toUpperCase()}${thing.slice(1)} not found`,
  meaning: `No ${thing} with this id exists for your partner account${where}.`,
  fix: `Check the id in the path: use the id the API returned when the ${thing} was created or listed, with a key of the same environment (sandbox or production).`,
});

const otherPartners = (thing: string): ProblemDescription => ({
  title: `${thing[0]!.toUpperCase()}${thing.slice(1)} of another partner`,
  meaning: `The ${thing} exists, but it belongs to another partner account; your API key gives no access to it.`,
  fix: `Use the API key of the partner account the ${thing} belongs to, or an id of one of your own.`,
});

export const PROBLEM_CATALOGUE = {
  // Requests as a whole
  validation_failed: {
    title: 'Request validation failed',
    meaning:
      "The body was read, but one or more fields break the operation's rules. Each entry of `violations` names a field (`propertyPath`), a stable `code` and a message.",
    fix: "Correct every field listed in `violations` and send the request again; the API description (/api/docs) shows each field's rules.",
  },
  'request.malformed_json': {
    title: 'Body is not valid JSON',
    meaning: 'The request body could not be parsed as JSON.',
    fix: 'Send a valid JSON document with Content-Type: application/json.',
  },
  'request.invalid_body': {
    title: 'Body has invalid fields',
    meaning: 'Fields of the request body are missing or have the wrong type; `violations` names each of them.',
    fix: 'Correct the fields listed in `violations` and send the request again.',
  },
  'request.invalid_query': {
    title: 'Invalid query parameter',
    meaning: 'A query parameter has a value the operation does not accept (for example `page` below 1); `violations` names it.',
    fix: 'Correct the query parameter named in `violations`.',
  },
  'request.invalid_text': {
    title: 'Text cannot be stored',
    meaning: 'A text field contains characters that cannot be stored (a NUL character or an unpaired surrogate).',
    fix: 'Remove the control characters from the field named in `violations`, or send the text as proper UTF-8.',
  },
  'request.nesting_too_deep': {
    title: 'JSON nested too deeply',
    meaning: 'The JSON body nests arrays and objects more than 64 levels deep; no operation of the API takes anything near that.',
    fix: 'Send the body in the shape the operation describes (a few levels deep).',
  },
  'request.malformed_encoding': {
    title: 'Body does not match its encoding',
    meaning: 'The body is not valid data of the Content-Encoding (or charset) its headers declare.',
    fix: 'Send the body encoded as declared, or drop the Content-Encoding header and send it plain.',
  },
  'request.unsupported_encoding': {
    title: 'Body encoding not supported',
    meaning: "The body's Content-Encoding or charset is not one the API reads.",
    fix: 'Send UTF-8 JSON, without Content-Encoding or with gzip, deflate or br.',
  },
  'request.too_large': {
    title: 'Request body too large',
    meaning: 'The request body is larger than the endpoint accepts (documents: 10 MB per file; JSON bodies: 1 MB).',
    fix: 'Send a smaller body: split the data, or shrink the file before uploading it.',
  },
  'request.aborted': {
    title: 'Request body incomplete',
    meaning: 'The connection ended before the whole request body arrived.',
    fix: 'Send the request again; check timeouts and proxies between your system and the API.',
  },
  'request.method_not_allowed': {
    title: 'Method not allowed here',
    meaning: 'The path exists, but not with this HTTP method; the Allow header lists the methods it has.',
    fix: 'Use one of the methods in the Allow header.',
  },
  'request.rate_limited': {
    title: 'Too many requests',
    meaning: 'The API key (or, without a valid key, the client address) has used up its request budget for the moment.',
    fix: 'Wait the number of seconds in the Retry-After header before the next request, and spread requests more evenly.',
  },
  'route.not_found': {
    title: 'No endpoint at this path',
    meaning: 'No operation exists at this method and path (in this environment: lender and signing callbacks exist only in production).',
    fix: 'Check the path against the API description (/api/docs), including the /api prefix.',
  },
  'resource.not_found': {
    title: 'Resource not found',
    meaning: 'An id in the path has a form that no resource can have, so nothing exists there.',
    fix: 'Use the id exactly as the API returned it.',
  },
  internal_error: {
    title: 'Unexpected error',
    meaning: 'Something failed on our side that should not have.',
    fix: 'Retry later; if it persists, contact support and quote the request id (X-Request-Id header, or `instance`).',
  },

  // Authentication and access
  'auth.invalid_api_key': {
    title: 'API key missing or invalid',
    meaning: 'The request has no X-Api-Key header, or the key is unknown, revoked or of the other environment.',
    fix: 'Send a valid key of this environment in the X-Api-Key header (sandbox keys start with sbx_).',
  },
  'api_key.revoked': {
    title: 'API key revoked',
    meaning: 'The X-Api-Key header names a key that was revoked (in the partner portal or by the approval team); it never works again.',
    fix: 'Use another active key of this environment, or create one in the partner portal.',
  },
  'api_key.expired': {
    title: 'API key expired',
    meaning: 'The X-Api-Key header names a key past its expiresAt (after a roll, the old key expires when its overlap ends).',
    fix: 'Use the key that replaced it, or create a new key in the partner portal.',
  },
  'partner.suspended': {
    title: 'Partner suspended',
    meaning:
      'The partner of this key is suspended by the approval team; none of its keys work until it is reactivated. Its portal users can still sign in and read.',
    fix: 'Contact the approval team.',
  },
  'api_key.not_found': {
    title: 'API key not found',
    meaning: 'No key with this id belongs to the partner.',
    fix: "Use the id of one of the partner's keys as the key list shows it.",
  },
  'api_key.limit_reached': {
    title: 'Too many live API keys',
    meaning: 'The partner has 10 keys of this environment that are neither expired nor revoked.',
    fix: 'Revoke a key you no longer use, then create the new one.',
  },
  'api_key.not_live': {
    title: 'API key not live',
    meaning: 'Only a key that is neither expired nor revoked can be rolled.',
    fix: 'Create a new key instead.',
  },
  'partner.exists': {
    title: 'Partner exists',
    meaning: 'A partner with this id exists already.',
    fix: "Choose another id, or change the existing partner's conditions.",
  },
  'partner.already_suspended': {
    title: 'Partner already suspended',
    meaning: 'The partner is suspended already.',
    fix: 'Reactivate it first if a new suspension is meant.',
  },
  'partner.not_suspended': {
    title: 'Partner not suspended',
    meaning: 'Only a suspended partner can be reactivated.',
    fix: 'Nothing to do: its keys work.',
  },
  'partner_access.actor_required': {
    title: 'Actor required',
    meaning: 'An internal call changing a partner named no actor.',
    fix: 'Contact support with the request id.',
  },
  'partner_access.caller_refused': {
    title: 'Caller refused',
    meaning: 'An internal service that does not manage partners called the partner access service.',
    fix: 'Contact support with the request id.',
  },
  'partner_access.invalid_json': {
    title: 'Invalid conditions document',
    meaning: 'An internal call carried partner conditions that are not a JSON object.',
    fix: 'Contact support with the request id.',
  },
  'partner_access.invalid_status': {
    title: 'Unknown key status',
    meaning: 'A key list was asked for with a status other than active, expiring, expired or revoked.',
    fix: 'Use those statuses, comma-separated.',
  },
  'partner_access.invalid_audit': {
    title: 'Invalid audit entry',
    meaning: 'An internal call recorded an audit entry without an action or with an unknown target type.',
    fix: 'Contact support with the request id.',
  },
  'auth.role_required': {
    title: 'API key lacks a role',
    meaning: 'The API key is valid but does not have the role this operation needs (for example a read-only key on a change).',
    fix: 'Use a key with the api_user role for operations that change data.',
  },
  'auth.missing_partner': {
    title: 'No partner in the request',
    meaning: 'A service was called without the partner the gateway asserts; this happens only when a service is called around the gateway.',
    fix: 'Call the API through its public address with an X-Api-Key.',
  },
  'auth.identity_refused': {
    title: 'Signed identity refused',
    meaning: 'A service was called without a valid signed internal identity; services are reached only through the gateway.',
    fix: 'Call the API through its public address.',
  },
  'auth.missing_token': {
    title: 'Operator token missing',
    meaning: "A back-office operation was called without an operator's bearer token.",
    fix: 'Sign in to the console and send its token as Authorization: Bearer <JWT>.',
  },
  'auth.invalid_token': {
    title: 'Operator token invalid',
    meaning: "The operator's bearer token is malformed, expired, or not issued for the back office.",
    fix: 'Sign in again to get a fresh token.',
  },
  'auth.issuer_unavailable': {
    title: "Operators' identity provider unavailable",
    meaning: 'The identity provider that issues operator tokens cannot be reached, so the token cannot be checked.',
    fix: 'Retry later.',
  },
  'ops.role_required': {
    title: 'Operator lacks a role',
    meaning: "The operator's token does not carry the role this back-office operation needs (reviewer or approver).",
    fix: 'Ask an administrator for the role, or let an operator who has it do the change.',
  },
  'portal.role_required': {
    title: 'Partner user lacks a role',
    meaning:
      "The partner user's token does not carry the role this portal operation needs: developer for webhooks and a sandbox's keys, admin for a production deployment's keys.",
    fix: 'Ask an admin of your company to give you the role at your identity provider, or let a user who has it do the change.',
  },

  // Dependencies
  'dependency.service_unavailable': {
    title: 'Service unavailable',
    meaning: 'The service behind this endpoint did not answer the gateway.',
    fix: 'Retry after the seconds in Retry-After; nothing was changed.',
  },
  'dependency.unavailable': {
    title: 'Dependency unavailable',
    meaning: 'A service this request depends on did not answer in time.',
    fix: 'Retry later; nothing was changed.',
  },
  'dependency.failed': {
    title: 'Dependency failed',
    meaning: 'A service this request depends on failed to answer.',
    fix: 'Retry later; if it persists, contact support with the request id.',
  },
  'dependency.invalid_answer': {
    title: 'Dependency answered unreadably',
    meaning: 'A service this request depends on gave an answer that cannot be read.',
    fix: 'Retry later; if it persists, contact support with the request id.',
  },
  'dependency.database_unavailable': {
    title: 'Database unavailable',
    meaning: 'The service cannot reach its database right now.',
    fix: 'Retry later; nothing was changed.',
  },
  'dependency.object_storage_unavailable': {
    title: 'Document storage unavailable',
    meaning: 'The storage that keeps document files cannot be reached; nothing was stored.',
    fix: 'Retry the upload or download later.',
  },
  'distribution_hub.unavailable': {
    title: 'Distribution hub unavailable',
    meaning: 'The distribution hub does not answer, so the custom SLA file cannot be checked.',
    fix: 'Retry later; the cart stays as it is.',
  },

  // Pricing and carts
  'calculation.not_found': notFound('calculation', ''),
  'calculation.not_possible': {
    title: 'No offer can be calculated',
    meaning:
      'The sandbox scenario calculation_not_possible forces this failure; the answer carries the same empty calculation a real result without offers would.',
    fix: 'Use another sandbox scenario (or none) to get offers.',
  },
  partner_financing_not_ready: {
    title: 'Partner financing not ready',
    meaning: 'Your partner account has no financing partner or no conditions maintained yet, so nothing can be priced or checked out.',
    fix: "Ask your account manager to complete the account's financing setup; the cart stays active and the same request can be retried later.",
  },
  'pricing.invalid_amount': {
    title: 'Invalid amount',
    meaning: 'An internal call carried an amount that is not a decimal number.',
    fix: 'Contact support with the request id.',
  },
  'partner.not_found': {
    title: 'Partner not found',
    meaning: 'An internal call named a partner that does not exist.',
    fix: 'Contact support with the request id.',
  },
  'cart.not_found': notFound('cart', ''),
  'cart.forbidden': otherPartners('cart'),
  'cart.not_active': {
    title: 'Cart no longer changeable',
    meaning: 'The cart is checked out, or being checked out, and can no longer be changed.',
    fix: 'Create a new cart for another offer.',
  },
  'cart.already_checked_out': {
    title: 'Cart already checked out',
    meaning: 'This cart was checked out before; a cart becomes one financing case only.',
    fix: 'Find the financing case it became (GET /api/financing_cases), or create a new cart.',
  },
  'checkout.running': {
    title: 'Checkout still running',
    meaning: 'A checkout of this cart, or with this Idempotency-Key, has started and not finished yet.',
    fix: 'Retry shortly with the same Idempotency-Key and body: you get the result of the first checkout.',
  },
  'checkout.invalid_submit_financing': {
    title: 'Invalid submitFinancing',
    meaning: 'submitFinancing must be a boolean.',
    fix: 'Send true or false, or leave the field out.',
  },
  'checkout.custom_sla_required': {
    title: 'Custom SLA file required',
    meaning: 'A rent quote needs customSlaFileName naming one of your custom SLA files.',
    fix: "List your files with GET /api/sla-files and send one's name as customSlaFileName.",
  },
  'checkout.custom_sla_invalid': {
    title: 'Unknown custom SLA file',
    meaning: 'customSlaFileName does not name a custom SLA file of your partner account.',
    fix: 'Use a name from GET /api/sla-files.',
  },
  'checkout.unknown_category': {
    title: 'Unknown product category',
    meaning: 'An item names a category that does not exist, or none.',
    fix: 'Use a category slug from GET /api/product-sectors for every item.',
  },
  'checkout.sector_not_enabled': {
    title: 'Product sector not enabled',
    meaning: "An item's product sector is not enabled for your partner account.",
    fix: 'Remove the item, or ask your account manager to enable the sector.',
  },
  'checkout.duration_not_allowed': {
    title: "Duration outside the products' range",
    meaning: "The duration is outside the depreciation range of the cart's products.",
    fix: 'Choose a duration in the range the violation names.',
  },
  'checkout.financing_type_not_offered': {
    title: 'Financing type not offered',
    meaning: 'The financing type is not offered for this duration.',
    fix: 'Choose another financing type or duration; a calculation (POST /api/calculations) shows what is offered.',
  },
  'idempotency.key_invalid': {
    title: 'Invalid Idempotency-Key',
    meaning: 'The Idempotency-Key header is empty or longer than allowed.',
    fix: 'Send a key of 1 to 255 characters, for example a UUID, unique per checkout.',
  },
  'idempotency.key_reused': {
    title: 'Idempotency-Key used with another body',
    meaning: 'This Idempotency-Key was used before with a different request body.',
    fix: 'Use a new key for a different request; repeat a request only with its own key and the same body.',
  },
  'quote_request.not_found': notFound('quote request', ''),

  // Financing cases, quotes and contracts
  'financing_case.not_found': notFound('financing case', ''),
  'financing_case.forbidden': otherPartners('financing case'),
  'financing_case.not_cancelable': {
    title: 'Financing case cannot be canceled',
    meaning: 'The case is canceled already, or its quote or contract has come too far for the partner to cancel it; the detail says which.',
    fix: 'Read the case (GET /api/financing_cases/{id}) to see its status; a case this far along is canceled by the approval team.',
  },
  'quote.not_found': notFound('quote', ''),
  'quote.number_taken': {
    title: 'Quote number already used',
    meaning: 'Another quote of your partner account has this quote number.',
    fix: 'Send a quote number that is unique for your account, or none.',
  },
  'quote.transition_not_allowed': {
    title: 'Quote cannot make this move',
    meaning: "The quote's current status does not allow the requested change.",
    fix: "Read the case to see the quote's status and the moves it allows; the specification's status table lists them.",
  },
  'contract.not_found': notFound('contract', ''),
  'contract.forbidden': otherPartners('contract'),
  'contract.number_taken': {
    title: 'Contract number already used',
    meaning: 'Another contract of your partner account has this contract number.',
    fix: 'Send a contract number that is unique for your account.',
  },
  'contract.number_missing': {
    title: 'Contract number missing',
    meaning: 'A contract can be completed only once it has a contract number.',
    fix: 'Set the number first (PATCH /api/contracts/{id}/edit-contract-number).',
  },
  'contract.transition_not_allowed': {
    title: 'Contract cannot make this move',
    meaning: "The contract's current status does not allow the requested change; contracts move only forward.",
    fix: 'Read the contract to see its status.',
  },
  'esignature.quote_not_accepted': {
    title: 'Quote not accepted for e-signature',
    meaning: 'An e-signature can be started only once the lender has accepted the financing.',
    fix: 'Wait for the finance_accepted status (webhook financing_case.status_changed) and start it then.',
  },
  'esignature.contract_not_waiting': {
    title: 'Contract not waiting for signatures',
    meaning: 'The contract is not in wait_for_signing, so no e-signature can be started for it.',
    fix: "Read the contract's status; an e-signature is started once, while it waits for signing.",
  },
  'esignature.already_signed': {
    title: 'Contract already signed',
    meaning: 'The contract has been signed already.',
    fix: "Nothing to do: download the signed contract from the case's documents.",
  },
  'esignature.envelope_replaced': {
    title: 'Envelope replaced while it was requested',
    meaning:
      "A start-esignature with other persons replaced this envelope while the signing provider was being asked for it; the provider's envelope is voided.",
    fix: 'Start the e-signature again with the persons who are to sign; starts with different persons for one case should not run at the same time.',
  },
  'signing.provider_unavailable': {
    title: 'Signing provider unavailable',
    meaning: 'The signing provider did not take the envelope; nothing was started.',
    fix: 'Retry later.',
  },
  'customer.send_not_allowed': {
    title: 'Offer cannot be sent to the customer',
    meaning: 'The quote is in a status from which it cannot be sent to the customer.',
    fix: "Read the case to see the quote's status; an offer is sent from in_progress, change_requested, review_expired or in_review.",
  },
  'customer.link_not_found': {
    title: 'Customer link unknown',
    meaning: 'No offer exists at this customer link.',
    fix: 'Use the link exactly as mailed, or ask the dealer for a new one.',
  },
  'customer.link_expired': {
    title: 'Customer link no longer works',
    meaning: 'The link expired, a newer link replaced it, or the case was canceled.',
    fix: 'Ask the dealer for a new link.',
  },
  'customer.view_only': {
    title: 'Customer link is view-only',
    meaning: 'This link shows the status of the financing request; it allows no changes.',
    fix: 'Use the link of the offer to accept it or give feedback.',
  },
  'customer.action_not_allowed': {
    title: 'Offer no longer open to this action',
    meaning: 'The offer is in a status in which the customer can no longer accept it or give feedback.',
    fix: "Reload the offer's page to see its status.",
  },
  'case.partner_missing': {
    title: 'Partner missing',
    meaning: 'An internal call to open a case carried no partner.',
    fix: 'Contact support with the request id.',
  },
  'case.cart_missing': {
    title: 'Cart missing',
    meaning: 'An internal call to open a case from a cart carried no cart.',
    fix: 'Contact support with the request id.',
  },
  'case.quote_request_missing': {
    title: 'Quote request missing',
    meaning: 'An internal call to open a case from a quote request carried none.',
    fix: 'Contact support with the request id.',
  },
  'case.invalid_quote_number': {
    title: 'Invalid quote number',
    meaning: 'The quote number must have 1 to 64 letters, digits or . _ / -.',
    fix: 'Send a quote number of that form, or none.',
  },
  'case.invalid_terms': {
    title: 'Invalid financing terms',
    meaning: 'An internal call to open a case carried terms (calculation type, duration, payment interval) that are not valid.',
    fix: 'Contact support with the request id.',
  },
  'case.terms_missing': {
    title: 'Financing terms missing',
    meaning: 'An internal call to open a case carried no terms.',
    fix: 'Contact support with the request id.',
  },
  'case.invalid_amount': {
    title: 'Invalid amount',
    meaning: 'An internal call to open a case carried an amount that is not a decimal number.',
    fix: 'Contact support with the request id.',
  },

  // Lenders and the signing provider (their callbacks) and the approval team
  'webhook.invalid_signature': {
    title: 'Callback signature invalid',
    meaning: "A callback's webhook-signature is missing or wrong, or its webhook-timestamp is more than 5 minutes away.",
    fix: 'Sign the exact body with the shared secret (Standard Webhooks) and send it at once.',
  },
  'lender.not_found': {
    title: 'Lender unknown',
    meaning: 'The callback path names a lender that is not loaded.',
    fix: 'Use the callback URL given with the application.',
  },
  'lender.decision_not_applicable': {
    title: 'Lender decision does not apply',
    meaning: "The case's quote is in a status to which this lender event cannot be applied.",
    fix: 'Nothing to resend; the case has moved on.',
  },
  'lender.no_reference': {
    title: 'No lender reference yet',
    meaning: 'The case has no lender reference yet; attachments can be sent once the lender accepted the application.',
    fix: "Wait for the lender's answer, then send the attachments.",
  },
  'lender.failed': {
    title: 'Lender failed',
    meaning: 'The lender did not take what was sent; nothing was changed.',
    fix: 'Retry later.',
  },
  'lender.not_failed': {
    title: 'Lender submission has not failed',
    meaning: 'Only a failed lender submission can be submitted again.',
    fix: "Read the case's lender submissions; a pending or submitted one needs nothing.",
  },
  'signature_envelope.not_found': notFound('signature envelope', ''),
  'signature_envelope.transition_not_allowed': {
    title: 'Envelope cannot make this move',
    meaning: "The signature envelope's status does not allow the requested change.",
    fix: "Read the contract's envelope status.",
  },
  'signature_envelope.contract_not_waiting': {
    title: 'Contract not waiting for signatures',
    meaning: 'A signature envelope needs its contract in wait_for_signing.',
    fix: 'Move the contract to wait_for_signing first.',
  },
  'signing.envelope_replaced': {
    title: 'Envelope replaced',
    meaning: 'A newer signature envelope replaced this one; its events no longer apply.',
    fix: 'Nothing to resend.',
  },
  'signing.envelope_closed': {
    title: 'Envelope closed',
    meaning: 'The signature envelope is completed or declined already; the event cannot be applied to it.',
    fix: 'Nothing to resend.',
  },
  'signing.contract_not_waiting': {
    title: 'Contract not waiting for signatures',
    meaning: 'A signature applies only while the contract waits for signing.',
    fix: 'Nothing to resend; the contract has moved on.',
  },
  'ops.unknown_status': {
    title: 'Unknown status',
    meaning: 'The status filter names a status the quote table does not have.',
    fix: 'Filter by one of the quote statuses.',
  },
  'ops.unknown_transition': {
    title: 'Unknown move',
    meaning: 'The transition is not a move of the quote table.',
    fix: "Send one of the moves the case's status allows.",
  },
  'ops.unknown_move_kind': {
    title: 'Unknown kind of move',
    meaning: 'A move must be a transition, an override or a cancel.',
    fix: 'Contact support with the request id.',
  },
  'ops.cancel_route_required': {
    title: 'Cancel has its own route',
    meaning: 'A case is canceled with POST /ops/v1/cases/{id}/cancel, which asks for a reason.',
    fix: 'Use the cancel route.',
  },
  'ops.override_required': {
    title: 'Override required',
    meaning: 'The case is finance_rejected; accepting it is an override with a reason.',
    fix: 'Use POST /ops/v1/cases/{id}/override.',
  },
  'ops.override_not_applicable': {
    title: 'Override does not apply',
    meaning: 'Only a finance_rejected case can be overridden.',
    fix: "Read the case's status.",
  },
  'ops.no_lender_reference': {
    title: 'No lender reference yet',
    meaning: 'The case has no lender reference (financingNumber) yet; nothing can be transmitted to the lender.',
    fix: 'Wait for the lender to take the application.',
  },
  'ops.resubmit_not_applicable': {
    title: 'Resubmission does not apply',
    meaning: 'Only a failed lender submission can be resubmitted.',
    fix: "Read the case's lender submissions.",
  },
  'history.actor_required': {
    title: 'Actor required',
    meaning: 'An internal call to record history carried no actor of a known type.',
    fix: 'Contact support with the request id.',
  },
  'history.invalid_action': {
    title: 'Invalid history action',
    meaning: 'A history action must be a lower-case name of at most 64 characters.',
    fix: 'Contact support with the request id.',
  },
  'history.invalid_details': {
    title: 'Invalid history details',
    meaning: 'An internal call to record history carried details that are not JSON.',
    fix: 'Contact support with the request id.',
  },
  'validation.choice': {
    title: 'Not a valid choice',
    meaning: 'The value is not one of the allowed values, which the detail lists.',
    fix: 'Send one of the allowed values.',
  },
  'validation.format': {
    title: 'Value has the wrong format',
    meaning: 'The value does not have the required format (for a webhook URL: a plain http(s) URL without credentials or control characters).',
    fix: 'Correct the value as the violation says.',
  },
  'validation.too_big': {
    title: 'Value too long',
    meaning: 'The value is longer than allowed.',
    fix: 'Send a shorter value.',
  },

  // Sandbox
  'sandbox.not_available': {
    title: 'Sandbox only',
    meaning: 'The sandbox endpoints exist only in the sandbox environment.',
    fix: 'Use a sandbox key against the sandbox, or drive the case with real events in production.',
  },
  'sandbox.transition_unreachable': {
    title: 'Scenario cannot be reached',
    meaning: "The resource is in a status from which the scenario's target cannot be reached.",
    fix: "Read the resource's status and choose a scenario that fits it.",
  },
  'sandbox.not_decidable': {
    title: 'Quote not ready for a decision',
    meaning: 'A finance decision needs the quote in one of the statuses the detail lists.',
    fix: 'Move the quote to review first.',
  },
  'sandbox.quote_not_accepted': {
    title: 'Quote not accepted',
    meaning: 'A contract exists only once the quote is finance_accepted.',
    fix: 'Accept the financing first (sandbox finance decision).',
  },
  'sandbox.clock_advancing': {
    title: 'Case clock moving',
    meaning: "Another advance of this case's clock was applied while this one was being prepared; nothing of this one was applied.",
    fix: 'Read the case and send the advance again if the case still needs it.',
  },

  // Documents and requested items
  'document.not_found': notFound('document', ''),
  'document.forbidden': otherPartners('document'),
  'document.not_multipart': {
    title: 'Upload is not multipart',
    meaning: 'A document is uploaded as multipart/form-data with the parts file, category and, optionally, description and requestedDocumentId.',
    fix: 'Send the upload as multipart/form-data.',
  },
  'document.malformed_multipart': {
    title: 'Multipart body malformed',
    meaning: 'The multipart body has no boundary or cannot be parsed.',
    fix: 'Let your HTTP library build the multipart body and its Content-Type boundary.',
  },
  'document.file_type_not_allowed': {
    title: 'File type not allowed',
    meaning: "The file's content is not a PDF, PNG or JPEG (the content decides, not the name).",
    fix: 'Upload the document as PDF, PNG or JPEG.',
  },
  'document.file_too_large': {
    title: 'File too large',
    meaning: 'The file is larger than 10 MB.',
    fix: 'Upload a smaller file (compress or split it).',
  },
  'document.file_empty': {
    title: 'File empty',
    meaning: 'The uploaded file has no content.',
    fix: 'Upload the file with its content.',
  },
  'document.spool_unavailable': {
    title: 'Upload cannot be received now',
    meaning: 'The service cannot hold the upload right now; nothing was stored.',
    fix: 'Retry the upload later.',
  },
  'document.content_missing': {
    title: 'File content unreadable',
    meaning: 'The content of this file cannot be read right now.',
    fix: 'Retry the download later.',
  },
  'document.not_rejectable': {
    title: 'Document cannot be rejected',
    meaning: 'The sandbox scenario can reject only a document that waits for review.',
    fix: 'Choose a document in review.',
  },
  'document.not_reviewable': {
    title: 'Document cannot be reviewed',
    meaning: 'Only a document pending review can be reviewed.',
    fix: "Read the document's review status.",
  },
  'document.unknown_rejection': {
    title: 'Unknown rejection reason',
    meaning: 'The rejection reason must be type or size.',
    fix: 'Send type or size.',
  },
  'document.not_pdf': {
    title: 'Signed contract is not a PDF',
    meaning: 'The signed contract must be a PDF document.',
    fix: 'Send the signed contract as PDF.',
  },
  'document_request.not_found': notFound('requested item', ' on this financing case'),
  'document_request.not_pending': {
    title: 'Requested item not pending',
    meaning: 'The requested item was answered or closed already.',
    fix: "List the case's requests to see their status.",
  },
  'document_request.not_optional': {
    title: 'Requested item is required',
    meaning: 'Only an optional request can be declared not available.',
    fix: 'Provide the item.',
  },
  'document_request.not_open': {
    title: 'Requested item not open',
    meaning: 'The requested item is closed, so the scenario cannot apply to it.',
    fix: 'Choose an open request.',
  },
  'document_request.template_not_found': {
    title: 'Template not found',
    meaning: 'The fill-and-return request has no template.',
    fix: "List the case's requests; only fill-and-return requests with a template have one to download.",
  },
  'document_request.unknown_type': {
    title: 'Unknown request type',
    meaning: 'The type of a requested item is not one of the known types.',
    fix: 'Use one of the types the detail lists.',
  },
  'document_request.partner_required': {
    title: 'Partner required',
    meaning: 'An internal call listing requests carried no partner.',
    fix: 'Contact support with the request id.',
  },
  'document_request.too_many_cases': {
    title: 'Too many cases at once',
    meaning: 'An internal call listing requests named more cases than allowed at once.',
    fix: 'Contact support with the request id.',
  },
  'document_request.not_transmittable': {
    title: 'Nothing to send to the lender',
    meaning: 'Some of the items have nothing to send to the lender.',
    fix: 'Choose items that were answered.',
  },
  'document_request.sent_already': {
    title: 'Sent to the lender already',
    meaning: 'Some of the items were sent to the lender already.',
    fix: 'Choose items not sent yet.',
  },
  'callback_request.not_found': notFound('callback request', ''),
  'callback_request.closed': {
    title: 'Callback request closed',
    meaning: 'The callback request is closed already.',
    fix: 'Nothing to do.',
  },
  'overdue.invalid_stage': {
    title: 'Unknown overdue stage',
    meaning: 'An internal call named an overdue stage other than notice or cancel.',
    fix: 'Contact support with the request id.',
  },

  // Webhook endpoints and deliveries
  'webhook_endpoint.not_found': notFound('webhook endpoint', ''),
  'webhook_endpoint.forbidden': otherPartners('webhook endpoint'),
  'webhook_endpoint.tool_rate_limited': {
    title: 'Too many test events or redeliveries',
    meaning: 'The partner has sent as many test events (or redelivery requests) as it may in the current minute; deliveries already queued go on.',
    fix: 'Wait the number of seconds in the Retry-After header; to replay many dropped deliveries use one request with `since` instead of one per event.',
  },
  'webhook_endpoint.paused': {
    title: 'Webhook endpoint paused',
    meaning: 'The endpoint is paused, so a delivery to it would be dropped at once.',
    fix: 'Resume it (PATCH with active true) first.',
  },
  'webhook.url_already_registered': {
    title: 'Webhook URL already registered',
    meaning: 'This URL is registered as one of your webhook endpoints already.',
    fix: 'Use the existing endpoint, or register another URL.',
  },
  'webhook.endpoint_limit_reached': {
    title: 'Webhook endpoint limit reached',
    meaning: 'Your partner account has the most webhook endpoints it may have.',
    fix: 'Delete an endpoint you no longer use.',
  },
  'webhook.url_not_https': {
    title: 'Webhook URL not https',
    meaning: 'Webhook URLs must use https.',
    fix: 'Register an https URL.',
  },
  'webhook_delivery.not_found': {
    title: 'Webhook delivery not found',
    meaning: 'No delivery of this event to this endpoint exists.',
    fix: "Take the event id from the endpoint's delivery history.",
  },
  'webhook_delivery.pending': {
    title: 'Webhook delivery still pending',
    meaning: 'The delivery is still being attempted; it can be redelivered once it succeeded or was dropped.',
    fix: 'Wait for its outcome in the delivery history.',
  },
} as const satisfies ProblemCatalogue;

export type ProblemCode = keyof typeof PROBLEM_CATALOGUE;

declare module '@rental/problem' {
  interface ProblemCodeRegister {
    codes: ProblemCode;
  }
}
