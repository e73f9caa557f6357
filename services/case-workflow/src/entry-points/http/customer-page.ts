import { createHash } from 'node:crypto';
import { escapeHtml as escape } from '@rental/html';
import type { PresentedCustomerView } from './customer-presenters';

// The customer's page at /c/{token}: plain HTML forms (accept, feedback, uploads and answers work
// without JavaScript), one column that fits a phone, visible focus, AA contrast, labels on every
// field, and errors summarised at the top.

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:1.0625rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#fff}
main{max-width:40rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;line-height:1.25;margin:.5rem 0 1rem}
h2{font-size:1.2rem;margin:1.75rem 0 .5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dt{font-weight:600}
dd{margin:0}
.status{display:inline-block;padding:.15rem .5rem;border:2px solid #1d4ed8;border-radius:.25rem;color:#1d4ed8;font-weight:600}
.notice{padding:.75rem 1rem;border-left:.3rem solid #166534;background:#f0fdf4;color:#14532d;margin:1rem 0}
.errors{padding:.75rem 1rem;border:3px solid #b91c1c;background:#fef2f2;color:#7f1d1d;margin:1rem 0}
.errors h2{margin-top:0;color:#7f1d1d}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
textarea,input[type=file]{width:100%;font:inherit;padding:.5rem;border:2px solid #4b5563;border-radius:.25rem;background:#fff;color:#1a1a1a}
textarea{min-height:6rem}
button{font:inherit;font-weight:600;padding:.7rem 1.2rem;margin:.5rem .5rem 0 0;border-radius:.25rem;border:2px solid #1d4ed8;cursor:pointer;min-height:2.75rem}
.primary{background:#1d4ed8;color:#fff}
.secondary{background:#fff;color:#1d4ed8}
.danger{background:#fff;color:#b91c1c;border-color:#b91c1c}
a{color:#1d4ed8}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
ul.items{padding-left:1.25rem}
.hint{color:#374151;font-size:.95rem}
`;

/**
 * What the page may load: nothing but its own inline style, allowed by its hash; no script at
 * all; forms only to this origin; never inside a frame (with X-Frame-Options for older browsers).
 */
export const CUSTOMER_PAGE_POLICY = [
  "default-src 'self'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main id="main">
${body}
</main>
</body>
</html>`;
}

const STATUS_WORDS: Record<string, string> = {
  in_progress: 'Being prepared by your dealer',
  in_review: 'Waiting for your answer',
  review_expired: 'The time to answer has passed',
  change_requested: 'You asked for changes; your dealer is working on them',
  accepted_by_customer: 'You accepted the offer',
  rejected_by_customer: 'You rejected the offer',
  finance_review: 'Accepted; the lender is checking the financing',
  manual_finance_review: 'Accepted; the lender is checking the financing',
  finance_questions: 'The lender has questions',
  finance_accepted: 'The lender approved the financing',
  finance_rejected: 'The lender declined the financing',
  completed: 'Completed',
  canceled: 'Canceled',
};

const DONE: Record<string, string> = {
  accepted: 'Thank you: you accepted the offer. It has gone to the lender for approval.',
  changes_requested: 'Thank you: your dealer has your request for changes.',
  rejected: 'You rejected the offer. Your dealer has been told.',
  uploaded: 'Thank you: your document was uploaded.',
  answered: 'Thank you: your answer was sent.',
};

export interface PageMessages {
  done?: string;
  /** Problems to summarise at the top: the field they belong to, and what to do. */
  errors?: { field: string | null; message: string }[];
  /** What the customer typed, shown again after an error. */
  text?: string;
  /** The answer the customer typed to a question, shown again after an error. */
  answer?: { id: number; text: string };
}

const euro = (amount: number | null) =>
  amount === null ? 'not given' : `${amount.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} EUR`;

function errorSummary(errors: PageMessages['errors']): string {
  if (!errors || errors.length === 0) return '';
  const entries = errors
    .map((error) => `<li>${error.field ? `<a href="#${escape(error.field)}">${escape(error.message)}</a>` : escape(error.message)}</li>`)
    .join('');
  return `<div class="errors" role="alert" aria-labelledby="error-title" tabindex="-1" id="errors"><h2 id="error-title">There is a problem</h2><ul>${entries}</ul></div>`;
}

/** The offer, its answers and the open requests. */
export function offerPage(view: PresentedCustomerView, token: string, messages: PageMessages = {}): string {
  const base = `/c/${encodeURIComponent(token)}`;
  const done = messages.done && DONE[messages.done] ? `<p class="notice" role="status">${escape(DONE[messages.done])}</p>` : '';
  const items = view.items.map((item) => `<li>${escape(item.quantity)} × ${escape(item.productName ?? item.productNumber)}</li>`).join('');
  const interval = view.paymentInterval === 'quarterly' ? 'every three months (the rate is shown per month)' : 'monthly';
  let answer = '';
  if (view.actions.includes('accept')) {
    const textError = messages.errors?.some((error) => error.field === 'text');
    answer = `
<h2>Your answer</h2>
<form method="post" action="${base}/accept">
<button type="submit" class="primary">Accept the offer</button>
</form>
<form method="post" action="${base}/feedback">
<label for="text">What should change? <span class="hint">(needed to ask for changes; optional when rejecting)</span></label>
<textarea id="text" name="text" maxlength="2000"${textError ? ' aria-invalid="true" aria-describedby="errors"' : ''}>${escape(messages.text)}</textarea>
<button type="submit" name="action" value="request_changes" class="secondary">Ask for changes</button>
<button type="submit" name="action" value="reject_by_customer" class="danger">Reject the offer</button>
</form>`;
  }
  const open = view.requestedItems.filter(
    (item) => (item.type === 'document' || item.type === 'fill_and_return') && (item.status === 'pending' || item.status === 'rejected'),
  );
  const requests =
    open.length === 0
      ? ''
      : `
<h2>Documents we need from you</h2>
${open
  .map(
    (item) => `
<form method="post" action="${base}/documents" enctype="multipart/form-data">
<input type="hidden" name="requestedDocumentId" value="${escape(item.id)}">
<input type="hidden" name="category" value="${escape(item.category)}">
<label for="file-${escape(item.id)}">${escape(item.label)}${item.optional ? ' (optional)' : ''}${item.dueAt ? `, due ${escape(item.dueAt.slice(0, 10))}` : ''}</label>
<input type="file" id="file-${escape(item.id)}" name="file" accept="application/pdf,image/png,image/jpeg" required>
<p class="hint">PDF, PNG or JPEG, at most 10 MB.</p>
<button type="submit" class="secondary">Upload</button>
</form>`,
  )
  .join('')}`;
  const questions = view.requestedItems.filter((item) => item.type === 'information' && item.status === 'pending');
  const asked =
    questions.length === 0
      ? ''
      : `
<h2>Questions for you</h2>
${questions
  .map((item) => {
    const field = `answer-${item.id}`;
    const invalid = messages.errors?.some((error) => error.field === field);
    const typed = messages.answer?.id === item.id ? messages.answer.text : '';
    return `
<form method="post" action="${base}/information/${escape(item.id)}">
<label for="${field}">${escape(item.question ?? item.label)}${item.optional ? ' (optional)' : ''}${item.dueAt ? `, due ${escape(item.dueAt.slice(0, 10))}` : ''}</label>
<textarea id="${field}" name="response" maxlength="10000"${invalid ? ' aria-invalid="true" aria-describedby="errors"' : ''}>${escape(typed)}</textarea>
<button type="submit" class="secondary">Send the answer</button>
</form>`;
  })
  .join('')}`;
  return page(
    `Offer ${view.quoteNumber}`,
    `
${errorSummary(messages.errors)}
${done}
<h1>Your offer ${escape(view.quoteNumber)}</h1>
<p>${view.partner.name ? `From ${escape(view.partner.name)}` : 'From your dealer'}${view.customer.company ? ` for ${escape(view.customer.company)}` : ''}</p>
<p>Status: <span class="status" id="status" data-status="${escape(view.status)}">${escape(STATUS_WORDS[view.status] ?? view.status)}</span></p>
<h2>What you get</h2>
<ul class="items">${items}</ul>
<dl>
<dt>How long</dt><dd>${escape(view.duration)} months</dd>
<dt>How much</dt><dd><strong>${escape(euro(view.monthlyRate))}</strong> per month</dd>
<dt>Payment</dt><dd>${escape(interval)}</dd>
<dt>Link valid until</dt><dd>${escape(view.expiresAt.slice(0, 10))}</dd>
</dl>
<p><a href="/customer/v1/quotes/${encodeURIComponent(token)}/offer.pdf">Download the offer as a PDF</a></p>
${answer}
${asked}
${requests}`,
  );
}

/** A link that no longer works, or never did: a page for people, not an error dump. */
export function linkProblemPage(kind: 'expired' | 'unknown'): string {
  const [title, text] =
    kind === 'expired'
      ? [
          'This link has expired',
          'This link no longer works: the time to answer has passed, a newer link replaced it, or the request was canceled. Please ask your dealer to send you a new link.',
        ]
      : [
          'This link does not work',
          'We could not find an offer at this address. Please check that you copied the whole link from the e-mail, or ask your dealer to send it again.',
        ];
  return page(title, `<h1>${escape(title)}</h1><p>${escape(text)}</p>`);
}
