// The partner portal page: signs a partner user in at the identity provider (authorization code
// with PKCE, oauth4webapi) and calls /portal/v1 with the token. It offers only what the user's
// roles allow (GET /portal/v1/me says so); the portal checks every call again itself.
import { oidcSession } from '/portal/assets/oidc-session.js';
import { escapeHtml as esc } from '/portal/assets/escape-html.js';

const app = document.getElementById('app');
const nav = document.getElementById('nav');
const who = document.getElementById('who');
const messageBox = document.getElementById('message');
const ROLL_CHOICES = [
  ['0', 'now'],
  ['3600', 'in 1 hour'],
  ['86400', 'in 24 hours'],
  ['604800', 'in 7 days'],
];

const when = (iso) => (iso ? new Date(iso).toLocaleString() : '—');
const cell = (label, html) => `<td data-label="${esc(label)}">${html}</td>`;

function say(text, isError = false) {
  messageBox.textContent = text;
  messageBox.className = isError ? 'error' : '';
}

const session = oidcSession({
  configPath: '/portal/v1/session-config',
  clientIdOf: (config) => config.clientId,
  callbackPath: '/portal/callback',
  storagePrefix: 'portal',
  returnTo: () => location.pathname,
});
const api = (method, path, body) => session.api(method, path, body);

async function finishSignIn() {
  const returnTo = await session.finishSignIn();
  location.replace(returnTo.startsWith('/portal/') && returnTo !== '/portal/callback' ? returnTo : '/portal/keys');
}

/** Runs an action of a form or button, reporting its outcome, then shows the view again. */
async function act(work, done) {
  say('Working…');
  try {
    const result = await work();
    say(done);
    return result;
  } catch (error) {
    say(error.message, true);
    return undefined;
  }
}

function secretBox(label, value, note) {
  return `<div class="secret" role="alert"><strong>${esc(label)}</strong><code id="secret-value">${esc(value)}</code>
    <button type="button" id="copy-secret" class="secondary">Copy</button> <span>${esc(note)}</span></div>`;
}

function wireCopy() {
  document.getElementById('copy-secret')?.addEventListener('click', async () => {
    await navigator.clipboard.writeText(document.getElementById('secret-value').textContent);
    say('Copied.');
  });
}

// Keys

async function keysView(me, shown = '') {
  const keys = await api('GET', '/portal/v1/api-keys');
  const rows = keys
    .map((key) => {
      const live = key.status === 'active' || key.status === 'expiring';
      const actions =
        me.may.manageKeys && live
          ? `<div class="row-actions">
        <label>Old key stops<select data-roll-choice="${esc(key.id)}">${ROLL_CHOICES.map(([value, label]) => `<option value="${value}"${value === '86400' ? ' selected' : ''}>${label}</option>`).join('')}</select></label>
        <button type="button" class="secondary" data-roll="${esc(key.id)}">Roll</button>
        <button type="button" class="danger" data-revoke="${esc(key.id)}" data-name="${esc(key.name)}">Revoke</button></div>`
          : '';
      return `<tr>${cell('Name', esc(key.name))}${cell('Status', `<span class="status ${esc(key.status)}">${esc(key.status)}</span>`)}${cell('Prefix', `<code>${esc(key.prefix)}</code>`)}${cell('Role', esc(key.role))}
      ${cell('Last used', when(key.lastUsedAt))}${cell('Expires', when(key.expiresAt))}${cell('Created by', esc(key.createdBy.name ?? key.createdBy.type))}${me.may.manageKeys ? cell('Actions', actions) : ''}</tr>`;
    })
    .join('');
  const createForm = me.may.manageKeys
    ? `<h2>New key</h2>
    <form class="action" id="create-key">
      <label>Name<input name="name" required maxlength="100"></label>
      <label>Role<select name="role"><option value="api_user">api_user</option><option value="readonly">readonly</option></select></label>
      <label>Expires (optional)<input name="expiresAt" type="date"></label>
      <button type="submit">Create key</button>
    </form>`
    : '';
  app.innerHTML = `<h1>API keys (${esc(me.environment)})</h1>${shown}${createForm}
    <div class="table"><table class="cards"><thead><tr><th>Name</th><th>Status</th><th>Prefix</th><th>Role</th><th>Last used</th><th>Expires</th><th>Created by</th>${me.may.manageKeys ? '<th>Actions</th>' : ''}</tr></thead>
    <tbody>${rows || '<tr><td colspan="8">No keys yet.</td></tr>'}</tbody></table></div>`;
  wireCopy();
  document.getElementById('create-key')?.addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const expires = form.get('expiresAt');
    const body = { name: form.get('name'), role: form.get('role'), ...(expires ? { expiresAt: new Date(`${expires}T23:59:59`).toISOString() } : {}) };
    const created = await act(() => api('POST', '/portal/v1/api-keys', body), 'Key created.');
    if (created) await keysView(me, secretBox(`Key ${created.name}`, created.key, 'Copy it now: it will not be shown again.'));
  });
  app.querySelectorAll('[data-roll]').forEach((button) =>
    button.addEventListener('click', async () => {
      const expiresIn = Number(app.querySelector(`[data-roll-choice="${CSS.escape(button.dataset.roll)}"]`).value);
      const rolled = await act(() => api('POST', `/portal/v1/api-keys/${encodeURIComponent(button.dataset.roll)}/roll`, { expiresIn }), 'Key rolled.');
      if (rolled) await keysView(me, secretBox(`New key ${rolled.name}`, rolled.key, 'Copy it now: it will not be shown again.'));
    }),
  );
  app.querySelectorAll('[data-revoke]').forEach((button) =>
    button.addEventListener('click', async () => {
      if (!confirm(`Revoke the key ${button.dataset.name}? Requests with it fail within seconds.`)) return;
      if (await act(() => api('POST', `/portal/v1/api-keys/${encodeURIComponent(button.dataset.revoke)}/revoke`, {}), 'Key revoked.')) await keysView(me);
    }),
  );
}

