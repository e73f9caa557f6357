import { escapeHtml } from '@rental/html';
import { PROBLEM_TYPE_PATH, type ProblemCatalogue, type ProblemDescription } from '@rental/problem';

/** The list of every problem type, beside their pages under PROBLEM_TYPE_PATH. */
export const PROBLEM_INDEX_PATH = '/problems';

/** Catalogue text marks names with backticks, as the API description does; they become code. */
const prose = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}code{background:#f2f2f2;padding:0 .2em;border-radius:3px}table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}';

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Partner Rental API</title><style>${STYLE}</style></head>
<body><main>
${body}
</main></body>
</html>`;
}

const ANSWER_NOTE =
  '<p>A problem answer is <code>application/problem+json</code>: <code>type</code> is the URL of this page, <code>title</code> its short title, <code>detail</code> what went wrong in this request, and <code>instance</code> names the request (<code>urn:request:&lt;request id&gt;</code>, the <code>X-Request-Id</code> header); every 422 lists <code>violations</code>. Quote the request id when you contact support.</p>';

/** The page a problem's `type` opens: what the problem means and how to fix it. */
export function problemPage(code: string, description: ProblemDescription): string {
  return page(
    description.title,
    `<p><a href="${PROBLEM_INDEX_PATH}">All problem types</a> · <a href="/api/docs">API reference</a></p>
<h1>${escapeHtml(description.title)}</h1>
<p>Problem type <code>${escapeHtml(code)}</code></p>
<h2>What it means</h2>
<p>${prose(description.meaning)}</p>
<h2>How to fix it</h2>
<p>${prose(description.fix)}</p>
${ANSWER_NOTE}`,
  );
}

/** Every problem type, by code, linking to its page. */
export function problemIndexPage(catalogue: ProblemCatalogue): string {
  const rows = Object.entries(catalogue)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([code, description]) =>
        `<tr><td><a href="${PROBLEM_TYPE_PATH}${encodeURIComponent(code)}"><code>${escapeHtml(code)}</code></a></td><td>${escapeHtml(description.title)}</td></tr>`,
    )
    .join('\n');
  return page(
    'Problem types',
    `<p><a href="/api/docs">API reference</a></p>
<h1>Problem types</h1>
${ANSWER_NOTE}
<table>
<thead><tr><th>Type</th><th>Title</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`,
  );
}
