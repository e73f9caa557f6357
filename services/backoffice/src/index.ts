export { startBackoffice, operatorIssuerOf } from './service';
export { loadBackofficeConfig, backofficeVariables } from './config';
export { backofficeApiDescription } from './entry-points/http/api-description';
