export { startPortal, portalIssuerOf } from './service';
export { loadPortalConfig, portalVariables } from './config';
