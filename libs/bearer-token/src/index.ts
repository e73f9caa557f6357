export * from './verifier';
export * from './authentication';
export { OIDC_SESSION_SCRIPT } from './browser-session';
