import { SERVICE_NAMES, schemaOf } from './service-directory';

describe('service directory', () => {
  it("when each service's schema is named, then it is the service's name with underscores (the schemas its migrations already created)", () => {
    expect(SERVICE_NAMES.map(schemaOf)).toEqual(['pricing', 'cart_checkout', 'case_workflow', 'documents', 'notifications', 'backoffice', 'portal']);
  });
});
