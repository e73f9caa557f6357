import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Application } from 'express';
import { OIDC_SESSION_SCRIPT } from '@rental/bearer-token';
import { ESCAPE_HTML_MODULE, escapeHtml } from '@rental/html';
import { QUOTE_STATES } from '@rental/proto';
import { OPERATOR_MOVES } from '../../domain/operations';
import { OPERATOR_ROLES } from '../../domain/model';
import { CONTRACT_TARGETS } from './contract';

const CONSOLE_DIRECTORY = path.join(__dirname, 'console');
const OAUTH_LIBRARY = require.resolve('oauth4webapi');

/**
 * What the console offers, from the rules the back office enforces: the roles from the least,
 * the quote statuses, the moves with the role each needs, and the places a contract moves to.
 */
const VOCABULARY = { roles: OPERATOR_ROLES, statuses: QUOTE_STATES, moves: OPERATOR_MOVES, contractPlaces: CONTRACT_TARGETS };

/** `'sha256-…'` of every inline element `tag` of the page, in the form a Content-Security-Policy names it. */
function inlineHashes(page: string, tag: 'script' | 'style'): string[] {
  const inline = new RegExp(`<${tag}(?![^>]*\\ssrc=)[^>]*>([\\s\\S]*?)</${tag}>`, 'g');
  return [...page.matchAll(inline)].map(
    (match) =>
      `'sha256-${createHash('sha256')
        .update(match[1] ?? '')
        .digest('base64')}'`,
  );
}

/**
 * What the console may load: its own files, and its inline script and styles by their hashes (so
 * no injected script or style runs); it talks to the back office and, to sign in, to the
 * identity provider; it is never shown inside a frame.
 */
function consolePolicy(page: string, issuerUrl: string | undefined): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${inlineHashes(page, 'script').join(' ')}`,
    `style-src 'self' ${inlineHashes(page, 'style').join(' ')}`,
    `connect-src 'self'${issuerUrl ? ` ${new URL(issuerUrl).origin}` : ''}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

/**
 * The approval team's console: one static page that signs in through the IdP in the browser
 * (oauth4webapi through @rental/bearer-token's oidc-session.js, authorization code with PKCE) and calls /ops/v1 with the token; its script and
 * styles are inline, allowed by their hashes. Every view has its own URL under /console, so the
 * page answers them all.
 */
export function mountConsole(
  app: Application,
  options: { description: () => Record<string, unknown>; rolesClaim: string; issuerUrl: string | undefined },
): void {
  // The page reads the roles from the token to show only the allowed actions; the claim is configured.
  const rolesClaim = options.rolesClaim.replace(/[^A-Za-z0-9_.:/-]/g, '');
  const page = fs
    .readFileSync(path.join(CONSOLE_DIRECTORY, 'index.html'), 'utf8')
    .replace('{{ROLES_CLAIM}}', rolesClaim)
    .replace('{{VOCABULARY}}', escapeHtml(JSON.stringify(VOCABULARY)));
  const pageHeaders = { 'Cache-Control': 'no-store', 'Content-Security-Policy': consolePolicy(page, options.issuerUrl), 'X-Frame-Options': 'DENY' };
  app.get('/ops/v1/docs.json', (_req, res) => {
    res.json(options.description());
  });
  app.get('/console/assets/oauth4webapi.js', (_req, res) => {
    res.type('js').sendFile(OAUTH_LIBRARY);
  });
  app.get('/console/assets/oidc-session.js', (_req, res) => {
    res.type('js').sendFile(OIDC_SESSION_SCRIPT);
  });
  app.get('/console/assets/escape-html.js', (_req, res) => {
    res.type('js').send(ESCAPE_HTML_MODULE);
  });
  app.get(['/console', '/console/{*view}'], (_req, res) => {
    res.set(pageHeaders).type('html').send(page);
  });
}
