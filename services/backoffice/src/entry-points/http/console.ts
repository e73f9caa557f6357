import fs from 'node:fs';
import path from 'node:path';
import type { Application } from 'express';

const CONSOLE_DIRECTORY = path.join(__dirname, 'console');
const OAUTH_LIBRARY = require.resolve('oauth4webapi');

/**
 * The approval team's console: one static page that signs in through the IdP in the browser
 * (oauth4webapi, authorization code with PKCE) and calls /ops/v1 with the token; its script and
 * styles are inline. Every view has its own URL under /console, so the page answers them all.
 */
export function mountConsole(app: Application, options: { description: () => Record<string, unknown>; rolesClaim: string }): void {
  // The page reads the roles from the token to show only the allowed actions; the claim is configured.
  const rolesClaim = options.rolesClaim.replace(/[^A-Za-z0-9_.:/-]/g, '');
  const page = fs.readFileSync(path.join(CONSOLE_DIRECTORY, 'index.html'), 'utf8').replace('{{ROLES_CLAIM}}', rolesClaim);
  const noStore = { 'Cache-Control': 'no-store' };
  app.get('/ops/v1/docs.json', (_req, res) => {
    res.json(options.description());
  });
  app.get('/console/assets/oauth4webapi.js', (_req, res) => {
    res.type('js').sendFile(OAUTH_LIBRARY);
  });
  app.get(['/console', '/console/{*view}'], (_req, res) => {
    res.set(noStore).type('html').send(page);
  });
}
