export { startBackoffice, operatorIssuerOf, BACKOFFICE_SCHEMA } from './service';
export { loadBackofficeConfig, backofficeVariables } from './config';
export { backofficeApiDescription } from './entry-points/http/api-description';
