/**
 * A NUL character in the customer page's feedback form: the form answers 422 and no log line
 * carries the link token.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { LOG_FLUSH_INTERVAL_MS } from '@rental/logger';
import { waitFor } from '@rental/testkit';
import { Owner, newPartner } from '../case-workflow/support/kit';
import { sentLink } from '../support/partner-requests';
import { sharedStack } from '../support/shared-stack';

let owner: Owner;

beforeAll(async () => {
  owner = await newPartner();
});

describe("a NUL in the customer page's feedback form", () => {
  /** Every line every process of the shared stack has logged so far, as written. */
  function everyLogLine(): string {
    const directory = sharedStack().logDirectory;
    return fs
      .readdirSync(directory)
      .filter((name) => name.endsWith('.log'))
      .map((name) => fs.readFileSync(path.join(directory, name), 'utf8'))
      .join('\n');
  }

  it('when the text holds a NUL, then 422 naming the text field, nothing changes, and no log line carries the link token', async () => {
    const { caseId, token } = await sentLink(owner);
    const requestId = randomUUID();
    const response = await fetch(`${sharedStack().gatewayUrl}/c/${token}/feedback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Request-Id': requestId },
      body: new URLSearchParams({ action: 'request_changes', text: 'More\u0000months' }).toString(),
      redirect: 'manual',
    });
    const page = await response.text();
    expect([response.status, response.headers.get('content-type')]).toEqual([422, 'text/html; charset=utf-8']);
    expect(page).toContain('<a href="#text">The text cannot contain a NUL character; remove it and send again.</a>');
    expect(page).toContain('<textarea id="text" name="text" maxlength="2000" aria-invalid="true" aria-describedby="errors">');
    expect((await owner.api.get(`/api/financing_cases/${caseId}`)).json.status).toBe('in_review');

    // The gateway writes an access line for every call; the services' lines come out as quickly.
    await waitFor(() => (everyLogLine().includes(requestId) ? true : undefined), { what: 'the access line of the feedback' });
    await new Promise((resolve) => setTimeout(resolve, LOG_FLUSH_INTERVAL_MS * 3));
    expect(everyLogLine()).not.toContain(token);
  });
});