// Webhooks

async function deliveriesOf(me, endpointId) {
  const deliveries = await api('GET', `/portal/v1/webhook-endpoints/${encodeURIComponent(endpointId)}/deliveries`);
  const rows = deliveries
    .map((delivery) => {
      const last = delivery.attempts[delivery.attempts.length - 1];
      const redeliver =
        me.may.manageWebhooks && delivery.status !== 'pending'
          ? `<button type="button" class="secondary" data-redeliver="${esc(delivery.eventId)}" data-endpoint="${esc(endpointId)}">Redeliver</button>`
          : '';
      return `<tr>${cell('Event', `${esc(delivery.event)}<br><code>${esc(delivery.eventId)}</code>`)}${cell('Status', `<span class="status ${esc(delivery.status)}">${esc(delivery.status)}</span>`)}
      ${cell('Attempts', esc(delivery.attemptCount))}${cell('Response', esc(last?.statusCode ?? '—'))}${cell('When', when(delivery.createdAt))}${me.may.manageWebhooks ? cell('Actions', redeliver) : ''}</tr>`;
    })
    .join('');
  return `<div class="table"><table class="cards deliveries"><thead><tr><th>Event</th><th>Status</th><th>Attempts</th><th>Response</th><th>When</th>${me.may.manageWebhooks ? '<th>Actions</th>' : ''}</tr></thead>
    <tbody>${rows || '<tr><td colspan="6">No deliveries yet.</td></tr>'}</tbody></table></div>`;
}

