import path from 'node:path';

/** The browser module that signs a page's user in (browser/oidc-session.js); a page serves it beside oauth4webapi.js. */
export const OIDC_SESSION_SCRIPT = path.resolve(__dirname, '..', 'browser', 'oidc-session.js');
