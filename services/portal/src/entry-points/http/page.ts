import path from 'node:path';
import express, { type Application } from 'express';
import { OIDC_SESSION_SCRIPT } from '@rental/bearer-token';
import { ESCAPE_HTML_MODULE } from '@rental/html';

/** The page's files: outside src/, so the build leaves the browser modules as they are. */
const PAGE_DIRECTORY = path.resolve(__dirname, '..', '..', '..', 'page');
const OAUTH_LIBRARY = require.resolve('oauth4webapi');

/**
 * What the page may load: its own files only (no inline script or style), API calls to the
 * portal and, to sign in, to the identity provider; never shown inside a frame.
 */
function pagePolicy(issuer: string): string {
  return [
    "default-src 'self'",
    `connect-src 'self' ${new URL(issuer).origin}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

export interface PageOptions {
  sessionConfig: { issuer: string; audience: string; clientId: string };
}

/**
 * The portal page (/portal and every view beneath it, the sign-in callback included), its
 * script, styles and the OAuth library, and the session config it reads before any token exists.
 */
export function mountPage(app: Application, options: PageOptions): void {
  const headers = {
    'Cache-Control': 'no-store',
    'Content-Security-Policy': pagePolicy(options.sessionConfig.issuer),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
  };
  app.get('/portal/v1/session-config', (_req, res) => {
    res.set('Cache-Control', 'no-store').json(options.sessionConfig);
  });
  app.get('/portal/assets/oauth4webapi.js', (_req, res) => {
    res.set(headers).type('js').sendFile(OAUTH_LIBRARY);
  });
  app.get('/portal/assets/oidc-session.js', (_req, res) => {
    res.set(headers).type('js').sendFile(OIDC_SESSION_SCRIPT);
  });
  app.get('/portal/assets/escape-html.js', (_req, res) => {
    res.set(headers).type('js').send(ESCAPE_HTML_MODULE);
  });
  app.use('/portal/assets', express.static(PAGE_DIRECTORY, { index: false, fallthrough: false, setHeaders: (res) => res.set(headers) }));
  app.get(['/portal', '/portal/{*view}'], (req, res, next) => {
    if (req.path.startsWith('/portal/v1')) {
      next();
      return;
    }
    res.set(headers).type('html').sendFile(path.join(PAGE_DIRECTORY, 'index.html'));
  });
}