async function webhooksView(me, shown = '') {
  const endpoints = await api('GET', '/portal/v1/webhook-endpoints');
  const sections = await Promise.all(
    endpoints.map(async (endpoint) => {
      const tools = me.may.manageWebhooks
        ? `<div class="row-actions">
        <button type="button" class="secondary" data-toggle="${esc(endpoint.id)}" data-active="${endpoint.active}">${endpoint.active ? 'Pause' : 'Resume'}</button>
        <button type="button" class="secondary" data-rotate="${esc(endpoint.id)}">Rotate secret</button>
        <button type="button" class="secondary" data-test="${esc(endpoint.id)}">Send test event</button>
        <button type="button" class="danger" data-delete="${esc(endpoint.id)}" data-url="${esc(endpoint.url)}">Delete</button></div>`
        : '';
      return `<section class="endpoint"><h2><code>${esc(endpoint.url)}</code> <span class="status">${endpoint.active ? 'active' : 'paused'}</span></h2>${tools}
      <h3>Recent deliveries</h3>${await deliveriesOf(me, endpoint.id)}</section>`;
    }),
  );
  const addForm = me.may.manageWebhooks
    ? `<form class="action" id="add-endpoint"><label>HTTPS URL<input name="url" type="url" required placeholder="https://example.com/webhooks"></label><button type="submit">Add endpoint</button></form>`
    : '';
  app.innerHTML = `<h1>Webhooks</h1>${shown}${addForm}${sections.join('') || '<p>No webhook endpoints yet.</p>'}`;
  wireCopy();
  const again = (extra) => webhooksView(me, extra);
  document.getElementById('add-endpoint')?.addEventListener('submit', async (event) => {
    event.preventDefault();
    const created = await act(() => api('POST', '/portal/v1/webhook-endpoints', { url: new FormData(event.target).get('url') }), 'Endpoint added.');
    if (created) await again(secretBox('Signing secret', created.secret, 'Copy it now: it will not be shown again.'));
  });
  const on = (attribute, handler) => app.querySelectorAll(`[data-${attribute}]`).forEach((button) => button.addEventListener('click', () => handler(button)));
  on('toggle', async (button) => {
    if (
      await act(() => api('PATCH', `/portal/v1/webhook-endpoints/${button.dataset.toggle}`, { active: button.dataset.active !== 'true' }), 'Endpoint changed.')
    )
      await again();
  });
  on('rotate', async (button) => {
    const rotated = await act(() => api('POST', `/portal/v1/webhook-endpoints/${button.dataset.rotate}/rotate-secret`, {}), 'Secret rotated.');
    if (rotated) await again(secretBox('New signing secret', rotated.secret, 'Copy it now: it will not be shown again. The old one signs too for a day.'));
  });
  on('test', async (button) => {
    if (await act(() => api('POST', `/portal/v1/webhook-endpoints/${button.dataset.test}/test-event`), 'Test event queued.')) await again();
  });
  on('delete', async (button) => {
    if (!confirm(`Delete the endpoint ${button.dataset.url}?`)) return;
    if ((await act(() => api('DELETE', `/portal/v1/webhook-endpoints/${button.dataset.delete}`), 'Endpoint deleted.')) !== undefined) await again();
  });
  on('redeliver', async (button) => {
    if (
      await act(
        () => api('POST', `/portal/v1/webhook-endpoints/${button.dataset.endpoint}/deliveries/${encodeURIComponent(button.dataset.redeliver)}/redeliver`),
        'Redelivery queued.',
      )
    )
      await again();
  });
}

// Audit

async function auditView() {
  const entries = await api('GET', '/portal/v1/audit');
  const rows = entries
    .map(
      (
        entry,
      ) => `<tr>${cell('When', when(entry.at))}${cell('Who', `${esc(entry.actor.name ?? entry.actor.id ?? '')} <span class="status">${esc(entry.actor.type)}</span>`)}
    ${cell('What', `<code>${esc(entry.action)}</code>`)}${cell('On', `${esc(entry.target.type)} ${esc(entry.target.name)}`)}${cell('Reason', esc(entry.reason ?? ''))}</tr>`,
    )
    .join('');
  app.innerHTML = `<h1>Audit</h1><div class="table"><table class="cards"><thead><tr><th>When</th><th>Who</th><th>What</th><th>On</th><th>Reason</th></tr></thead>
    <tbody>${rows || '<tr><td colspan="5">Nothing changed yet.</td></tr>'}</tbody></table></div>`;
}

const VIEWS = { keys: keysView, webhooks: webhooksView, audit: auditView };

async function show(me) {
  const view = location.pathname.split('/')[2] || 'keys';
  nav.querySelectorAll('a').forEach((link) => {
    if (link.dataset.view === view) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  });
  try {
    await (VIEWS[view] ?? keysView)(me);
  } catch (error) {
    say(error.message, true);
  }
}

async function main() {
  if (location.pathname === '/portal/callback') {
    await finishSignIn();
    return;
  }
  if (!session.token()) {
    await session.signIn();
    return;
  }
  const me = await api('GET', '/portal/v1/me');
  who.textContent = `${me.name ?? me.id} (${me.partnerId}; ${me.roles.join(', ')})`;
  nav.hidden = false;
  nav.addEventListener('click', (event) => {
    const link = event.target.closest('a[data-view]');
    if (!link) return;
    event.preventDefault();
    history.pushState(null, '', link.href);
    say('');
    show(me);
  });
  window.addEventListener('popstate', () => show(me));
  await show(me);
}

main().catch((error) => say(error.message, true));
